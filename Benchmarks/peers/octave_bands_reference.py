"""Reference band levels for FractionalOctaveBandTests: an IEC 61260-1 filter bank built from SciPy
alone (NumPy and SciPy on any Python Debian 12 or later ships).

usage: octave_bands_reference.py FOLDER

Writes FOLDER/{white,pink}-{44100,48000}.f64 (10 s of seeded noise, little-endian float64) and
prints one JSON object: for each file and bands per octave (1, 3), the band levels in dBFS
(10·lg of the mean square) of the bands of IEC 61260-1:2014 (base ten: mid-band 1000·G^(x/b),
G = 10^0.3, edges at G^(∓1/2b), nominal 25 Hz–20 kHz, upper edge below Nyquist), each filtered
by SciPy's sixth-order Butterworth band-pass (butter(6, [f1, f2], btype="bandpass", output="sos")
run by sosfilt from rest over the whole signal), and the exact mid-band frequencies; and SciPy's
magnitude response of that design for the 1 kHz one-third-octave band at 48 kHz on 200 frequencies.
"""
import json
import sys
import warnings

import numpy as np
from scipy import signal

G = 10 ** 0.3


def band_levels(x, rate, b):
    """(levels in dBFS, exact mid-band frequencies) of the 1/b-octave bands, b = 1 or 3."""
    levels, mids = [], []
    for k in range(-16 * 3 // b - 3, 14 * 3 // b + 3):
        mid = 1000 * G ** (k / b)
        # The nominal range 25 Hz–20 kHz (ISO 266 nominal values lie within 6 % of the exact ones).
        if not (25 / 1.06 <= mid <= 20000 * 1.06):
            continue
        low, high = mid * G ** (-1 / (2 * b)), mid * G ** (1 / (2 * b))
        if high >= rate / 2:
            continue
        sos = signal.butter(6, [low, high], btype="bandpass", output="sos", fs=rate)
        y = signal.sosfilt(sos, x)
        levels.append(float(10 * np.log10(np.mean(y**2))))
        mids.append(float(mid))
    return levels, mids


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
            levels, mids = band_levels(x, rate, b)
            out["levels"][f"{key}-{b}"] = {"dbfs": levels, "midHz": mids}
f1, f2 = 1000 * G ** (-1 / 6), 1000 * G ** (1 / 6)
sos = signal.butter(6, [f1, f2], btype="bandpass", output="sos", fs=48000)
grid = np.geomspace(100, 20000, 200)
_, h = signal.sosfreqz(sos, worN=grid, fs=48000)
out["response"] = {"frequencyHz": grid.tolist(), "magnitude": np.abs(h).tolist(), "lowHz": f1, "highHz": f2}
print(json.dumps(out))
