#!/usr/bin/env bash
# The test suite under AddressSanitizer (+ LeakSanitizer) and ThreadSanitizer (docs/reliability.md).
#
#   bash scripts/sanitizers.sh [address] [thread]      default: both, one after the other
#
# Each sanitizer builds into its own scratch folder (.build-address, .build-thread): the tests
# and the `activetask` they run are instrumented alike, optimized (-c release, with
# -enable-testing for the tests' @testable imports) so the batch over ../shared/data does not
# take half an hour as it does in a debug build. A run fails on a failing test or on any
# sanitizer report; the log is .build-SANITIZER/test.log. Not part of CI (a build of about 8 min
# and a test run of about 10 min each, on 2 cores).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
sanitizers=("$@")
[ ${#sanitizers[@]} -gt 0 ] || sanitizers=(address thread)
# Leaks inside Foundation, not in the toolkit (scripts/lsan.supp says which).
export LSAN_OPTIONS="suppressions=$PWD/scripts/lsan.supp:print_suppressions=0"
status=0
for sanitizer in "${sanitizers[@]}"; do
    scratch=".build-$sanitizer"
    # Swift Testing alone, as scripts/test.sh runs it (Tests/XCTMain.swift).
    flags=(-c release -Xswiftc -enable-testing --sanitize="$sanitizer" --traits FFmpeg --disable-xctest --enable-swift-testing --scratch-path "$scratch")
    swift build --build-tests "${flags[@]}"
    start=$(date +%s)
    set +e
    swift test --skip-build "${flags[@]}" >"$scratch/test.log" 2>&1
    tests=$?
    set -e
    reports=$(grep -cE "ERROR: AddressSanitizer|ERROR: LeakSanitizer|WARNING: ThreadSanitizer" "$scratch/test.log" || true)
    summary=$(grep -E "^✔ Test run|^✘ Test run" "$scratch/test.log" | tail -1)
    echo "$sanitizer: ${summary:-no summary}; $reports sanitizer reports; exit $tests; $(( $(date +%s) - start )) s (log: $scratch/test.log)"
    if [ "$tests" -ne 0 ] || [ "$reports" -ne 0 ]; then status=1; fi
done
exit $status
