#!/usr/bin/env bash
# The test command's Python peers on Debian 12 as it ships, without pyenv: scripts/setup.sh with
# every pyenv folder off the PATH makes the peers' venv with /usr/bin/python3 (3.11 on Debian 12)
# in .build/peers-venv-debian, then every test that runs a Python peer runs against that venv
# (Praat and librosa parity, the IEC 61260-1 band levels, TOML against tomllib, the wide tables in
# pandas). Run by hand or in CI on a Debian 12 machine; exits non-zero when any of them fails.
set -euo pipefail
cd "$(dirname "$0")/.."
export ATK_PEERS_VENV=.build/peers-venv-debian
debian_path=$(printf '%s' "$PATH" | tr ':' '\n' | grep -v pyenv | paste -sd: -)
PATH="$debian_path" PYENV_ROOT=/nonexistent bash scripts/setup.sh --with-browser
"$ATK_PEERS_VENV/bin/python" -c 'import sys; print("check-debian-python: peers on Python", sys.version.split()[0])'
CI=true bash scripts/test.sh \
    --filter 'FractionalOctaveBandTests|PraatCorpusTests|TOMLPeerTests|VoiceQualityPeerTests|WideExportTests'
