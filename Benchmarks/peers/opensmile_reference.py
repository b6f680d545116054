"""Reference values of openSMILE 2.6.0's eGeMAPSv02 chain (the `opensmile` Python package, a test
peer only: its licence allows no other use), per frame and per file, for the descriptors the
toolkit's `egemapsv02` set computes so far, and its peak functional on given contours.

    python3 Benchmarks/peers/opensmile_reference.py OUT_FOLDER [--corpus] [--contours N] [FILE…]

Files: channel 0, quantised as the package does before openSMILE sees it (x·32768 truncated to a
16-bit integer, which openSMILE reads as v/32767). For each file it writes OUT_FOLDER/N.f64 (the
quantised samples as little-endian float64, v/32768, as a 16-bit file reads) and prints one JSON
line: {"file", "samples", "rateHz", "lld": {name: [value per 10-ms frame]}, "functionals":
{openSMILE name: value}, "descriptors": {openSMILE name: [value per 10-ms frame]}, "descriptorNames":
[its column order], "fileSamples", "fileFunctionals"} (descriptors and descriptorNames its
low-level-descriptor output, after smoothing; fileSamples N.file.f64, the file's own channel 0
unquantised, as a float WAV holds it, and fileFunctionals openSMILE's functionals of those). The frame values are the configuration's own data-memory levels before
smoothing, read through a configuration that includes eGeMAPSv02's component files unchanged and
has one sink per level, so one run of openSMILE gives all of a file's values.

--contours N: N seeded random contours (noise, rounded noise, random walks, smoothed positive
noise, smoothed walks with noise; 5–1500 values) fed through a cExternalSource at a 10-ms period
into a cFunctionals component with Peaks2 as in eGeMAPSv02's loudness functionals; one JSON line
each: {"contour", "functionals": {numPeaks, meanRisingSlope, …}, "peaks": [[index, "M"|"m"], …]}
(the positions from the component's own debug output).
"""
import json
import math
import os
import sys

import numpy as np
import opensmile
import soundfile
from opensmile.core.lib import OpenSMILE

import presented

CONFIG = os.path.join(os.path.dirname(opensmile.__file__), "core", "config")

LEVELS = {
    "gemapsv01b_loudness": ["loudness"],
    "gemapsv01b_logSpectral": ["slope0-500", "slope500-1500", "alphaRatio", "hammarbergIndex"],
    "egemapsv02_logSpectral_flux": ["spectralFlux"],
    "egemapsv02_mfcc": ["mfcc1", "mfcc2", "mfcc3", "mfcc4"],
    "egemapsv02_energyRMS": ["energy"],
    "gemapsv01b_pitchShsG60": ["nCandidates"] + ["F0Cand%d" % k for k in range(6)] + ["candVoicing%d" % k for k in range(6)]
    + ["candScores%d" % k for k in range(6)] + ["F0raw", "voicingClip"],
    "gemapsv01b_logPitch": ["F0final", "F0finalLog", "voicingFinalUnclipped"],
    "gemapsv01b_harmonics": ["HarmonicsToNoiseRatioACFLogdB", "HarmonicDifferenceLogRelH1-H2", "HarmonicDifferenceLogRelH1-A3"]
    + ["FormantAmplitudeByMaxHarmonicLogRelF0_%d" % k for k in range(1, 4)],
    "gemapsv01b_jitterShimmer": ["jitterLocal", "shimmerLocalDB"],
    "gemapsv01b_formants": ["formantFreqLpc%d" % k for k in range(1, 6)] + ["formantBandwidthLpc%d" % k for k in range(1, 6)],
}


def probe_config(folder):
    """eGeMAPSv02.conf's components (its four component files unchanged and its two
    concatenations, as the package's config/egemaps/v02/eGeMAPSv02.conf has them) with the
    package's external wave input and one external sink per level read: each of LEVELS, `lld`
    (the low-level descriptors after smoothing) and `func` (the functionals), all from one run."""
    egemaps = os.path.join(CONFIG, "egemaps", "v02", "eGeMAPSv02.conf")
    with open(egemaps) as f:
        text = f.read()
    text = text.replace("\\{\\cm[source{?}:include external source]}", "\\{%s}" % os.path.join(CONFIG, "shared", "standard_external_wave_input.conf.inc"))
    for part in ("../../gemaps/v01b/GeMAPSv01b_core.lld.conf.inc", "eGeMAPSv02_core.lld.conf.inc",
                 "../../gemaps/v01b/GeMAPSv01b_core.func.conf.inc", "eGeMAPSv02_core.func.conf.inc"):
        text = text.replace("\\{%s}" % part, "\\{%s}" % os.path.normpath(os.path.join(os.path.dirname(egemaps), part)))
    sinks = "".join("[componentInstances:cComponentManager]\ninstance[%s].type=cExternalSink\n[%s:cExternalSink]\nreader.dmLevel = %s\nblocksize = 1\n"
                    % (sink(name), sink(name), name) for name in list(LEVELS) + ["lld", "func"])
    text = text.replace("\\{\\cm[sink{?}:include external sink]}", sinks)
    assert "{?}" not in text and "\\{../" not in text, "eGeMAPSv02.conf changed: probe_config no longer rewrites it"
    path = os.path.join(folder, "egemapsv02-levels.conf")
    with open(path, "w") as f:
        f.write(text)
    return path


def sink(level):
    return "sink_" + level


def run(config, samples, rate):
    """One run of `config` on `samples` with the options and the 16-bit quantisation of the
    package's Smile._extract: every sink's frames as float64 rows, and its element names."""
    smile = OpenSMILE()
    options = {"sampleRate": rate, "nBits": 16, "bufferModeRbConf": os.path.join(CONFIG, "shared", "BufferModeRb.conf.inc"),
               "frameModeFunctionalsConf": os.path.join(CONFIG, "shared", "FrameModeFunctionals.conf.inc")}
    smile.initialize(config, options, loglevel=1)
    rows, names = {}, {}
    for name in list(LEVELS) + ["lld", "func"]:
        component = sink(name)
        rows[name] = []
        smile.external_sink_set_callback(component, lambda data, out=rows[name]: out.append(np.array(data, dtype=np.float32)))
        names[name] = [smile.external_sink_get_element_name(component, i) for i in range(smile.external_sink_get_num_elements(component))]
    smile.external_audio_source_write_data("extsource", bytes((samples.astype(np.float32) * 32768).astype(np.int16)))
    smile.external_audio_source_set_eoi("extsource")
    smile.run()
    smile.free()
    return {name: np.asarray(np.vstack(frames) if frames else np.empty((0, len(names[name]))), dtype=np.float64) for name, frames in rows.items()}, names


def analyse(path, index, folder, config):
    source = presented.wav(path, os.path.join(folder, "%d.wav" % index))
    x, rate = soundfile.read(source, dtype="float64", always_2d=True)
    quantised = np.clip(np.trunc(x[:, 0] * 32768), -32768, 32767) / 32768
    raw = os.path.join(folder, "%d.f64" % index)
    np.ascontiguousarray(quantised, dtype="<f8").tofile(raw)
    levels, names = run(config, quantised, rate)
    lld = {column: levels[name][:, k].tolist() for name, columns in LEVELS.items() for k, column in enumerate(columns)}
    # The file's own samples (float WAVs unquantised) and openSMILE's functionals of the file.
    unquantised = os.path.join(folder, "%d.file.f64" % index)
    np.ascontiguousarray(x[:, 0], dtype="<f8").tofile(unquantised)
    of_file, _ = run(config, x[:, 0], rate)
    # No functionals frame (a segment too short): NaN, as the package's Smile fills it.
    functionals = lambda values: {k: float(v) for k, v in zip(names["func"], values["func"][-1] if len(values["func"]) else [math.nan] * len(names["func"]))}
    return {"file": path, "samples": raw, "rateHz": rate, "lld": lld, "functionals": functionals(levels),
            "fileSamples": unquantised, "fileFunctionals": functionals(of_file),
            "descriptors": {k: levels["lld"][:, i].tolist() for i, k in enumerate(names["lld"])}, "descriptorNames": names["lld"]}


PEAKS_CONFIG = """[componentInstances:cComponentManager]
instance[dataMemory].type=cDataMemory
instance[contour].type=cExternalSource
instance[functionals].type=cFunctionals
instance[sink].type=cExternalSink
printLevelStats=0
[contour:cExternalSource]
writer.dmLevel = contour
fieldNames[0] = v
writer.levelconf.T = 0.01
writer.levelconf.growDyn = 1
writer.levelconf.isRb = 0
writer.levelconf.nT = 10000
[functionals:cFunctionals]
reader.dmLevel = contour
writer.dmLevel = functionals
copyInputName = 1
frameMode = full
frameSize = 0
frameStep = 0
frameCenterSpecial = left
functionalsEnabled = Peaks2
Peaks2.numPeaks = 1
Peaks2.meanRisingSlope = 1
Peaks2.stddevRisingSlope = 1
Peaks2.meanFallingSlope = 1
Peaks2.stddevFallingSlope = 1
Peaks2.norm = seconds
Peaks2.relThresh = 0.100000
Peaks2.dynRelThresh = 0
Peaks2.posDbgOutp = %s
Peaks2.posDbgAppend = 0
nonZeroFuncts = 0
masterTimeNorm = segment
[sink:cExternalSink]
reader.dmLevel = functionals
"""


def contours(count, folder):
    debug = os.path.join(folder, "peaks.txt")
    config = os.path.join(folder, "peaks2.conf")
    with open(config, "w") as f:
        f.write(PEAKS_CONFIG % debug)
    rng = np.random.default_rng(20261129)
    for trial in range(count):
        kind = trial % 5
        n = int(rng.integers(5, 80)) if kind < 3 else int(rng.integers(100, 1500))
        if kind == 0:
            v = rng.normal(0, 1, n)
        elif kind == 1:
            v = np.round(rng.normal(0, 1, n), 0)
        elif kind == 2:
            v = np.cumsum(rng.normal(0, 1, n))
        elif kind == 3:
            v = np.convolve(np.abs(rng.normal(0, 1, n + 2)), np.ones(3) / 3, "valid") + 1
        else:
            v = np.convolve(np.cumsum(rng.normal(0, 0.05, n + 4)), np.ones(5) / 5, "valid") + 2 + 0.05 * rng.normal(0, 1, n)
        v = v.astype(np.float32)
        if os.path.exists(debug):
            os.remove(debug)
        smile = OpenSMILE()
        smile.initialize(config, {}, loglevel=1)
        out = []
        smile.external_sink_set_callback("sink", lambda d: out.append(np.array(d)))
        names = [smile.external_sink_get_element_name("sink", i) for i in range(smile.external_sink_get_num_elements("sink"))]
        for value in v:
            smile.external_source_write_data("contour", np.array([value], np.float32))
        smile.external_source_set_eoi("contour")
        smile.run()
        smile.free()
        peaks = []
        if os.path.exists(debug):
            for line in open(debug):
                if line.startswith("XXXX_MAX") or line.startswith("XXXX_MIN"):
                    peaks.append([int(line.split("x=")[1].split()[0]), "M" if "MAX" in line else "m"])
        print(json.dumps({"contour": v.astype(np.float64).tolist(),
                          "functionals": {name[2:]: float(value) for name, value in zip(names, out[-1])}, "peaks": peaks}))


def main():
    folder = sys.argv[1]
    os.makedirs(folder, exist_ok=True)
    args = sys.argv[2:]
    files, count = [], 0
    while args:
        arg = args.pop(0)
        if arg == "--corpus":
            sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
            from praat_corpus import build
            files += build(os.path.join(folder, "corpus"))
        elif arg == "--contours":
            count = int(args.pop(0))
        else:
            files.append(arg)
    config = probe_config(folder)
    for index, path in enumerate(files):
        print(json.dumps(analyse(path, index, folder, config)), flush=True)
    contours(count, folder)


if __name__ == "__main__":
    main()
