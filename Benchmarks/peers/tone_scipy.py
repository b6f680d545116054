"""Peer for tone verification (docs/audiometry.md §10), written independently with numpy/scipy:
flat-top peak level (scipy.signal.windows.flattop, periodic), Hann log-parabolic frequency,
a four-parameter sine fit (scipy.optimize.curve_fit, IEEE 1057 model) and THD+N from its residual.

    python3 Benchmarks/peers/tone_scipy.py TONE.wav [ACTIVETASK]

analyses the left channel without its first and last 0.15 s (the segment of the AnalysisBenchmarks
tone benchmark) and prints the values and the p50 time of 200 runs. Given the path of an
`activetask` build, it analyses instead the segment `audiometry verify` uses (margins of the
measured rise time + 0.1 s) and prints the toolkit's values of that file next to its own.
"""
import json
import subprocess
import sys
import time
import warnings

import numpy as np
from scipy.io import wavfile
from scipy.optimize import curve_fit
from scipy.signal import windows

warnings.filterwarnings("ignore", category=wavfile.WavFileWarning)  # libsndfile's PEAK chunk


def analyse(x, fs):
    n = len(x)
    hann = np.abs(np.fft.rfft(x * windows.hann(n, sym=False)))
    k = int(np.argmax(hann[1:-1])) + 1
    a, b, c = np.log(hann[k - 1 : k + 2])
    f_hann = (k + 0.5 * (a - c) / (a - 2 * b + c)) * fs / n
    w = windows.flattop(n, sym=False)
    flat = np.abs(np.fft.rfft(x * w))
    centre = int(round(f_hann * n / fs))
    level = 20 * np.log10(flat[centre - 3 : centre + 4].max() * 2 / w.sum())
    t = np.arange(n) - (n - 1) / 2

    def model(t, amp_c, amp_s, offset, omega):
        return amp_c * np.cos(omega * t) + amp_s * np.sin(omega * t) + offset

    start = 2 * np.pi * f_hann / fs
    guess = np.linalg.lstsq(np.column_stack([np.cos(start * t), np.sin(start * t), np.ones(n)]), x, rcond=None)[0]
    p, _ = curve_fit(model, t, x, p0=[*guess, start])
    residual = x - model(t, *p)
    thdn = 10 * np.log10(np.mean(residual**2) / ((p[0] ** 2 + p[1] ** 2) / 2))
    return {"frequencyHz": p[3] * fs / (2 * np.pi), "hannFrequencyHz": f_hann, "levelDbfs": level, "thdPlusNoiseDecibels": thdn}


def main():
    fs, data = wavfile.read(sys.argv[1])
    x = (data[:, 0] if data.ndim == 2 else data).astype(np.float64)
    if np.issubdtype(data.dtype, np.integer):  # PCM: full scale = 2^(bits − 1) (scipy left-justifies 24-bit in int32)
        x /= float(np.iinfo(data.dtype).max) + 1
    margin = int(0.15 * fs)
    toolkit = None
    if len(sys.argv) > 2:
        out = subprocess.run([sys.argv[2], "audiometry", "verify", "--json", sys.argv[1]], capture_output=True, text=True, check=True)
        toolkit = json.loads(out.stdout)
        margin = min(len(x) // 4, int((toolkit["riseTimeMilliseconds"] / 1000 + 0.1) * fs))
    steady = x[margin:-margin]
    result = analyse(steady, fs)
    times = []
    for _ in range(200):
        start = time.perf_counter()
        analyse(steady, fs)
        times.append(time.perf_counter() - start)
    print(json.dumps({"scipy": result, "p50Milliseconds": 1000 * float(np.median(times)), "samples": len(steady)}, indent=2))
    if toolkit:
        print(json.dumps({"activetask": {key: toolkit[key] for key in result}}, indent=2))


if __name__ == "__main__":
    main()
