"""openSMILE 2.6.0's eGeMAPSv02 functionals (the `opensmile` Python package, a test peer only) of
a speech corpus made here: one sentence spoken by espeak-ng in eight voices, two rates and two
pitches (32 recordings with many voiced–unvoiced changes, short pauses and weak formants), each
brought by sox (no dither) to one of nine rates from 8 to 96 kHz, 16-bit mono.

    python3 Benchmarks/peers/egemapsv02_speech.py OUT_FOLDER

Prints one JSON line per file: {"file", "samples", "rateHz", "functionals": {openSMILE name:
value}}, "samples" a file of its samples as a 16-bit file reads (v/32768, little-endian float64).
(`EGeMAPSv02SpeechTests` compares the toolkit's `egemapsv02` set with them.)
"""
import json
import os
import subprocess
import sys

import numpy as np
import opensmile
import soundfile

SENTENCE = "She sells sea shells by the sea shore, and the rain in Spain stays mainly on the plain."
VOICES = ["en+f3", "en+m3", "de", "fr", "es", "it", "en-us+f2", "pt"]
# Rates where openSMILE's frame arithmetic differs from the plain one are among them: 11,025 Hz
# (0.02·f_s = 220.5) and 44 kHz (0.01/(1/f_s) a hair above 440).
RATES = [8000, 11025, 16000, 22050, 32000, 44000, 44100, 48000, 96000]


def build(folder):
    os.makedirs(folder, exist_ok=True)
    files = []
    for v, voice in enumerate(VOICES):
        for s, speed in enumerate((120, 170)):
            for p, pitch in enumerate((30, 70)):
                index = 4 * v + 2 * s + p
                raw = os.path.join(folder, f"raw-{index}.wav")
                subprocess.run(["espeak-ng", "-v", voice, "-s", str(speed), "-p", str(pitch), "-w", raw, SENTENCE], check=True)
                rate = RATES[index % len(RATES)]
                out = os.path.join(folder, f"speech-{index:02d}-{voice.replace('+', '-')}-{rate}.wav")
                subprocess.run(["sox", "-D", raw, "-b", "16", "-c", "1", out, "rate", str(rate)], check=True)
                os.remove(raw)
                files.append(out)
    return files


def main(folder):
    smile = opensmile.Smile(feature_set=opensmile.FeatureSet.eGeMAPSv02, feature_level=opensmile.FeatureLevel.Functionals)
    for path in build(folder):
        data, rate = soundfile.read(path, dtype="int16")
        samples = path + ".f64"
        (data.astype("<f8") / 32768).tofile(samples)
        functionals = {k: float(v) for k, v in smile.process_file(path).iloc[0].to_dict().items()}
        print(json.dumps({"file": path, "samples": samples, "rateHz": rate, "functionals": functionals}))


if __name__ == "__main__":
    main(sys.argv[1])
