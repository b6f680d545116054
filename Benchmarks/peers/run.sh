#!/usr/bin/env bash
# The peers side by side in one command: the venv (setup.sh, once), then compare.py's table.
#   bash Benchmarks/peers/run.sh [--only fft,leq,...] [--batch-runs N] [--jobs N] [--one-cpu] [--tool PATH]
set -euo pipefail
cd "$(dirname "$0")/.."
bash peers/setup.sh
exec .peers-venv/bin/python peers/compare.py "$@"
