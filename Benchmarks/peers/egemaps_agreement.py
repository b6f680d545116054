"""eGeMAPS agreement: the `egemaps` set of `activetask score voice --json` next to openSMILE 2.6.0's
eGeMAPSv02 functionals (the `opensmile` Python package, a test peer only) on the corpus of
`praat_corpus.py` and the real voice files given on the command line.

    python3 Benchmarks/peers/egemaps_agreement.py ACTIVETASK OUT_FOLDER [REAL_FILE…]

(On a folder where praat_corpus.py has just run, the outputs it kept — newer than their audio —
are read instead of running the command again.)

Prints a Markdown table — per feature the files where both give a value, the median absolute
difference and Pearson's r over files — and a JSON summary on the last line. Where the paper's
definition and openSMILE's output differ in sign or orientation, openSMILE's value is turned the
paper's way before comparing (the `compared with` column says how).
"""
import json
import math
import os
import subprocess
import sys

import numpy as np
import opensmile
import presented
from praat_corpus import build

# (our feature, openSMILE's functional, transform of openSMILE's value, how it is compared)
PAIRS = [
    ("alphaRatioVoicedMeanDb", "alphaRatioV_sma3nz_amean", lambda v: -v, "−value (openSMILE: 1–5 kHz over 0–1 kHz)"),
    ("alphaRatioVoicedCv", "alphaRatioV_sma3nz_stddevNorm", abs, "|value| (openSMILE signs it by the mean)"),
    ("alphaRatioUnvoicedMeanDb", "alphaRatioUV_sma3nz_amean", lambda v: -v, "−value"),
    ("hammarbergIndexVoicedMeanDb", "hammarbergIndexV_sma3nz_amean", None, "value"),
    ("hammarbergIndexVoicedCv", "hammarbergIndexV_sma3nz_stddevNorm", abs, "|value|"),
    ("hammarbergIndexUnvoicedMeanDb", "hammarbergIndexUV_sma3nz_amean", None, "value"),
    ("spectralSlope0To500HzVoicedMeanDbPerHz", "slopeV0-500_sma3nz_amean", None, "value"),
    ("spectralSlope0To500HzVoicedCv", "slopeV0-500_sma3nz_stddevNorm", abs, "|value|"),
    ("spectralSlope0To500HzUnvoicedMeanDbPerHz", "slopeUV0-500_sma3nz_amean", None, "value"),
    ("spectralSlope500To1500HzVoicedMeanDbPerHz", "slopeV500-1500_sma3nz_amean", None, "value"),
    ("spectralSlope500To1500HzVoicedCv", "slopeV500-1500_sma3nz_stddevNorm", abs, "|value|"),
    ("spectralSlope500To1500HzUnvoicedMeanDbPerHz", "slopeUV500-1500_sma3nz_amean", None, "value"),
    ("h1MinusH2VoicedMeanDb", "logRelF0-H1-H2_sma3nz_amean", None, "value (openSMILE's H1, H2 are 2·F0, 3·F0)"),
    ("h1MinusH2VoicedCv", "logRelF0-H1-H2_sma3nz_stddevNorm", abs, "|value|"),
    ("h1MinusA3VoicedMeanDb", "logRelF0-H1-A3_sma3nz_amean", None, "value (openSMILE's H1 is 2·F0)"),
    ("h1MinusA3VoicedCv", "logRelF0-H1-A3_sma3nz_stddevNorm", abs, "|value|"),
    ("loudnessMeanAuditory", "loudness_sma3_amean", None, "value"),
    ("loudnessCv", "loudness_sma3_stddevNorm", None, "value"),
    ("loudnessP20Auditory", "loudness_sma3_percentile20.0", None, "value"),
    ("loudnessP50Auditory", "loudness_sma3_percentile50.0", None, "value"),
    ("loudnessP80Auditory", "loudness_sma3_percentile80.0", None, "value"),
    ("loudnessRangeP20ToP80Auditory", "loudness_sma3_pctlrange0-2", None, "value"),
    ("loudnessPeaksPerSecond", "loudnessPeaksPerSec", None, "value"),
    ("voicedSegmentsPerSecond", "VoicedSegmentsPerSec", None, "value"),
    ("voicedSegmentLengthMeanSeconds", "MeanVoicedSegmentLengthSec", None, "value"),
    ("voicedSegmentLengthSdSeconds", "StddevVoicedSegmentLengthSec", None, "value"),
    ("unvoicedSegmentLengthMeanSeconds", "MeanUnvoicedSegmentLength", None, "value"),
    ("unvoicedSegmentLengthSdSeconds", "StddevUnvoicedSegmentLength", None, "value"),
]


def main(tool, folder, real):
    files = build(folder) + real
    smile = opensmile.Smile(feature_set=opensmile.FeatureSet.eGeMAPSv02, feature_level=opensmile.FeatureLevel.Functionals)
    pairs = {ours: ([], []) for ours, _, _, _ in PAIRS}
    for path in files:
        # The output praat_corpus.py kept for this file when it ran on this folder, or a new run.
        kept = os.path.join(folder, os.path.basename(path) + ".json")
        if os.path.exists(kept) and os.path.getmtime(kept) >= os.path.getmtime(path):
            with open(kept) as f:
                output = f.read()
        else:
            output = subprocess.run([tool, "score", "voice", "--json", "--sets", "egemaps", path], capture_output=True, text=True).stdout
        ours = json.loads(output)["features"]["egemaps"]
        source = presented.wav(path, os.path.join(folder, os.path.basename(path) + ".wav"))
        theirs = smile.process_file(source).iloc[0].to_dict()
        for name, functional, transform, _ in PAIRS:
            mine, value = ours.get(name), theirs.get(functional)
            if mine is None or value is None or not math.isfinite(value):
                continue
            pairs[name][0].append(mine)
            pairs[name][1].append(transform(value) if transform else value)
    print(f"Corpus: {len(files)} files.\n")
    print("| feature | compared with openSMILE's | files | median abs. difference | Pearson r |")
    print("|---|---|---:|---:|---:|")
    summary = {}
    for name, functional, _, how in PAIRS:
        mine, theirs = (np.array(v) for v in pairs[name])
        median = float(np.median(np.abs(mine - theirs))) if len(mine) else math.nan
        r = float(np.corrcoef(mine, theirs)[0, 1]) if len(mine) >= 3 and np.std(mine) > 0 and np.std(theirs) > 0 else math.nan
        summary[name] = {"files": len(mine), "medianAbsoluteDifference": median, "pearsonR": r}
        print(f"| `{name}` | `{functional}`: {how} | {len(mine)} | {median:.4g} | {r:.3f} |")
    print(json.dumps({"files": len(files), "features": summary}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2], sys.argv[3:]))
