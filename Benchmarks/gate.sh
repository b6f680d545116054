#!/usr/bin/env bash
# The CI gate (issue 8): every package-benchmark suite in its quick pass (ATK_BENCHMARK_QUICK=1:
# shorter inputs, ≤ 2 s and ≤ 20 iterations each), then gate.py compares each benchmark's time
# ratio to its suite's reference benchmark, and its malloc count, with the baseline (below). Suites
# that fail are run once more and judged on their better run; exit 1 on a regression. The time
# ratios of one build differ between processors (up to twice, AMD EPYC against Intel Xeon), so
# each kind has its baseline: Baselines/ci-amd.json on AMD, Baselines/ci.json on the others.
#
#   bash Benchmarks/gate.sh            # check (CI)
#   bash Benchmarks/gate.sh --update   # accept this run as the new baseline, then commit the baseline
set -euo pipefail
cd "$(dirname "$0")"
mkdir -p .build
baseline=Baselines/ci.json
if grep -q -m1 '^vendor_id.*AuthenticAMD' /proc/cpuinfo 2>/dev/null; then baseline=Baselines/ci-amd.json; fi
# The suites: Package.swift's `suite("NAME", …)` targets, in its order.
suites=$(sed -n 's/^ *suite("\([A-Za-z]*\)".*/\1/p' Package.swift)
[ -n "$suites" ] || { echo "gate: no suite(\"NAME\", …) target found in Benchmarks/Package.swift" >&2; exit 1; }
# The release build of the suites and of package-benchmark's BenchmarkTool, which the gate runs
# itself with the arguments and the malloc preload that `swift package benchmark` gives it: the
# plugin would first build BenchmarkTool a second time, in debug for the plugin host (66 CPU
# seconds; Benchmarks/README.md § CI's wall time).
swift build -c release >.build/gate-build.log 2>&1 && swift build -c release --product BenchmarkTool >>.build/gate-build.log 2>&1 || {
    cat .build/gate-build.log
    echo "gate: the release build of the suites failed" >&2
    exit 1
}
bin=$(swift build -c release --show-bin-path)
# The malloc interposer counts allocations (the gate's malloc column); package-benchmark preloads it.
preload=$bin/libMallocInterposerSwift.so
[ -e "$preload" ] || { echo "gate: $preload is missing" >&2; exit 1; }
run() { # OUTPUT-FOLDER [SUITE…] (every suite when none is named)
    local out=$1 suite
    shift
    local chosen=("$@")
    [ $# -gt 0 ] || read -r -d '' -a chosen <<<"$suites" || true
    local args=(--command run --baseline-storage-path "$PWD" --format jmh --grouping benchmark
        --benchmark-package-identifier package-benchmark --no-progress --path "$out")
    for suite in "${chosen[@]}"; do
        args+=(--targets "$suite" --benchmark-executable-paths "$bin/$suite")
    done
    rm -rf "$out"
    mkdir -p "$out"
    if ! ATK_BENCHMARK_QUICK=1 LD_PRELOAD=$preload "$bin/BenchmarkTool" "${args[@]}" >"$out.log" 2>&1; then
        cat "$out.log"
        echo "gate: the benchmark run failed" >&2
        exit 1
    fi
}
run .build/gate
if [ "${1:-}" = --update ]; then
    run .build/gate-again
    exec python3 gate.py --update "$baseline" .build/gate/Current_run.jmh.json .build/gate-again/Current_run.jmh.json
fi
echo "gate: baseline $baseline"
if python3 gate.py "$baseline" .build/gate/Current_run.jmh.json | tee .build/gate.txt; then
    exit 0
fi
failing=$(sed -n 's/^failing: //p' .build/gate.txt)
echo "gate: running again: $failing"
run .build/gate-again $failing
python3 gate.py "$baseline" .build/gate/Current_run.jmh.json .build/gate-again/Current_run.jmh.json
