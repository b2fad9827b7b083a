# The two commands of the README's quick start, plus the checks CI runs.
#   make demo   build authtui and run it on the built-in sandbox provider
#   make bench  every benchmark under Benchmarks/ and one table of their figures
#   make test   every check: packages, import rules, formatter, build (no warning about our
#               code: scripts/check-build-log), the whole test suite, then a short run of
#               every fuzz target (fuzz-smoke)
#   make fuzz   every fuzz target for FUZZ_SECONDS each (FUZZ_TARGETS=… picks some)
#   make test-tsan, make test-asan   the whole test suite under ThreadSanitizer / AddressSanitizer
#   make install [PREFIX=~/.local]   release build, stripped: PREFIX/bin/authtui, the full program in
#               PREFIX/libexec/authtui/authtui-core, the manual page in PREFIX/share/man/man1,
#               completions for bash, zsh and fish under PREFIX/share; make uninstall removes them

SWIFT ?= swift

.PHONY: demo test deps build lint imports bench clean fuzz fuzz-smoke fuzz-build install uninstall

# `authtui` is a statically linked front that hands everything but an agent's `token` answer
# to the full program, `authtui-core`: both are built.
demo: deps
	$(SWIFT) build --product authtui-core
	$(SWIFT) build --product authtui
	"$$($(SWIFT) build --show-bin-path)/authtui" demo

# The build's output is kept in $(BUILD_LOG) (shown as it comes) and checked by
# scripts/check-build-log: a warning about Sources/ or Tests/ fails the run. Only the files a
# build compiles are warned about, so the check sees everything on a fresh clone (CI).
BUILD_LOG ?= .build/build-tests.log

test: deps imports lint
	@mkdir -p "$(dir $(BUILD_LOG))"
	@{ $(SWIFT) build --build-tests 2>&1; echo $$? > "$(BUILD_LOG).status"; } | tee "$(BUILD_LOG)"
	@exit $$(cat "$(BUILD_LOG).status")
	@scripts/check-build-log "$(BUILD_LOG)"
	$(SWIFT) test
	$(MAKE) fuzz-smoke

# Slow (each a full build of its own in .build/tsan or .build/asan); see scripts/test-sanitized.
.PHONY: test-tsan test-asan
test-tsan: deps
	@SWIFT=$(SWIFT) scripts/test-sanitized thread

test-asan: deps
	@SWIFT=$(SWIFT) scripts/test-sanitized address

deps:
	@scripts/ensure-packages

imports:
	@scripts/check-imports

lint:
	$(SWIFT) format lint --strict -r Sources Tests

build: deps
	$(SWIFT) build

# Every benchmark under Benchmarks/, then one table of their figures, baselines and ratios
# (scripts/bench; a few minutes).
bench: deps
	@scripts/bench

clean:
	rm -rf .build

PREFIX ?= $(HOME)/.local
BINDIR = $(DESTDIR)$(PREFIX)/bin
LIBEXECDIR = $(DESTDIR)$(PREFIX)/libexec/authtui
MANDIR = $(DESTDIR)$(PREFIX)/share/man/man1
BASHDIR = $(DESTDIR)$(PREFIX)/share/bash-completion/completions
ZSHDIR = $(DESTDIR)$(PREFIX)/share/zsh/site-functions
FISHDIR = $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d

install: deps
	$(SWIFT) build -c release --product authtui-core
	$(SWIFT) build -c release --product authtui
	install -d "$(BINDIR)" "$(LIBEXECDIR)"
	@# Stripped apart, then copied whole: strip(1) rewriting the installed file in place (as
	@# `install -s` has it do) leaves it in the page cache in small pieces, and `authtui token`
	@# then starts about a sixth slower until the file is read again from disk.
	bin="$$($(SWIFT) build -c release --show-bin-path)" && stripped="$$(mktemp -d)" && \
	  strip -o "$$stripped/authtui-core" "$$bin/authtui-core" && \
	  strip -o "$$stripped/authtui" "$$bin/authtui" && \
	  install -m 755 "$$stripped/authtui-core" "$(LIBEXECDIR)/authtui-core" && \
	  install -m 755 "$$stripped/authtui" "$(BINDIR)/authtui"; \
	  status=$$?; rm -rf "$$stripped"; exit $$status
	install -d "$(MANDIR)" "$(BASHDIR)" "$(ZSHDIR)" "$(FISHDIR)"
	"$(BINDIR)/authtui" help --man > "$(MANDIR)/authtui.1"
	"$(BINDIR)/authtui" completion bash > "$(BASHDIR)/authtui"
	"$(BINDIR)/authtui" completion zsh > "$(ZSHDIR)/_authtui"
	"$(BINDIR)/authtui" completion fish > "$(FISHDIR)/authtui.fish"
	chmod 644 "$(MANDIR)/authtui.1" "$(BASHDIR)/authtui" "$(ZSHDIR)/_authtui" "$(FISHDIR)/authtui.fish"
	@echo "installed $(BINDIR)/authtui, $(LIBEXECDIR)/authtui-core, $(MANDIR)/authtui.1 and the completions for bash, zsh and fish"

uninstall:
	rm -f "$(BINDIR)/authtui" "$(LIBEXECDIR)/authtui-core" "$(MANDIR)/authtui.1" \
	  "$(BASHDIR)/authtui" "$(ZSHDIR)/_authtui" "$(FISHDIR)/authtui.fish"
	-rmdir "$(LIBEXECDIR)" 2>/dev/null

# Fuzzing (Tests/Fuzz): one harness, authtui-fuzz, with a target per parser of outside input;
# `authtui-fuzz --list` names them, Tests/Fuzz/Corpus/TARGET holds each one's seed inputs.
#
# How it is built, and why so:
# - A build of its own (--scratch-path .build/fuzz), so the instrumented objects never replace
#   the normal debug build's. Release, as libFuzzer needs speed more than -Onone's debugging.
# - Not `-sanitize=fuzzer`: that links libFuzzer's own `main`, which clashes with the `main` of
#   every SwiftPM executable the flags reach (authtui-fuzz and the DataFileEmbedder build tool;
#   ld.gold then dies with "internal error in format_file_lineno"). Instead the code gets what
#   -sanitize=fuzzer would give it (AddressSanitizer and libFuzzer's coverage), the link gets
#   libFuzzer without its main (libclang_rt.fuzzer_no_main, which needs libstdc++), and
#   authtui-fuzz's own main hands the chosen target to LLVMFuzzerRunDriver (-DFUZZING).
#   ld.gold's "Cannot export local symbol" warnings about ASan symbols are harmless.
# - Built without those flags (swift build, swift test), authtui-fuzz replays its corpus
#   instead, which FuzzCorpusTests runs as part of the normal suite.
#
# Running: new inputs libFuzzer finds go to $(FUZZ_WORK)/corpus/TARGET (the seed folder in the
# repository is only read), a crashing input to $(FUZZ_WORK)/crashes/TARGET-crash-…; replay it
# with `authtui-fuzz TARGET FILE` (either build). -timeout makes a slow input a failure (a
# hang), -rss_limit_mb a runaway allocation. Leak detection is off: Swift keeps enum tags in the
# spare bits of pointers, so LeakSanitizer misses them and reports a value a global still holds
# (the id_token targets' signing key) as leaked.
FUZZ_SECONDS ?= 60
FUZZ_SMOKE_RUNS ?= 20000
FUZZ_SMOKE_SECONDS ?= 10
FUZZ_TARGETS ?= $(notdir $(wildcard Tests/Fuzz/Corpus/*))
FUZZ_WORK ?= .build/fuzz-work
FUZZ_BUILD = .build/fuzz
FUZZ_BIN = $(FUZZ_BUILD)/release/authtui-fuzz
FUZZ_RUNTIME = $(shell "$(dir $(shell command -v $(SWIFT)))clang" \
  --print-file-name=libclang_rt.fuzzer_no_main-$(shell uname -m).a)
FUZZ_FLAGS = -c release --scratch-path $(FUZZ_BUILD) --product authtui-fuzz \
  -Xswiftc -sanitize=address \
  -Xswiftc -sanitize-coverage=edge,inline-8bit-counters,pc-table,trace-cmp \
  -Xswiftc -DFUZZING -Xlinker $(FUZZ_RUNTIME) -Xlinker -lstdc++
FUZZ_OPTIONS = -timeout=10 -rss_limit_mb=2048 -detect_leaks=0 -print_final_stats=1

fuzz-build: deps
	@test -f "$(FUZZ_RUNTIME)" || { echo "fuzz: libFuzzer ($(FUZZ_RUNTIME)) is not in this toolchain" >&2; exit 1; }
	@scripts/fuzz build "$(SWIFT)" $(FUZZ_FLAGS)

fuzz: fuzz-build
	@scripts/fuzz run "$(FUZZ_BIN)" "$(FUZZ_WORK)" "$(FUZZ_TARGETS)" \
	  -max_total_time=$(FUZZ_SECONDS) $(FUZZ_OPTIONS)

fuzz-smoke: fuzz-build
	@scripts/fuzz run "$(FUZZ_BIN)" "$(FUZZ_WORK)" "$(FUZZ_TARGETS)" \
	  -runs=$(FUZZ_SMOKE_RUNS) -max_total_time=$(FUZZ_SMOKE_SECONDS) $(FUZZ_OPTIONS)
