#!/usr/bin/env bash
# The main job on the project's own sample data: batch analysis of every file of SampleData/
# into a SQLite result store, exported as CSV, and its HTML report. Reruns skip what is stored.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
swift build -c release --traits FFmpeg --product activetask
out=.build/sample-results
mkdir -p "$out"
.build/release/activetask batch SampleData --db "$out/results.sqlite"
.build/release/activetask batch export --db "$out/results.sqlite" --csv --out "$out/results.csv"
.build/release/activetask report --db "$out/results.sqlite" --out "$out/report" >/dev/null
echo "results: $out/results.sqlite (SQLite), $out/results.csv (long-form CSV), $out/report/index.html (report)"
