#!/usr/bin/env bash
# Installs the Debian packages ActiveTaskKit builds against, if any is missing
# (as root, or with sudo). Safe to run again. --with-browser adds what the tests use besides:
# chromium (report screenshots), gcc + libebur128 (the loudness peer), espeak-ng + sox and a
# Python venv with praat-parselmouth, librosa, opensmile, SciPy and pandas (Praat and librosa
# parity, eGeMAPS agreement, IEC 61260-1 band levels, wide-table readers), and R
# (read.csv of the wide table; with dplyr, tidyr, purrr, e1071 and pracma the mhealthtools peer of
# Tests/Peers/mhealthtools), dbus-daemon with python3-dbus and python3-gi (the BlueZ test
# service), tmux (the rendered screen of the hearing test), none of them runtime dependencies.
# --no-venv (after --with-browser) installs those packages and leaves the venv for a later run
# (.ci/run makes it beside the first build).
set -euo pipefail
cd "$(dirname "$0")/.."
make_venv=true
[ "${2:-}" = "--no-venv" ] && make_venv=false
packages=(pkg-config binutils libstdc++-12-dev zlib1g-dev nettle-dev libsqlite3-dev libsndfile1-dev libfftw3-dev libasound2-dev libdbus-1-dev ffmpeg libavformat-dev libavcodec-dev libswresample-dev libavutil-dev)
if [ "${1:-}" = "--with-browser" ]; then packages+=(chromium gcc libebur128-dev espeak-ng sox python3-venv r-base-core r-cran-dplyr r-cran-tidyr r-cran-purrr r-cran-tibble r-cran-rlang r-cran-magrittr r-cran-e1071 r-cran-pracma dbus-daemon python3-dbus python3-gi tmux); fi
command -v python3 >/dev/null || packages+=(python3) # Benchmarks/gate.py, scripts/link-static.py
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
# The Python peers' venv (ATK_PEERS_VENV, default .build/peers-venv), made with the newest Python
# found: 3.13, then 3.12, on PATH or under pyenv, else Debian 12's python3 (3.11). librosa
# 1.0.0 needs 3.12; on 3.11 librosa 0.11.0 stands in (its MFCCs, Δ and ΔΔ equal 1.0.0's to 6e-14 dB
# on the voice corpus). The venv is made again whenever its pinned list changes.
venv=${ATK_PEERS_VENV:-.build/peers-venv}
if [ "${1:-}" = "--with-browser" ] && $make_venv; then
  python=""
  pyenv_versions="${PYENV_ROOT:-$HOME/.pyenv}/versions"
  for candidate in python3.13 "$pyenv_versions"/3.13*/bin/python python3.12 "$pyenv_versions"/3.12*/bin/python python3; do
    if "$candidate" -c "import sys, venv; sys.exit(sys.version_info < (3, 11))" >/dev/null 2>&1; then python="$candidate"; break; fi
  done
  [ -n "$python" ] || { echo "setup: the Python peers need Python 3.11 or later (Debian 12's python3 is 3.11); none found" >&2; exit 1; }
  if "$python" -c "import sys; sys.exit(sys.version_info < (3, 12))"; then librosa="librosa==1.0.0"; else librosa="librosa==0.11.0"; fi
  peers="praat-parselmouth==0.4.7 $librosa opensmile==2.6.0 numpy scipy pandas on $("$python" --version)"
  if [ "$(cat "$venv/peers.txt" 2>/dev/null)" != "$peers" ]; then
    echo "setup: Python peers ($peers) in $venv with $("$python" --version)" >&2
    mkdir -p "$(dirname "$venv")"
    rm -rf "$venv"
    "$python" -m venv "$venv"
    # shellcheck disable=SC2086
    "$venv/bin/pip" install --quiet ${peers% on *}
    echo "$peers" >"$venv/peers.txt"
  fi
fi
