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
run() { # OUTPUT-FOLDER [--target SUITE…]
    local out=$1
    shift
    rm -rf "$out"
    if ! ATK_BENCHMARK_QUICK=1 swift package --allow-writing-to-package-directory benchmark "$@" \
            --format jmh --path "$out" --no-progress >"$out.log" 2>&1; then
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
run .build/gate-again $(for suite in $failing; do echo --target "$suite"; done)
python3 gate.py "$baseline" .build/gate/Current_run.jmh.json .build/gate-again/Current_run.jmh.json
