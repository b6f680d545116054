#!/usr/bin/env bash
# The main job on the project's own sample data: batch analysis of every file of SampleData/
# into a SQLite result store, one wide CSV per analyzer (a row per recording, a typed column per
# feature), and its HTML report. Reruns skip what is stored. The long form (a row per feature)
# stays one command away: activetask batch export --db .build/sample-results/results.sqlite --csv
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
swift build -c release --traits FFmpeg --product activetask
# The command with the Swift runtime and Foundation linked in, from the objects just compiled
# (docs/cli.md, "Start-up").
python3 scripts/link-static.py .build .build/release/activetask >/dev/null
out=.build/sample-results
mkdir -p "$out"
.build/release/activetask batch SampleData --db "$out/results.sqlite"
.build/release/activetask batch export --db "$out/results.sqlite" --wide --csv --out "$out/wide"
.build/release/activetask report --db "$out/results.sqlite" --out "$out/report" >/dev/null
echo "results: $out/results.sqlite (SQLite), $out/wide/<analyzer>.csv (one wide table per analyzer: $(cd "$out/wide" && ls | tr '\n' ' ')), $out/report/index.html (report)"
