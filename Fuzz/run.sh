#!/usr/bin/env bash
# Fuzzes every parser of the toolkit with libFuzzer + AddressSanitizer (docs/reliability.md).
#
#   bash Fuzz/run.sh [SECONDS] [TARGET…]     default: 60 s for each of the 14 targets
#   bash Fuzz/run.sh --build-only             the build alone (CI starts it early, .ci/run)
#
# The targets run FUZZ_JOBS at a time (default: one per CPU), each libFuzzer process on one core
# for SECONDS; the table lists them in the order given.
#
# Builds Fuzz/ (-sanitize=fuzzer,address for every module, so the toolkit's code is
# coverage-instrumented; the debug configuration, in which the toolkit's parsing, signal and
# analysis modules are optimised as in the tests' build — Package.swift — at about 65 % of a
# release build's compilation: docs/reliability.md §1), builds the seed corpora from SampleData/ and ../shared/data/ (Fuzz/seeds.py),
# replays Fuzz/regressions/TARGET/ (inputs that once crashed), then runs each target for SECONDS.
# The corpus grows in Fuzz/.work/corpus/TARGET across runs; a crash, leak, timeout (> 10 s per
# input) or memory blow-up (> 2 GB) is saved to Fuzz/.work/crashes/ and fails the run.
set -euo pipefail
cd "$(dirname "$0")"
build_only=false
if [ "${1:-}" = --build-only ]; then build_only=true; shift; fi
seconds=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(json-items tapping audio-results csv wav heart-rate recorder-lines analysis archive calibration iio config manifest zip-directory)

work=.work
mkdir -p "$work"
flags=(-c debug -Xswiftc -sanitize=fuzzer,address --disable-index-store)
if ! swift build "${flags[@]}" --disable-build-manifest-caching >"$work/build.log" 2>&1; then
    grep -E "error" "$work/build.log" | head -20
    echo "Fuzz/run.sh: the build failed (see Fuzz/$work/build.log)" >&2
    exit 2
fi
$build_only && exit 0
bin=$(swift build "${flags[@]}" --show-bin-path)
rm -rf "$work/seeds"
python3 seeds.py "$work/seeds" >/dev/null
mkdir -p "$work/crashes"
# Swift's own backtracer reads memory ASan calls wild; libFuzzer prints the trap instead.
export SWIFT_BACKTRACE=enable=no
export ASAN_OPTIONS="detect_leaks=1:allocator_may_return_null=1"
export LSAN_OPTIONS="suppressions=$PWD/../scripts/lsan.supp:print_suppressions=0"

# One target: its regressions, then SECONDS of fuzzing; its table row in $work/TARGET.row, whose
# result is "ok" unless either failed.
fuzz_one() {
    local target=$1 log="$work/$1.log" result=ok
    mkdir -p "$work/corpus/$target"
    if [ -d "regressions/$target" ] && ! "$bin/fuzz-$target" regressions/$target/* >"$log.regressions" 2>&1; then
        result="regression failed (see $log.regressions)"
    fi
    if ! "$bin/fuzz-$target" -max_total_time="$seconds" -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
        -print_final_stats=1 -artifact_prefix="$work/crashes/$target-" \
        "$work/corpus/$target" "$work/seeds/$target" >"$log" 2>&1; then
        result="CRASH: $(grep -m1 -E "ERROR|Fatal error|deadly signal|timeout" "$log" | cut -c1-120) (see $log)"
    fi
    local executions cov
    executions=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
    cov=$(grep -oE "cov: [0-9]+" "$log" | tail -1 | cut -d' ' -f2)
    printf '%-16s %6s %11s %8s %6s %8s  %s\n' "$target" "$(ls "$work/seeds/$target" | wc -l)" "${executions:-?}" "$(( ${executions:-0} / seconds ))" \
        "${cov:-?}" "$(ls "$work/corpus/$target" | wc -l)" "$result" >"$work/$target.row"
}

jobs=${FUZZ_JOBS:-$(nproc)}
for target in "${targets[@]}"; do
    rm -f "$work/$target.row"
    while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || true; done
    fuzz_one "$target" &
done
wait
status=0
printf '%-16s %6s %11s %8s %6s %8s  %s\n' target seeds executions exec/s cov corpus result
for target in "${targets[@]}"; do
    row=$(cat "$work/$target.row" 2>/dev/null || echo "$target  (no result: the run of this target ended without one)")
    echo "$row"
    [[ "$row" == *"  ok" ]] || status=1
done
exit $status
