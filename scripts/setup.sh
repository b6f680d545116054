#!/usr/bin/env bash
# Installs the Debian packages ActiveTaskKit builds against, if any is missing
# (as root, or with sudo). Safe to run again. --with-browser adds chromium, which the report
# screenshot test renders pages in.
set -euo pipefail
packages=(pkg-config libsqlite3-dev libsndfile1-dev libfftw3-dev ffmpeg libavformat-dev libavcodec-dev libswresample-dev libavutil-dev gcc libebur128-dev)
if [ "${1:-}" = "--with-browser" ]; then packages+=(chromium); fi
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
