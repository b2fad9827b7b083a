# The two commands of the README's quick start, plus the checks CI runs.
#   make demo   build authtui and run it on the built-in sandbox provider
#   make test   every check: packages, import rules, formatter, build, the whole test suite
#   make test-tsan, make test-asan   the whole test suite under ThreadSanitizer / AddressSanitizer

SWIFT ?= swift

.PHONY: demo test deps build lint imports bench clean

demo: deps
	$(SWIFT) build --product authtui
	"$$($(SWIFT) build --show-bin-path)/authtui" demo

test: deps imports lint
	$(SWIFT) build --build-tests
	$(SWIFT) test

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

bench: deps
	@for bench in Benchmarks/*; do [ -f "$$bench" ] && [ -x "$$bench" ] && "$$bench"; done; true

clean:
	rm -rf .build
