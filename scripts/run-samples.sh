#!/usr/bin/env bash
# The main job on the project's own sample data: today `activetask info` on every file of
# SampleData/ (batch analysis replaces it when it lands).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
swift build -c release --product activetask
.build/release/activetask info SampleData
