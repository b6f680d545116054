"""Reference values of the voice-quality measures, per frame, from the peers the toolkit follows:
Praat 6.1.38 (praat-parselmouth 0.4.7) for formants (Burg) and the power cepstrogram's CPP, and
librosa 1.0.0 for MFCCs, on channel 0 of every file (the toolkit's convention).

    python3 Benchmarks/peers/voice_reference.py OUT_FOLDER [--corpus] [FILE…]

--corpus adds the synthetic Praat corpus of praat_corpus.py (espeak-ng speech at 8–50 kHz,
glottal-pulse vowels with jitter, breaks and creak). For each file it writes OUT_FOLDER/N.f64
(channel 0 as little-endian float64, exactly the samples both sides analyse) and prints one JSON
line: {"file", "samples", "rateHz", "formants": {"firstTime", "timeStep", "frames": [[[F, B]…]…],
"intensities": [peak² of each frame]},
"mfcc": {"nFft", "hop", "coefficients": [[c0…c19] per frame], "delta": …, "delta2": …}}.
"""
import json
import os
import sys
import tempfile

import numpy as np
import parselmouth

import presented


def formants(sound, scratch):
    """Praat's "To Formant (burg)" with its defaults (0, 5, 5500, 0.025, 50), every frame read
    at full precision from Praat's own text serialisation (written to the file `scratch`)."""
    formant = sound.to_formant_burg(time_step=None, max_number_of_formants=5.0, maximum_formant=5500.0,
                                    window_length=0.025, pre_emphasis_from=50.0)
    formant.save_as_short_text_file(scratch)
    with open(scratch) as f:
        lines = [line.strip() for line in f.read().splitlines()[3:] if line.strip()]
    values = iter(lines)
    _xmin, _xmax, nx, dx, x1, _max_formants = (float(next(values)) for _ in range(6))
    frames, intensities = [], []
    for _ in range(int(nx)):
        intensities.append(float(next(values)))
        count = int(next(values))
        frames.append([[float(next(values)), float(next(values))] for _ in range(count)])
    return {"firstTime": x1, "timeStep": dx, "frames": frames, "intensities": intensities}


def cepstral(sound):
    """Praat's "To PowerCepstrogram" (60 Hz, 0.002 s, 5000 Hz, 50 Hz) and "Get CPPS" with its
    defaults (trend subtracted before smoothing, 0.02 s, 0.0005 s, 60–330 Hz, 0.05, parabolic,
    0.001–0.05 s, exponential decay, robust); per frame the same chain by hand: "Subtract trend",
    "Smooth", "To Table (peak prominence)" (time, quefrency and cpp of every frame)."""
    from parselmouth.praat import call
    trend = (0.001, 0.05, "Exponential decay", "Robust")
    cepstrogram = call(sound, "To PowerCepstrogram", 60.0, 0.002, 5000.0, 50.0)
    cpps = call(cepstrogram, "Get CPPS", "yes", 0.02, 0.0005, 60.0, 330.0, 0.05, "parabolic", *trend)
    return {"cpps": cpps, **peak_table(cepstrogram)}


def peak_table(cepstrogram):
    """"Get CPPS"'s chain frame by frame on a power cepstrogram, with its defaults: "Subtract
    trend", "Smooth", "To Table (peak prominence)"; its columns time, quefrency and cpp."""
    from parselmouth.praat import call
    trend = (0.001, 0.05, "Exponential decay", "Robust")
    smoothed = call(call(cepstrogram, "Subtract trend", *trend), "Smooth", 0.02, 0.0005)
    table = call(smoothed, "To Table (peak prominence)", 60.0, 330.0, 0.05, "parabolic", *trend)
    # The table's cells as Praat writes them: one call instead of three "Get value" calls a row
    # (5,460 for a 30-s file), the values equal to theirs on the corpus and ../shared/data.
    with tempfile.TemporaryDirectory() as scratch:
        written = os.path.join(scratch, "peaks.tsv")
        call(table, "Save as tab-separated file", written)
        with open(written) as f:
            header, *rows = [line.split("\t") for line in f.read().splitlines()]
    return {name: [float(row[header.index(name)]) for row in rows] for name in ("time", "quefrency", "cpp")}


def mfcc(samples, rate):
    """librosa.feature.mfcc at the file's own rate with every default (n_mfcc 20, n_fft 2048,
    hop 512, Hann, centred with zero padding, Slaney mel basis of 128 bands in float32, power to
    dB with ref 1, amin 1e-10 and an 80-dB floor, DCT-II ortho), and librosa.feature.delta
    (width 9, interp) of order 1 and 2."""
    import librosa
    coefficients = librosa.feature.mfcc(y=samples, sr=rate)
    result = {"nFft": 2048, "hop": 512, "coefficients": coefficients.T.tolist()}
    if coefficients.shape[1] >= 9:
        result["delta"] = librosa.feature.delta(coefficients).T.tolist()
        result["delta2"] = librosa.feature.delta(coefficients, order=2).T.tolist()
    return result


def reference(index, path):
    source = presented.wav(path, os.path.join(OUT, f"{index}.wav"))
    sound = parselmouth.Sound(source)
    if sound.n_channels > 1:
        sound = sound.extract_left_channel()
    samples = np.ascontiguousarray(sound.values[0], dtype="<f8")
    raw = os.path.join(OUT, f"{index}.f64")
    samples.tofile(raw)
    rate = sound.sampling_frequency
    return {"file": path, "samples": raw, "rateHz": rate, "dx": sound.dx, "xmax": sound.xmax, "formants": formants(sound, os.path.join(OUT, "formant.txt")), "cepstral": cepstral(sound), "mfcc": mfcc(samples, rate)}


if __name__ == "__main__":
    OUT = sys.argv[1]
    os.makedirs(OUT, exist_ok=True)
    files = [f for f in sys.argv[2:] if f != "--corpus"]
    if "--corpus" in sys.argv[2:]:
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        from praat_corpus import build
        files = build(os.path.join(OUT, "corpus")) + files
    for i, f in enumerate(files):
        print(json.dumps(reference(i, f)), flush=True)
