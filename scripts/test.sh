#!/usr/bin/env bash
# Every test, with the in-process FFmpeg decoder enabled (the `ffmpeg` tool path is tested too).
# Tests that need ../shared/data skip with a message when it is absent.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --with-browser
swift test --traits FFmpeg
