#!/usr/bin/env bash
# The main job on the project's own sample data: batch analysis of every file of SampleData/
# into a SQLite result store, exported as CSV. Reruns skip what is stored.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
swift build -c release --traits FFmpeg --product activetask
out=.build/sample-results
mkdir -p "$out"
.build/release/activetask batch SampleData --db "$out/results.sqlite"
.build/release/activetask batch export --db "$out/results.sqlite" --csv --out "$out/results.csv"
echo "results: $out/results.sqlite (SQLite), $out/results.csv (long-form CSV)"
