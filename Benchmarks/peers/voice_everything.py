"""What `activetask score voice` computes, by the peers a voice study runs side by side, timed in one
process (imports and openSMILE's setup excluded; the median of `repeats` runs after a warm-up):

- Praat 6.1.38 (praat-parselmouth 0.4.7), the sets `atk`, `formants` and `cepstral`: "To Pitch
  (ac)" and its voiced frames' F0 statistics, "To PointProcess (cc)", jitter (local, absolute,
  rap, ppq5, ddp) and shimmer (local, dB, apq3, apq5, apq11, dda), "To Harmonicity (cc)" and its
  mean, "To Formant (burg)" with F1–F4 and B1–B4 mean, median and SD over the frames the pitch
  calls voiced, "To PowerCepstrogram" with "Get CPPS"'s chain frame by frame ("Subtract trend",
  "Smooth", "To Table (peak prominence)": CPPS is the frames' mean) and the frames' CPP median,
  SD and voiced mean (Praat's defaults, as the toolkit);
- the levels every voice analysis reports: RMS, Praat's intensity, libebur128's BS.1770 loudness
  and loudness range (its short-term loudness every 1 s, the toolkit's every 0.1 s:
  docs/accuracy.md), ResearchKit's too-loud level, and the voiced material's levels and loudness
  (docs/analyses.md §4.2–4.5), with numpy;
- librosa 1.0.0: `feature.mfcc` (20 coefficients) with Δ and ΔΔ (`feature.delta`), their means and SDs;
- openSMILE 2.6.0: the eGeMAPSv02 functionals.

    python3 Benchmarks/peers/voice_everything.py [--repeats N] [--only praat|librosa|opensmile] FILE…

Prints one JSON line: seconds (median), the parts' medians, and a check value (the sum of CPPS;
with --only librosa, of c₁'s means; with --only opensmile, of loudness_sma3_amean). With
--only the soundfile read is timed with librosa's part and openSMILE's part reads it too.
"""
import argparse
import ctypes
import ctypes.util
import json
import math
import os
import tempfile
import time

import librosa
import numpy as np
import opensmile
import parselmouth
import soundfile
from parselmouth.praat import call

from voice_reference import formants, peak_table

PERTURBATION = (0, 0, 0.0001, 0.02, 1.3)


def praat(path):
    """The sets atk (with the levels), formants and cepstral as `score voice` reports them: (CPPS,
    the values)."""
    sound = parselmouth.Sound(path)
    channels = sound.values
    if sound.n_channels > 1:
        sound = sound.extract_left_channel()
    pitch = sound.to_pitch()
    voiced_at = lambda t: not math.isnan(pitch.get_value_at_time(t))
    pulses = call([sound, pitch], "To PointProcess (cc)")
    f0 = pitch.selected_array["frequency"]
    f0 = f0[f0 > 0]
    values = [call(pitch, "Get quantile", 0, 0, 0.5, "Hertz")]
    values += ([f0.mean(), f0.std(ddof=1), (12 * np.log2(f0 / 100)).std(ddof=1), *np.quantile(f0, [0.05, 0.95]), f0.max() - f0.min()]
               if len(f0) >= 2 else [math.nan] * 6)
    for kind in ("local", "local, absolute", "rap", "ppq5", "ddp"):
        values.append(call(pulses, f"Get jitter ({kind})", *PERTURBATION))
    for kind in ("local", "local_dB", "apq3", "apq5", "apq11", "dda"):
        values.append(call([sound, pulses], f"Get shimmer ({kind})", *PERTURBATION, 1.6))
    values.append(call(sound.to_harmonicity_cc(), "Get mean", 0, 0))
    values += levels(channels, sound.sampling_frequency, voiced_at)
    with tempfile.TemporaryDirectory() as scratch:
        track = formants(sound, os.path.join(scratch, "formant.txt"))
        voiced = [frame for i, frame in enumerate(track["frames"]) if voiced_at(track["firstTime"] + i * track["timeStep"])]
        for k in range(4):
            for column in (0, 1):
                series = np.array([frame[k][column] for frame in voiced if len(frame) > k])
                values += [series.mean(), np.median(series), series.std(ddof=1)] if len(series) >= 2 else [math.nan] * 3
    peaks = peak_table(call(sound, "To PowerCepstrogram", 60.0, 0.002, 5000.0, 50.0))
    cpp = np.array(peaks["cpp"])
    voiced_cpp = [c for t, c in zip(peaks["time"], peaks["cpp"]) if voiced_at(t)]
    values += [np.median(cpp), cpp.std(ddof=1), np.mean(voiced_cpp) if voiced_cpp else math.nan]
    return float(cpp.mean()), values


EBUR128 = []


def loudness(samples, rate):
    """libebur128's integrated loudness (LUFS) and loudness range (LU) of `samples` (channels × frames)."""
    if not EBUR128:
        name = ctypes.util.find_library("ebur128")
        if name is None:
            raise SystemExit("voice_everything.py: libebur128 not found (Debian's libebur128-dev, scripts/setup.sh --with-browser)")
        library = ctypes.CDLL(name)
        library.ebur128_init.restype = ctypes.c_void_p
        library.ebur128_init.argtypes = [ctypes.c_uint, ctypes.c_ulong, ctypes.c_int]
        library.ebur128_add_frames_double.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_double), ctypes.c_size_t]
        library.ebur128_loudness_global.argtypes = library.ebur128_loudness_range.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_double)]
        library.ebur128_destroy.argtypes = [ctypes.POINTER(ctypes.c_void_p)]
        EBUR128.append(library)
    library = EBUR128[0]
    interleaved = np.ascontiguousarray(np.atleast_2d(samples).T, dtype=np.float64)
    state = ctypes.c_void_p(library.ebur128_init(interleaved.shape[1], int(rate), 5 | 11))  # EBUR128_MODE_I | EBUR128_MODE_LRA
    library.ebur128_add_frames_double(state, interleaved.ctypes.data_as(ctypes.POINTER(ctypes.c_double)), interleaved.shape[0])
    integrated, loudness_range = ctypes.c_double(), ctypes.c_double()
    library.ebur128_loudness_global(state, ctypes.byref(integrated))
    library.ebur128_loudness_range(state, ctypes.byref(loudness_range))
    library.ebur128_destroy(ctypes.byref(state))
    return integrated.value, loudness_range.value


def levels(channels, rate, voiced_at):
    """RMS, Praat's intensity, loudness and loudness range, ResearchKit's too-loud level; the
    voiced material (40-ms frames every 10 ms at least max(P95 − 30 dB, −60 dBFS) whose centre the
    pitch calls voiced, gaps under 0.2 s bridged, runs under 0.3 s dropped): its RMS, frame
    levels' energy mean, median, P10 and P90, and loudness."""
    x = channels[0]
    rms = 10 * np.log10(np.mean(x * x))
    a = np.abs(np.clip(np.round(channels * 32767), -32768, 32767))
    a = a[a > 0]
    too_loud = np.mean(np.maximum(20 * np.log10(a / 32767) / 60, -1) + 1) if len(a) else 0.0
    values = [rms, rms + 20 * np.log10(1 / 2e-5), *loudness(channels, rate), too_loud]
    length, hop = int(0.04 * rate), int(0.01 * rate)
    if len(x) < length:
        return values + [math.nan] * 6
    squares = np.concatenate(([0.0], np.cumsum(x * x)))
    starts = np.arange(0, len(x) - length + 1, hop)
    frame_levels = 10 * np.log10(np.maximum((squares[starts + length] - squares[starts]) / length, 1e-300))
    threshold = max(np.quantile(frame_levels, 0.95) - 30, -60)
    voiced = [level >= threshold and voiced_at((start + 0.5 * length) / rate) for start, level in zip(starts, frame_levels)]
    runs = lambda flag: [(i, j) for i, j in _runs(voiced) if voiced[i] == flag]
    for i, j in runs(False):
        if i > 0 and j < len(voiced) and (j - i) * 0.01 < 0.2:
            voiced[i:j] = [True] * (j - i)
    segments = [(i * hop, min(len(x), (j - 1) * hop + length)) for i, j in runs(True) if (j - i) * 0.01 >= 0.3]
    if not segments:
        return values + [math.nan] * 6
    material = np.concatenate([x[b:e] for b, e in segments])
    inside = np.concatenate([frame_levels[(starts >= b) & (starts + length <= e)] for b, e in segments])
    return values + [10 * np.log10(np.mean(material * material)), 10 * np.log10(np.mean(10 ** (inside / 10))),
                     *np.quantile(inside, [0.5, 0.1, 0.9]), loudness(material, rate)[0] if len(material) >= 0.4 * rate else math.nan]


def _runs(flags):
    """(begin, end) of each run of equal values in `flags`."""
    edges = [0] + [i for i in range(1, len(flags)) if flags[i] != flags[i - 1]] + [len(flags)]
    return list(zip(edges[:-1], edges[1:]))


def mfcc(path):
    samples, rate = soundfile.read(path, always_2d=True)
    y = samples[:, 0]
    coefficients = librosa.feature.mfcc(y=y, sr=rate, n_mfcc=20)
    statistics = [coefficients.mean(axis=1), coefficients.std(axis=1)]
    if coefficients.shape[1] >= 9:
        for order in (1, 2):
            delta = librosa.feature.delta(coefficients, order=order)
            statistics += [delta.mean(axis=1), delta.std(axis=1)]
    return y, rate, statistics


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--only", choices=["praat", "librosa", "opensmile"], help="run that part alone")
    parser.add_argument("files", nargs="+")
    options = parser.parse_args()
    smile = opensmile.Smile(feature_set=opensmile.FeatureSet.eGeMAPSv02, feature_level=opensmile.FeatureLevel.Functionals)

    def once():
        parts = {"praat": 0.0, "librosa": 0.0, "opensmile": 0.0}
        check = 0.0
        for path in options.files:
            start = time.perf_counter()
            cpps, _ = praat(path) if options.only in (None, "praat") else (0.0, None)
            middle = time.perf_counter()
            y, rate, statistics = mfcc(path) if options.only != "praat" else (None, None, None)
            if options.only == "librosa":
                cpps = float(statistics[0][1])
            after = time.perf_counter()
            if options.only in (None, "opensmile"):
                functionals = smile.process_signal(y.astype(np.float32), rate)
                if options.only:
                    cpps = float(functionals["loudness_sma3_amean"].iloc[0])
            end = time.perf_counter()
            parts["praat"] += middle - start
            parts["librosa"] += after - middle
            parts["opensmile"] += end - after
            check += cpps
        return parts, check

    once()
    runs = sorted((once() for _ in range(options.repeats)), key=lambda run: sum(run[0].values()))
    parts, check = runs[len(runs) // 2]
    print(json.dumps({"seconds": sum(parts.values()), "parts": parts, "repeats": options.repeats, "check": check}))


if __name__ == "__main__":
    main()
