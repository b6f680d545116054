#!/usr/bin/env bash
# A fully stored batch rerun against `sha256sum` over the same files (issue 17's acceptance):
# N generated mPower-like task runs are analysed into a store kept beside the corpus (CORPUS.sqlite:
# a later call analyses only what its store lacks, e.g. after an analyzer's version changed), then
# the rerun — which finds every file's version (device, inode, size, mtime, ctime) unchanged and
# every result stored, so reads none — and `sha256sum` of every file are each timed three times,
# alternating, warm page cache. Prints the medians and their ratio.
#   bash Benchmarks/rerun-vs-sha256sum.sh 2000 /scratch/corpus-2000
set -euo pipefail
runs=${1:-2000}
corpus=${2:-/tmp/activetask-corpus-$runs}
cd "$(dirname "$0")/.."
swift build -c release --traits FFmpeg --product activetask >/dev/null
python3 scripts/link-static.py .build .build/release/activetask >/dev/null
tool=$PWD/.build/release/activetask
[ -d "$corpus" ] || $tool generate-corpus --runs "$runs" --out "$corpus"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
db=${corpus%/}.sqlite
start=$(date +%s.%N)
$tool batch "$corpus" --db "$db" --json >"$work/first.json"
first=$(echo "$(date +%s.%N) - $start" | bc)
files=$(find "$corpus" -type f | wc -l)
bytes=$(du -sb "$corpus" | cut -f1)
rerun=() hashing=()
for _ in 1 2 3; do
    start=$(date +%s.%N)
    $tool batch "$corpus" --db "$db" --json >"$work/rerun.json"
    rerun+=("$(echo "$(date +%s.%N) - $start" | bc)")
    start=$(date +%s.%N)
    find "$corpus" -type f -print0 | xargs -0 sha256sum >/dev/null
    hashing+=("$(echo "$(date +%s.%N) - $start" | bc)")
done
median() { printf '%s\n' "$@" | sort -g | sed -n 2p; }
r=$(median "${rerun[@]}") h=$(median "${hashing[@]}")
python3 - "$runs" "$files" "$bytes" "$first" "$r" "$h" "$work/rerun.json" <<'PY'
import json, sys
runs, files, size, first, rerun, hashing, summary = sys.argv[1:]
computed = json.load(open(summary))["computed"]
print(json.dumps({"runs": int(runs), "files": int(files), "megabytes": round(int(size) / 1e6, 1),
                  "fillSeconds": round(float(first), 2), "rerunSeconds": round(float(rerun), 3),
                  "sha256sumSeconds": round(float(hashing), 3), "rerunComputed": computed,
                  "sha256sumOverRerun": round(float(hashing) / float(rerun), 2)}))
PY
