"""Reference band levels for FractionalOctaveBandTests: phonometry 3.3.0's IEC 61260-1 filter bank.

usage: octave_bands_reference.py FOLDER

Writes FOLDER/{white,pink}-{44100,48000}.f64 (10 s of seeded noise, little-endian float64) and
prints one JSON object: for each file and bands per octave (1, 3), phonometry's band levels in
dBFS (octave_filter, sixth-order Butterworth, dbfs=True) and the exact mid-band frequencies; and
SciPy's magnitude response of butter(6, [f1, f2], btype="bandpass") for the 1 kHz
one-third-octave band at 48 kHz on 200 frequencies.
"""
import json
import sys
import warnings

import numpy as np
from phonometry.metrology.core import octave_filter
from scipy import signal

warnings.simplefilter("ignore")
folder = sys.argv[1]
out = {"levels": {}}
rng = np.random.default_rng(20261127)
for rate in (44100, 48000):
    white = rng.standard_normal(10 * rate) * 0.1
    # Pink: white shaped by 1/sqrt(f) in the frequency domain (DC removed).
    spectrum = np.fft.rfft(rng.standard_normal(10 * rate))
    f = np.fft.rfftfreq(10 * rate, 1 / rate)
    spectrum[1:] /= np.sqrt(f[1:])
    spectrum[0] = 0
    pink = np.fft.irfft(spectrum, 10 * rate)
    pink *= 0.1 / np.sqrt(np.mean(pink**2))
    for name, x in (("white", white), ("pink", pink)):
        key = f"{name}-{rate}"
        x.astype("<f8").tofile(f"{folder}/{key}.f64")
        for b in (1, 3):
            levels, mids = octave_filter(x, rate, fraction=b, order=6, limits=[25, 20000], dbfs=True)
            out["levels"][f"{key}-{b}"] = {"dbfs": [float(v) for v in levels], "midHz": [float(v) for v in mids]}
g = 10 ** 0.3
f1, f2 = 1000 * g ** (-1 / 6), 1000 * g ** (1 / 6)
sos = signal.butter(6, [f1, f2], btype="bandpass", output="sos", fs=48000)
grid = np.geomspace(100, 20000, 200)
_, h = signal.sosfreqz(sos, worN=grid, fs=48000)
out["response"] = {"frequencyHz": grid.tolist(), "magnitude": np.abs(h).tolist(), "lowHz": f1, "highHz": f2}
print(json.dumps(out))
