"""`activetask score voice` next to Praat (via praat-parselmouth) on the same files, in one run:
F0 median, jitter (local, RAP, PPQ5), shimmer (local, APQ3, APQ11), HNR (cc) and intensity, with
Praat's defaults and the standard perturbation arguments (0, 0, 0.0001, 0.02, 1.3, 1.6).
Files Praat cannot read (.m4a) are decoded to float WAV first, as the toolkit reads them (presented.py).

    pip install praat-parselmouth && python3 Benchmarks/peers/voice_parselmouth.py .build/release/activetask FILE...
"""
import json
import os
import subprocess
import sys
import tempfile

import parselmouth
from parselmouth.praat import call

import presented


def analysis_objects(path):
    """Praat's sound (channel 0, as the toolkit), pitch, pulses and harmonicity, with Praat's defaults."""
    sound = parselmouth.Sound(path)
    if sound.n_channels > 1:
        sound = sound.extract_left_channel()
    pitch = sound.to_pitch()
    return sound, pitch, call([sound, pitch], "To PointProcess (cc)"), sound.to_harmonicity_cc()


def praat(path):
    sound, pitch, pulses, harmonicity = analysis_objects(path)
    args = (0, 0, 0.0001, 0.02, 1.3)
    return {
        "f0MedianHz": call(pitch, "Get quantile", 0, 0, 0.5, "Hertz"),
        "jitterLocal": call(pulses, "Get jitter (local)", *args),
        "jitterRap": call(pulses, "Get jitter (rap)", *args),
        "jitterPpq5": call(pulses, "Get jitter (ppq5)", *args),
        "shimmerLocal": call([sound, pulses], "Get shimmer (local)", *args, 1.6),
        "shimmerApq3": call([sound, pulses], "Get shimmer (apq3)", *args, 1.6),
        "shimmerApq11": call([sound, pulses], "Get shimmer (apq11)", *args, 1.6),
        "hnrDb": call(harmonicity, "Get mean", 0, 0),
        "intensityDb": call(sound, "Get intensity (dB)"),
    }


def main(tool, files):
    tolerance = {"f0MedianHz": ("rel", 0.01), "jitterLocal": ("rel", 0.10), "jitterRap": ("rel", 0.10), "jitterPpq5": ("rel", 0.10),
                 "shimmerLocal": ("rel", 0.10), "shimmerApq3": ("rel", 0.10), "shimmerApq11": ("rel", 0.10),
                 "hnrDb": ("abs", 1.0), "intensityDb": ("abs", 0.01)}
    failures = 0
    print(f"{'file':34s} {'measure':13s} {'ours':>12s} {'Praat':>12s} {'diff':>9s}")
    for path in files:
        ours = json.loads(subprocess.run([tool, "score", "voice", "--json", path], capture_output=True, text=True).stdout)["features"]["atk"]
        source = path
        if path.endswith(".m4a"):
            handle, target = tempfile.mkstemp(suffix=".wav")
            os.close(handle)
            source = presented.wav(path, target)
        reference = praat(source)
        for name, value in reference.items():
            mine = ours.get(name)
            kind, limit = tolerance[name]
            diff = (mine - value) / value if kind == "rel" else mine - value
            ok = abs(diff) <= limit
            failures += not ok
            shown = f"{100 * diff:+8.2f}%" if kind == "rel" else f"{diff:+8.3f} "
            print(f"{os.path.basename(path)[:34]:34s} {name:13s} {mine:12.6g} {value:12.6g} {shown} {'' if ok else '  OUTSIDE'}")
    print(f"{failures} value(s) outside the issue's tolerances (F0 1 %, jitter/shimmer 10 %, HNR 1 dB)")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2:])
