"""What `activetask score voice` computes, by the peers a voice study runs side by side, timed in one
process (imports and openSMILE's setup excluded; the median of `repeats` runs after a warm-up):

- Praat 6.1.38 (praat-parselmouth 0.4.7): "To Pitch (ac)", "To PointProcess (cc)", jitter (local,
  absolute, rap, ppq5, ddp) and shimmer (local, dB, apq3, apq5, apq11, dda), "To Harmonicity (cc)"
  and its mean, "To Formant (burg)" with F1–F4 and B1–B4 mean, median and SD, "To
  PowerCepstrogram" and "Get CPPS" (Praat's defaults, as the toolkit);
- librosa 1.0.0: `feature.mfcc` (20 coefficients) with Δ and ΔΔ (`feature.delta`), their means and SDs;
- openSMILE 2.6.0: the eGeMAPSv02 functionals.

    python3 Benchmarks/peers/voice_everything.py [--repeats N] [--only praat|librosa|opensmile] FILE…

Prints one JSON line: seconds (median), the parts' medians, and a check value (the sum of CPPS;
with --only librosa, of c₁'s means; with --only opensmile, of loudness_sma3_amean). With
--only the soundfile read is timed with librosa's part and openSMILE's part reads it too.
"""
import argparse
import json
import time

import librosa
import numpy as np
import opensmile
import parselmouth
import soundfile
from parselmouth.praat import call

PERTURBATION = (0, 0, 0.0001, 0.02, 1.3)
TREND = (0.001, 0.05, "exponential decay", "robust")


def praat(path):
    sound = parselmouth.Sound(path)
    if sound.n_channels > 1:
        sound = sound.extract_left_channel()
    pitch = sound.to_pitch()
    pulses = call([sound, pitch], "To PointProcess (cc)")
    values = [call(pitch, "Get quantile", 0, 0, 0.5, "Hertz")]
    for kind in ("local", "local, absolute", "rap", "ppq5", "ddp"):
        values.append(call(pulses, f"Get jitter ({kind})", *PERTURBATION))
    for kind in ("local", "local_dB", "apq3", "apq5", "apq11", "dda"):
        values.append(call([sound, pulses], f"Get shimmer ({kind})", *PERTURBATION, 1.6))
    values.append(call(sound.to_harmonicity_cc(), "Get mean", 0, 0))
    formant = sound.to_formant_burg()
    for k in range(1, 5):
        values += [call(formant, "Get mean", k, 0, 0, "hertz"), call(formant, "Get quantile", k, 0, 0, "hertz", 0.5),
                   call(formant, "Get standard deviation", k, 0, 0, "hertz")]
        values += [call(formant, "Get quantile of bandwidth", k, 0, 0, "hertz", 0.5)]
    cepstrogram = call(sound, "To PowerCepstrogram", 60.0, 0.002, 5000.0, 50.0)
    cpps = call(cepstrogram, "Get CPPS", "yes", 0.02, 0.0005, 60.0, 330.0, 0.05, "parabolic", *TREND)
    return cpps, values


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
