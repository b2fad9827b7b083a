# Shared by the benchmarks (sourced, not run): the release binaries installed as `make install`
# puts them, alternate timing of two commands, /proc memory figures, and the rows of the table
# that `make bench` (scripts/bench) prints. Needs bash, coreutils and awk only.

# build_products PRODUCT...: the release build of each, unless AUTHTUI_BENCH_BUILD names the
# folder of another build's binaries to measure instead (an older commit's, for a before and
# after); sets $bin to the folder the binaries are in.
build_products() {
  if [ -n "${AUTHTUI_BENCH_BUILD:-}" ]; then
    bin=$AUTHTUI_BENCH_BUILD
    return 0
  fi
  local product output
  for product in "$@"; do
    # The build's own words only when it fails (swift build writes its errors to standard
    # output): a benchmark then says why it stopped, not nothing.
    if ! output=$(swift build -c release --product "$product" 2>&1); then
      printf '%s\n' "$output" | tail -n 40 >&2
      echo "$(basename "$0"): swift build -c release --product $product failed" >&2
      return 1
    fi
  done
  bin=$(swift build -c release --show-bin-path)
}

# install_binaries FOLDER: authtui and authtui-core of $bin (build_products), installed under
# FOLDER/prefix (bin/authtui, libexec/authtui/authtui-core) as `make install` puts them
# (stripped apart, then copied whole by install(1)); sets $authtui and $core. Timed there,
# not in .build: a file the linker (or strip, in place) has just written is held in the page
# cache in small pieces, and a process started from it takes a fifth or a sixth longer until
# the file is read again from disk, or after a reboot.
install_binaries() {
  install -d "$1/prefix/bin" "$1/prefix/libexec/authtui" "$1/stripped"
  strip -o "$1/stripped/authtui-core" "$bin/authtui-core"
  strip -o "$1/stripped/authtui" "$bin/authtui"
  install -m 755 "$1/stripped/authtui-core" "$1/prefix/libexec/authtui/authtui-core"
  install -m 755 "$1/stripped/authtui" "$1/prefix/bin/authtui"
  authtui="$1/prefix/bin/authtui"
  core="$1/prefix/libexec/authtui/authtui-core"
}

# median: the median of the numbers on standard input, one a line.
median() {
  sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) exit 1; print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# alternate RUNS NAME -- A... -- B...: runs A and B in turn RUNS times each (A B A B …, so a
# machine that slows down during the run slows both alike), standard output and error to
# /dev/null, and sets NAME_a and NAME_b (median milliseconds, wall clock) and NAME_ratio (the
# median of the pair-by-pair ratios A/B). Fails when a run fails. The shell's own fork is in
# both; it is far below the commands timed with it (tens of milliseconds and up).
alternate() {
  local runs=$1 name=$2 split run start middle end
  shift 3
  local -a arguments=("$@") first second
  for split in "${!arguments[@]}"; do [ "${arguments[$split]}" = "--" ] && break; done
  first=("${arguments[@]:0:split}")
  second=("${arguments[@]:split+1}")
  local pairs=""
  for ((run = 0; run < runs; run++)); do
    start=${EPOCHREALTIME/,/.}
    "${first[@]}" >/dev/null 2>&1 || { echo "benchmark: ${first[*]} failed" >&2; return 1; }
    middle=${EPOCHREALTIME/,/.}
    "${second[@]}" >/dev/null 2>&1 || { echo "benchmark: ${second[*]} failed" >&2; return 1; }
    end=${EPOCHREALTIME/,/.}
    pairs+="$start $middle $end"$'\n'
  done
  printf -v "${name}_a" '%s' "$(printf '%s' "$pairs" | awk 'NF { printf "%.3f\n", ($2 - $1) * 1000 }' | median)"
  printf -v "${name}_b" '%s' "$(printf '%s' "$pairs" | awk 'NF { printf "%.3f\n", ($3 - $2) * 1000 }' | median)"
  printf -v "${name}_ratio" '%s' "$(printf '%s' "$pairs" | awk 'NF { printf "%.4f\n", ($2 - $1) / ($3 - $2) }' | median)"
}

# memory_of PID: "VMRSS VMHWM" of the process, in kB (/proc/PID/status).
memory_of() {
  awk '$1 == "VmRSS:" { rss = $2 } $1 == "VmHWM:" { hwm = $2 } END { print rss, hwm }' "/proc/$1/status"
}

# figure NAME VALUE UNIT [BASELINE BASELINE_NAME [BOUND [RATIO]]]: one row of `make bench`'s
# table, appended to $AUTHTUI_BENCH_FIGURES when it is set (the benchmark was started by
# scripts/bench); nothing otherwise. BASELINE is a number in UNIT, measured in the same run;
# BOUND is issue 29's bound on VALUE (a number in UNIT) or on the ratio (a number and "x").
# The ratio is VALUE / BASELINE, or RATIO when given (a median of pair-by-pair ratios).
figure() {
  [ -n "${AUTHTUI_BENCH_FIGURES:-}" ] || return 0
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "${4:-}" "${5:-}" "${6:-}" "${7:-}" \
    >>"$AUTHTUI_BENCH_FIGURES"
}
