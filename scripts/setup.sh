#!/usr/bin/env bash
# Installs the Debian packages ActiveTaskKit builds against, if any is missing
# (as root, or with sudo). Safe to run again. --with-browser adds what the tests use besides:
# chromium (report screenshots), gcc + libebur128 (the loudness peer), espeak-ng + sox and a
# Python venv with praat-parselmouth and pandas (Praat parity corpus, wide-table readers), and R
# (read.csv of the wide table), none of them runtime dependencies.
set -euo pipefail
cd "$(dirname "$0")/.."
packages=(pkg-config zlib1g-dev libsqlite3-dev libsndfile1-dev libfftw3-dev ffmpeg libavformat-dev libavcodec-dev libswresample-dev libavutil-dev)
if [ "${1:-}" = "--with-browser" ]; then packages+=(chromium gcc libebur128-dev espeak-ng sox python3-venv r-base-core); fi
command -v python3 >/dev/null || packages+=(python3) # Benchmarks/gate.py
missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}" >&2
  if [ "$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
command -v swift >/dev/null || { echo "setup: Swift 6.3 is not on PATH (https://swift.org/install)" >&2; exit 1; }
if [ "${1:-}" = "--with-browser" ] && [ ! -x .build/peers-venv/bin/python ]; then
  echo "setup: Python peers (praat-parselmouth, numpy, pandas) in .build/peers-venv" >&2
  mkdir -p .build
  python3 -m venv .build/peers-venv
  .build/peers-venv/bin/pip install --quiet praat-parselmouth==0.4.7 numpy pandas
fi
