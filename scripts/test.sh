#!/usr/bin/env bash
# Every test, with the in-process FFmpeg decoder enabled (the `ffmpeg` tool path is tested too).
# Tests that need ../shared/data skip with a message when it is absent.
#
#   bash scripts/test.sh               # setup, then build and run every test
#   bash scripts/test.sh --filter X    # setup, then the tests whose names match X (any `swift test` option)
#   bash scripts/test.sh --build-only  # the tests' build alone, without setup (.ci/run starts it beside the venv)
#
# Swift Testing alone, without index-while-building (Tests/XCTMain.swift says why); a `swift test`
# with other flags builds the whole package again.
set -euo pipefail
cd "$(dirname "$0")/.."
flags=(--traits FFmpeg --disable-index-store --disable-xctest --enable-swift-testing)
if [ "${1:-}" = --build-only ]; then exec swift build --build-tests "${flags[@]}"; fi
bash scripts/setup.sh --with-browser
swift test "${flags[@]}" "$@"
