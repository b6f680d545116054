#!/usr/bin/env bash
# The Python peers of Benchmarks/peers/compare.py in a venv (Benchmarks/.peers-venv), from PyPI.
# pdkit 1.4 needs numpy < 2 and the pandas and scipy of its time; the others take what fits (librosa
# 0.10.2, the last for numpy < 2, for the batch pipeline's MFCCs: the same mel and DCT steps as 1.0.0).
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x .peers-venv/bin/python ] || python3 -m venv .peers-venv
.peers-venv/bin/pip install --quiet pdkit==1.4.4 tsfresh future matplotlib pandas_validator "numpy<2" "pandas<2.2" "scipy==1.13.1" \
    soundfile praat-parselmouth pyloudnorm orjson "librosa==0.10.2.post1" "opensmile==2.6.0" "pyarrow<16"
