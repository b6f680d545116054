#!/usr/bin/env bash
# Batch throughput on a generated corpus: N mPower-like task runs (activetask generate-corpus),
# analysed by the release build with all cores into a fresh store. Prints recordings/s, MB/s
# and the peak resident memory (GNU time's maximum RSS of the batch process).
#   bash Benchmarks/batch-corpus.sh 10000 /scratch/corpus
set -euo pipefail
runs=${1:-100}
corpus=${2:-/tmp/activetask-corpus-$runs}
cd "$(dirname "$0")/.."
swift build -c release --traits FFmpeg --product activetask >/dev/null
tool=.build/release/activetask
[ -d "$corpus" ] || $tool generate-corpus --runs "$runs" --out "$corpus"
db=$(mktemp -d)/results.sqlite
/usr/bin/time -f "peak resident memory %M KB, wall %e s" $tool batch "$corpus" --db "$db" --json
