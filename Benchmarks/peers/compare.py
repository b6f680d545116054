"""ActiveTaskKit next to its peers, side by side on this machine in one run (issue 8).

    bash Benchmarks/peers/run.sh [--only fft,leq,...] [--batch-runs N] [--jobs N] [--one-cpu] [--tool PATH]
    (= setup.sh, a venv with the peers from PyPI, then .peers-venv/bin/python compare.py …)

Every workload runs in its own process (so each peak resident memory is that workload's), the
toolkit through `peer-workloads` (Benchmarks/peers/PeerWorkloads), the FFT floor through
fftw_floor.c, each Python peer through `compare.py --peer NAME ARGS`. Both sides time the
median of the same number of runs after one warm-up inside their process; FFT rows alternate the
C and Swift processes seven times and keep each side's fastest median (micro-benchmarks on a
shared machine are noisy; the fastest is the least disturbed). Each side also prints a check
value (a level, a feature, a count) so a fast wrong answer shows.

Inputs are made in --work (default /tmp/activetask-peers) from fixed seeds: 1 h and 10 min of
48 kHz mono 16-bit noise, 10 min of 48 kHz stereo 16-bit noise, 1 h of 100 Hz accelerometer
items (walking alternating with rest, ResearchKit JSON), and a batch corpus of --batch-runs task
runs (`activetask generate-corpus`, default 100), and device-motion walks of 30 s and 1 h for the
mhealthtools rows (JSON for the toolkit, CSV for mhealthtools in R). Real recordings come from ../shared/data
(mPower tapping, the mPower walk, the four sustained-vowel WAVs).

Prints one table: seconds per side, speed ratio (peer time / toolkit time; > 1: the toolkit is
faster), the issue's target, peak memory per side, and the check values.
"""
import argparse
import json
import math
import os
import pathlib
import resource
import sqlite3
import subprocess
import sys
import tempfile
import time

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parents[1]
SHARED = ROOT.parent / "shared" / "data"


# ---------------------------------------------------------------- peers (run in a child process)

def weighting_sos(rate, weighting):
    """IEC 61672-1:2013 A or C weighting as the toolkit designs it (FrequencyWeighting.swift,
    docs/analyses.md §3.1), written out again here so the check values compare the same filter: the
    poles from the standard's design values (Annex E: fr = 1 kHz, fL = 10^1.5, fH = 10^3.9 Hz,
    D = √½, fA = 10^2.45 Hz); the low-frequency sections (double zero at z = 1, poles by the
    bilinear transform); the f4 double pole as a matched section (M. Vicanek, "Matched Second Order
    Digital Filters", 2016: |H|² equal to the analogue at 0, fs/4 and Nyquist); 0 dB at 1 kHz."""
    import numpy as np
    from scipy import signal
    fr, fl, fh, d, fa = 1000.0, 10 ** 1.5, 10 ** 3.9, math.sqrt(0.5), 10 ** 2.45
    b = (fr ** 2 + fl ** 2 * fh ** 2 / fr ** 2 - d * (fl ** 2 + fh ** 2)) / (1 - d)
    c = fl ** 2 * fh ** 2
    f1 = math.sqrt((-b - math.sqrt(b * b - 4 * c)) / 2)
    f4 = math.sqrt((-b + math.sqrt(b * b - 4 * c)) / 2)
    f2, f3 = fa * (3 - math.sqrt(5)) / 2, fa * (3 + math.sqrt(5)) / 2

    def bilinear_pole(f):
        s = -2 * math.pi * f
        return (2 * rate + s) / (2 * rate - s)

    def section(p1, p2):
        return [1.0, -2.0, 1.0, 1.0, -(p1 + p2), p1 * p2]

    pole = math.exp(-2 * math.pi * f4 / rate)
    a1, a2 = -2 * pole, pole * pole
    squared = ((1 + a1 + a2) ** 2, (1 - a1 + a2) ** 2, -4 * a2)

    def analogue(f):
        return (f4 * f4 / (f * f + f4 * f4)) ** 2

    b0sq, b1sq = analogue(0) * squared[0], analogue(rate / 2) * squared[1]
    b2term = analogue(rate / 4) * (0.5 * squared[0] + 0.5 * squared[1] + squared[2]) - 0.5 * b0sq - 0.5 * b1sq
    w = 0.5 * (math.sqrt(b0sq) + math.sqrt(b1sq))
    m0 = 0.5 * (w + math.sqrt(w * w + b2term))
    sos = [[m0, 0.5 * (math.sqrt(b0sq) - math.sqrt(b1sq)), -b2term / (4 * m0), 1.0, a1, a2]]
    if weighting == "A":
        sos.append(section(bilinear_pole(f2), bilinear_pole(f3)))
    sos.append(section(bilinear_pole(f1), bilinear_pole(f1)))
    sos = np.asarray(sos)
    w, h = signal.sosfreqz(sos, worN=[1000.0], fs=rate)
    sos[0, :3] /= abs(h[0])
    return sos


def a_weighting_sos(rate):
    return weighting_sos(rate, "A")


def c_weighting_sos(rate):
    return weighting_sos(rate, "C")


def peer_meter(path):
    """What `score spl` measures, in numpy/scipy, streamed in 10-s blocks (memory bounded like the
    toolkit's): A, C, Z Leq; LAF and LAS (exponential time weighting, IEC 61672-1 §5.8: τ = 0.125
    and 1 s) and their maxima; LAF every 0.1 s and its L10/L50/L90; LAeq per second. Returns
    LAeq, dB re full scale."""
    import numpy as np
    import soundfile
    from scipy import signal
    info = soundfile.info(path)
    rate = info.samplerate
    sos_a, sos_c = a_weighting_sos(rate), c_weighting_sos(rate)
    za, zc = np.zeros((sos_a.shape[0], 2)), np.zeros((sos_c.shape[0], 2))
    alphas = [1 - math.exp(-1 / (rate * tau)) for tau in (0.125, 1.0)]
    zt = [np.zeros(1), np.zeros(1)]
    energy = np.zeros(3)
    count, maxima, laf, per_second = 0, [0.0, 0.0], [], []
    step = round(0.1 * rate)
    for block in soundfile.blocks(path, blocksize=10 * rate, dtype="float64", always_2d=True):
        x = block[:, 0]
        a, za = signal.sosfilt(sos_a, x, zi=za)
        c, zc = signal.sosfilt(sos_c, x, zi=zc)
        pa = a * a
        energy += (pa.sum(), np.dot(c, c), np.dot(x, x))
        weighted = []
        for k, alpha in enumerate(alphas):
            y, zt[k] = signal.lfilter([alpha], [1, alpha - 1], pa, zi=zt[k])
            maxima[k] = max(maxima[k], y.max())
            weighted.append(y)
        start = (step - 1 - count) % step
        laf.append(weighted[0][start::step])
        whole = len(x) // rate * rate
        per_second.append(pa[:whole].reshape(-1, rate).mean(axis=1))
        count += len(x)
    levels = 10 * np.log10(np.concatenate(laf))
    np.percentile(levels, [10, 50, 90])
    10 * np.log10(np.concatenate(per_second))
    10 * np.log10(maxima)
    return 10 * math.log10(energy[0] / count)


def peer_leq(path):
    """A-weighted Leq per second and overall, dB re full scale: soundfile 1-s blocks, scipy sosfilt."""
    import numpy as np
    import soundfile
    from scipy import signal
    info = soundfile.info(path)
    sos = a_weighting_sos(info.samplerate)
    zi = np.zeros((sos.shape[0], 2))
    per_second = []
    for block in soundfile.blocks(path, blocksize=info.samplerate, dtype="float64", always_2d=True):
        y, zi = signal.sosfilt(sos, block[:, 0], zi=zi)
        if len(y) == info.samplerate:
            per_second.append(np.dot(y, y) / len(y))
    return 10 * math.log10(np.mean(per_second))


def peer_loudness(path):
    import pyloudnorm
    import soundfile
    data, rate = soundfile.read(path)
    return pyloudnorm.Meter(rate).integrated_loudness(data)


def peer_voice(*paths):
    sys.path.insert(0, str(HERE))
    from voice_parselmouth import praat
    return sum(measures["jitterLocal"] + measures["hnrDb"] for measures in map(praat, paths))


def peer_tapping(path):
    sys.path.insert(0, str(HERE))
    from tapping_numpy import features, rows
    return features(*rows(path))["meanTapInter"]


def load_motion(path):
    import numpy as np
    import orjson
    items = orjson.loads(pathlib.Path(path).read_bytes())
    items = items["items"] if isinstance(items, dict) else items
    return [np.fromiter((item[key] for item in items), float, len(items)) for key in ("timestamp", "x", "y", "z")]


def pdkit_gait(t, x, y, z):
    """pdkit 1.4 GaitProcessor on the acceleration magnitude resampled to 100 Hz: heel strikes
    (step count and times) and gait regularity/symmetry (autocorrelation). (Its frequency_of_peaks
    fails with an IndexError on a plain series, so it is left out.)"""
    import warnings
    import numpy as np
    np.int = int  # pdkit 1.4 uses the alias numpy 1.24 removed
    warnings.filterwarnings("ignore")
    import pandas as pd
    import pdkit
    grid = np.arange(t[0], t[-1], 0.01)
    magnitude = np.interp(grid, t, np.sqrt(x * x + y * y + z * z))
    series = pd.Series(magnitude)
    gait = pdkit.GaitProcessor(sampling_frequency=100.0)
    strikes, _ = gait.heel_strikes(series)
    gait.gait_regularity_symmetry(series)
    return float(len(strikes))


def peer_json(path):
    data = pathlib.Path(path).read_bytes()
    import numpy as np
    import orjson
    items = orjson.loads(data)
    return float(np.fromiter((item["x"] for item in items), float, len(items)).sum())


def peer_fft_numpy(size, precision):
    """Not a target row: numpy.fft.rfft (pocketfft) for scale next to FFTW."""
    import numpy as np
    x = np.sin(np.arange(int(size)) * 0.01).astype(np.float32 if precision == "float" else np.float64)
    return float(np.fft.rfft(x)[1].real)


def batch_analyse(unit):
    """One corpus unit as the Python pipeline analyses it: (path, analyzer, features)."""
    import numpy as np
    sys.path.insert(0, str(HERE))
    path = pathlib.Path(unit)
    rows = []
    if path.is_dir():
        names = sorted(p.name for p in path.iterdir())
        if "tapping_results.json" in names:
            from tapping_numpy import features, rows as tapping_rows
            f = features(*tapping_rows(path / "tapping_results.json"))
            rows.append((unit, "tapping", {k: float(v) if isinstance(v, (int, float, np.floating)) else str(v) for k, v in f.items()}))
        motion = [n for n in names if n.startswith(("accel_", "deviceMotion_"))]
        if motion:
            features = {}
            for name in motion:
                items = json.loads((path / name).read_text())["items"]
                t = np.array([i["timestamp"] for i in items])
                if name.startswith("accel_"):
                    x, y, z = (np.array([i[k] for i in items]) for k in "xyz")
                else:
                    x, y, z = (np.array([i["userAcceleration"][k] + i["gravity"][k] for i in items]) for k in "xyz")
                try:  # pdkit raises on some recordings (e.g. no heel strike while standing): an error per file, as batch records
                    features[name + ".stepCount"] = pdkit_gait(t, x, y, z) if len(t) >= 300 else None
                except Exception as error:
                    features[name + ".error"] = f"{type(error).__name__}: {error}"
            for name in names:
                if name.startswith("pedometer_"):
                    items = json.loads((path / name).read_text())["items"]
                    features[name + ".steps"] = items[-1]["numberOfSteps"] if items else None
            rows.append((unit, "gait", features))
        audio = [n for n in names if n.endswith(".wav")]
        for name in audio:  # a task's recording is a voice task's: the voice measures only, as the toolkit's batch
            rows.append((str(path / name), "voice", voice_everything(str(path / name))))
    else:
        d = json.loads(path.read_text())
        if d.get("_class") == "ORKEnvironmentSPLMeterResult":
            readings = d["recordedSPLMeterSamples"]
            run, passed = 0, None
            for k, value in enumerate(readings):
                run = run + 1 if value < 35 else 0
                if run == 5 and passed is None:
                    passed = k
            rows.append((unit, "spl", {"readingCount": len(readings), "passIndex": passed}))
        elif d.get("_class") == "ORKdBHLToneAudiometryResult":
            thresholds = {(s["channel"], s["frequency"]): s["calculatedThreshold"] for s in d["samples"]}
            pta = {ch: np.mean([thresholds[(ch, f)] for f in (500, 1000, 2000, 4000) if (ch, f) in thresholds]) for ch in (0, 1)}
            rows.append((unit, "audiometry", {"ptaLeft": pta[0], "ptaRight": pta[1]}))
    return rows


SMILE = []


def voice_everything(path):
    """What `score voice` computes, by the peers of voice_everything.py: the sets atk (with the
    levels), formants and cepstral by Praat, numpy and libebur128, librosa's MFCCs with Δ and ΔΔ,
    openSMILE's eGeMAPSv02."""
    import numpy as np
    import opensmile
    import voice_everything as peers
    if not SMILE:  # one per worker process, made on its first recording
        SMILE.append(opensmile.Smile(feature_set=opensmile.FeatureSet.eGeMAPSv02, feature_level=opensmile.FeatureLevel.Functionals))
    cpps, values = peers.praat(path)
    y, rate, statistics = peers.mfcc(path)
    egemaps = SMILE[0].process_signal(y.astype(np.float32), rate).iloc[0].to_dict()
    return {"cppsDb": cpps, **{f"praat{k}": v for k, v in enumerate(values)},
            **{f"mfcc{k}": float(v) for k, v in enumerate(np.concatenate(statistics))}, **{k: float(v) for k, v in egemaps.items()}}


def peer_batch(corpus, db, jobs):
    """The Python pipeline: the same analyses on the same corpus with a process pool of `jobs`
    workers, features as JSON into SQLite."""
    from multiprocessing import Pool
    units = []
    for run in sorted(pathlib.Path(corpus).iterdir()):
        for entry in sorted(run.iterdir()):
            units.append(str(entry))
    with sqlite3.connect(db) as store:
        store.execute("CREATE TABLE IF NOT EXISTS results (path TEXT, analyzer TEXT, features TEXT)")
        with Pool(int(jobs)) as pool:
            count = 0
            for rows in pool.imap_unordered(batch_analyse, units, chunksize=4):
                store.executemany("INSERT INTO results VALUES (?, ?, ?)", [(p, a, json.dumps(f, default=str)) for p, a, f in rows])
                count += len(rows)
    return float(count)


def tapping_rows(path):
    sys.path.insert(0, str(HERE))
    from tapping_numpy import rows
    return rows(path)


def tapping_features(data):
    from tapping_numpy import features
    return features(*data)["meanTapInter"]


def unprepared(function):
    return (lambda *args: args), (lambda args: function(*args))


# name: (prepare(*args) → state, untimed; compute(state) → check value, timed)
PEERS = {
    "leq": unprepared(peer_leq), "meter": unprepared(peer_meter), "loudness": unprepared(peer_loudness), "voice": unprepared(peer_voice),
    "tapping": unprepared(peer_tapping), "tapping-features": (tapping_rows, tapping_features),
    "gait": (load_motion, lambda columns: pdkit_gait(*columns)), "json": unprepared(peer_json),
}


def run_peer(name, args, repeats):
    if name == "batch":  # one timed run: the corpus is large, and a rerun would measure warm caches only
        start = time.perf_counter()
        check = peer_batch(*args)
        seconds = time.perf_counter() - start
    elif name == "fft-numpy":
        check, seconds = peer_fft_numpy(*args), time_fft_numpy(*args)
    else:
        prepare, compute = PEERS[name]
        state = prepare(*args)
        check = compute(state)
        times = []
        for _ in range(repeats):
            start = time.perf_counter()
            check = compute(state)
            times.append(time.perf_counter() - start)
        times.sort()
        seconds = times[len(times) // 2]
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(json.dumps({"workload": name, "seconds": seconds, "repeats": repeats, "peakResidentMB": max(peak, children), "check": check}))


def time_fft_numpy(size, precision):
    import numpy as np
    size = int(size)
    x = np.sin(np.arange(size) * 0.01).astype(np.float32 if precision == "float" else np.float64)
    calls = max(20, 50_000_000 // (size * max(1, int(math.log2(size)))))
    medians = []
    for _ in range(7):
        start = time.perf_counter()
        for _ in range(calls):
            np.fft.rfft(x)
        medians.append((time.perf_counter() - start) / calls)
    return sorted(medians)[3]


# ---------------------------------------------------------------- inputs

def make_inputs(work, tool, batch_runs):
    import numpy as np
    import soundfile
    work.mkdir(parents=True, exist_ok=True)
    files = {}

    def noise_wav(name, seconds, channels):
        path = work / name
        if not path.exists():
            rng = np.random.default_rng(8)
            with soundfile.SoundFile(path, "w", 48_000, channels, "PCM_16") as f:
                for minute in range(math.ceil(seconds / 60)):
                    level = 0.05 * (1 + 0.5 * math.sin(minute))
                    f.write(np.clip(rng.normal(0, level, (48_000 * min(60, seconds - 60 * minute), channels)), -1, 1))
        return str(path)

    files["hour"] = noise_wav("noise-1h-48k-mono.wav", 3600, 1)
    files["tenMinutes"] = noise_wav("noise-10min-48k-mono.wav", 600, 1)
    files["stereo"] = noise_wav("noise-10min-48k-stereo.wav", 600, 2)
    files["second"] = noise_wav("noise-1s-48k-mono.wav", 1, 1)
    # 1 h at 100 Hz: six 300-s walks at 1.8 steps/s (3,240 steps) with a stride component (one
    # leg heavier) of 0.2 m/s², between 300-s rests. (With 0.4 m/s², as before session 11, the
    # magnitude crosses its mean once per stride and pdkit's heel strikes count strides, 1,619.)
    gait = work / "accel-1h-100Hz-steps.json"
    if not gait.exists():
        rng = np.random.default_rng(9)
        t = np.arange(360_000) / 100 + rng.uniform(-0.001, 0.001, 360_000)
        walking = (t // 300).astype(int) % 2 == 0
        v = np.where(walking, 1.2 * np.sin(2 * np.pi * 1.8 * t) + 0.2 * np.sin(np.pi * 1.8 * t + 1), 0.02 * np.sin(2 * np.pi * 0.2 * t))
        z = -(1 + v / 9.80665) + rng.normal(0, 0.01, t.size)
        with open(gait, "w") as f:
            f.write('{"items":[')
            f.write(",".join(f'{{"timestamp":{a:.4f},"x":{b:.5f},"y":{c:.5f},"z":{d:.5f}}}'
                             for a, b, c, d in zip(t, rng.normal(0, 0.01, t.size), rng.normal(0, 0.01, t.size), z)))
            f.write("]}")
    files["gait"] = str(gait)
    for seconds in (30, 3600):
        files[f"mhealthtools{seconds}"] = str(motion_walk(work / f"mhealthtools-walk-{seconds}s", seconds))
    corpus = work / f"corpus-{batch_runs}"
    if not corpus.exists():
        subprocess.run([tool, "generate-corpus", "--runs", str(batch_runs), "--out", str(corpus)], check=True, stdout=subprocess.DEVNULL)
    files["corpus"] = str(corpus)
    return files


def motion_walk(folder, seconds):
    """A device-motion walk at 100 Hz (1.8 steps/s, ±1 ms jitter, noise; gravity tilting slowly)
    as ResearchKit JSON for the toolkit and as the three t,x,y,z CSVs the mhealthtools peer
    reads (Tests/Peers/mhealthtools/run.R), the same six-digit values in both."""
    import numpy as np
    if (folder / "deviceMotion.json").exists():
        return folder
    folder.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(11)
    n = int(seconds * 100)
    t = np.round(1000 + np.arange(n) / 100 + rng.uniform(-0.001, 0.001, n), 6)
    s = 2 * np.pi * 1.8 * t
    user = np.round([0.1 * np.sin(s / 2) + rng.normal(0, 0.01, n), rng.normal(0, 0.05, n),
                     0.3 * np.sin(s) + 0.08 * np.sin(2 * s + 0.6) + rng.normal(0, 0.01, n)], 6)
    rotation = np.round([0.5 * np.sin(s / 2 + 0.3) + rng.normal(0, 0.02, n), 0.3 * np.sin(s) + rng.normal(0, 0.02, n),
                         rng.normal(0, 0.02, n)], 6)
    gravity = np.round([0.1 * np.sin(0.2 * t), np.full(n, -0.98), np.full(n, 0.05)], 6)
    for name, values in (("accelerometer", user), ("gyroscope", rotation), ("gravity", gravity)):
        with open(folder / f"{name}.csv", "w") as f:
            f.write("t,x,y,z\n")
            f.writelines(f"{a:.6f},{b:.6f},{c:.6f},{d:.6f}\n" for a, b, c, d in zip(t, *values))
    xyz = lambda v, i: f'{{"x":{v[0][i]:.6f},"y":{v[1][i]:.6f},"z":{v[2][i]:.6f}}}'  # noqa: E731
    with open(folder / "deviceMotion.json", "w") as f:
        f.write("[" + ",".join(f'{{"timestamp":{t[i]:.6f},"attitude":{{"x":0,"y":0,"z":0,"w":1}},"rotationRate":{xyz(rotation, i)},'
                               f'"gravity":{xyz(gravity, i)},"userAcceleration":{xyz(user, i)},'
                               f'"magneticField":{{"x":0,"y":0,"z":0,"accuracy":-1}}}}' for i in range(n)) + "]")
    return folder


def mhealthtools_r(folder, library, timeout):
    """mhealthtools' get_walk_features run by Rscript on `folder`'s CSVs (one CPU): seconds, peak MB,
    and the check (the median over windows of the accelerometer's x, IMF 1, mean.tm); None when
    it did not finish within `timeout` seconds."""
    import csv
    import statistics
    command = ["taskset", "-c", "0", "Rscript", str(ROOT / "Tests/Peers/mhealthtools/run.R"), library, "walk", str(folder), str(folder / "r.csv")]
    try:
        seconds, peak, _, _ = wall_and_peak(["timeout", str(timeout)] + command)
    except subprocess.CalledProcessError:
        return None
    with open(folder / "r.csv") as f:
        values = [float(r["mean.tm"]) for r in csv.DictReader(f) if r["sensor"] == "accelerometer" and r["axis"] == "x" and r["IMF"] == "1"]
    return {"seconds": seconds, "peakResidentMB": peak, "check": statistics.median(values)}


def mhealthtools_ours(tool, folder):
    seconds, peak, out, _ = wall_and_peak(tool + ["score", "gait", "--json", str(folder / "deviceMotion.json")])
    return {"seconds": seconds, "peakResidentMB": peak, "check": json.loads(out)["features"]["mhealthtools"]["accelerometer.x.IMF1.mean.tm"]}


# ---------------------------------------------------------------- driver

# A command's first word when it runs on CPU 0 alone (--one-cpu): it inherits the affinity of
# the harness, pinned to CPU 0 while it starts and waits for it, so no pinning program's own start
# (taskset's, about 1 ms here) counts in a whole command's time or in the harness's floor (a
# preexec_fn would do it too, but makes Python fork its whole process instead of spawning).
PIN = "<cpu 0>"


def launch(command, prefix=(), spawn=subprocess.run, **kwargs):
    """`spawn` (subprocess.run or Popen) of `prefix` + `command`, on CPU 0 alone when `command`
    starts with PIN."""
    if not command or command[0] != PIN:
        return spawn(list(prefix) + command, **kwargs)
    everywhere = os.sched_getaffinity(0)
    os.sched_setaffinity(0, {0})
    try:
        return spawn(list(prefix) + command[1:], **kwargs)
    finally:
        os.sched_setaffinity(0, everywhere)


def child(command):
    out = launch(command, check=True, capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def wall_and_peak(command):
    """Wall time, peak resident memory (MB), standard output and standard error of a whole
    command (GNU time's line taken off the error)."""
    start = time.perf_counter()
    out = launch(command, prefix=["/usr/bin/time", "-f", "%M"], check=True, capture_output=True, text=True)
    lines = out.stderr.strip().splitlines()
    return time.perf_counter() - start, int(lines[-1]) / 1024, out.stdout, "\n".join(lines[:-1])


def wall(command):
    """Wall time, standard output and standard error of a whole command, from its spawn to its
    reaping (wait4), outputs to files read after: no timing program starts with it (GNU time
    around `activetask --version` added 3.5 ms on the Zen 3, 1.6 ms to /bin/true)."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        process = launch(command, spawn=subprocess.Popen, stdout=out, stderr=err)
        _, status, _ = os.wait4(process.pid, 0)
        seconds = time.perf_counter() - start
        process.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read().decode(), err.read().decode()
    if process.returncode != 0:
        raise subprocess.CalledProcessError(process.returncode, command, stdout, stderr)
    return seconds, stdout, stderr


def whole(command, repeats=3):
    """A whole command's median wall time over `repeats` runs (wall), its peak resident memory
    (MB) from a first run under GNU time (which also warms the page cache: a process spawned from
    this one would inherit the harness's own peak at its exec), and its last standard output and
    error."""
    _, peak, _, _ = wall_and_peak(command)
    runs = sorted((wall(command) for _ in range(repeats)), key=lambda r: r[0])
    seconds, out, err = runs[len(runs) // 2]
    return seconds, peak, out, err


def main():
    # The peers single-threaded, as the rows compare per core: numpy's BLAS, numba and OpenMP
    # otherwise take every core (librosa's MFCCs 10 % faster on two).
    for variable in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "NUMBA_NUM_THREADS"):
        os.environ.setdefault(variable, "1")
    parser = argparse.ArgumentParser()
    parser.add_argument("--only", default="")
    parser.add_argument("--work", default="/tmp/activetask-peers")
    parser.add_argument("--batch-runs", type=int, default=100)
    parser.add_argument("--rerun-runs", type=int, default=2000)
    parser.add_argument("--jobs", type=int, default=os.cpu_count())
    parser.add_argument("--peer", nargs="+")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--alternations", type=int, default=3,
                        help="each row's toolkit and peer runs alternated this many times, each side's median run kept")
    parser.add_argument("--one-cpu", action="store_true",
                        help="the toolkit pinned to CPU 0 (the affinity it inherits) against the single-threaded peers; the batch runs one job on both sides")
    parser.add_argument("--tool", help="the activetask binary to time (default: this package's release build, built first)")
    options = parser.parse_args()
    if options.peer:
        run_peer(options.peer[0], options.peer[1:], options.repeats)
        return

    bench = ROOT / "Benchmarks"
    subprocess.run(["swift", "build", "-c", "release", "--product", "peer-workloads"], cwd=bench, check=True, stdout=subprocess.DEVNULL)
    if not options.tool:
        subprocess.run(["swift", "build", "-c", "release", "--traits", "FFmpeg", "--product", "activetask"], cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
        # The command as run-samples ships it: the Swift runtime and Foundation linked in.
        subprocess.run([sys.executable, str(ROOT / "scripts/link-static.py"), ".build", ".build/release/activetask"], cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    (bench / ".build/peers").mkdir(parents=True, exist_ok=True)
    floor = bench / ".build/peers/fftw_floor"
    subprocess.run(["cc", "-O2", "-o", str(floor), str(HERE / "fftw_floor.c"), "-lfftw3", "-lfftw3f", "-lm"], check=True)
    pin = [PIN] if options.one_cpu else []
    if options.one_cpu:
        options.jobs = 1
    workloads = pin + [str(bench / ".build/release/peer-workloads")]
    tool = options.tool or str(ROOT / ".build/release/activetask")
    files = make_inputs(pathlib.Path(options.work), tool, options.batch_runs)
    tool = pin + [tool]
    only = set(filter(None, options.only.split(",")))
    me = [sys.executable, __file__]

    def peer(name, *args, repeats=3):
        return child(me + ["--repeats", str(repeats), "--peer", name, *map(str, args)])

    rows = []

    def median_run(runs):
        return sorted(runs, key=lambda r: r["seconds"])[len(runs) // 2]

    def alternated(ours, theirs):
        """Each side's run of median seconds, of `--alternations` runs of `ours()` and `theirs()` one
        after the other, so that a slow spell of the machine falls on both sides."""
        runs = [(ours(), theirs()) for _ in range(max(1, options.alternations))]
        return median_run([run[0] for run in runs]), median_run([run[1] for run in runs])

    def row(name, ours, theirs, peer_name, target, goal, note=""):
        ratio = theirs["seconds"] / ours["seconds"]
        met = "yes" if goal(ratio, ours) else "NO"
        rows.append((name, ours, theirs, peer_name, ratio, target, met, note))
        print(f"  {name}: toolkit {ours['seconds']:.4g} s, {peer_name} {theirs['seconds']:.4g} s, ratio {ratio:.2f}", file=sys.stderr)

    def wanted(key):
        return not only or key in only

    if wanted("fft"):
        for size in (256, 1024, 4096, 65536):
            for precision in ("double", "float"):
                c, s = [], []
                for _ in range(7):
                    c.append(child([str(floor), str(size), precision]))
                    s.append(child(workloads + ["fft", str(size), precision]))
                fastest = lambda runs: min(runs, key=lambda r: r["seconds"])  # noqa: E731
                ours, theirs = fastest(s), fastest(c)
                row(f"FFT r2c {size} {precision}", ours, theirs, "FFTW from C", "wrapper ≤ 1.1× C",
                    lambda r, o: 1 / r <= 1.1)
    if wanted("fft-numpy"):
        for size in (1024, 65536):
            ours = min((child(workloads + ["fft", str(size), "double"]) for _ in range(3)), key=lambda r: r["seconds"])
            row(f"FFT r2c {size} double", ours, peer("fft-numpy", size, "double"), "numpy.fft (pocketfft)", "(scale)", lambda r, o: True)
    if wanted("leq"):
        for key, label in (("hour", "1 h"), ("tenMinutes", "10 min")):
            ours, theirs = alternated(lambda: child(workloads + ["leq", files[key]]), lambda: peer("leq", files[key]))
            row(f"A-weighted Leq/s, {label} 48 kHz mono PCM16", ours, theirs, "soundfile+scipy+numpy",
                "≥ 4×, ≤ 64 MB", lambda r, o: r >= 4 and o["peakResidentMB"] <= 64)
        ours, theirs = alternated(lambda: child(workloads + ["meter", files["hour"]]), lambda: peer("leq", files["hour"]))
        row("full IEC 61672 meter (score spl), 1 h", ours, theirs, "soundfile+scipy+numpy", "(more work)",
            lambda r, o: True, "A, C, Z Leq, F/S, Lmax, percentiles vs A-weighted Leq only")
    tapping_file = SHARED / "mpower/pdkit_mpower_finger_tapping.json"

    def score_spl(path, repeats=3):
        seconds, peak, out, _ = whole(tool + ["score", "spl", "--json", "--calibration-offset-decibels", "0", path], repeats=repeats)
        return {"seconds": seconds, "peakResidentMB": peak, "check": json.loads(out)["features"]["atk"]["laeqDecibels"]}

    if wanted("spl"):
        ours, theirs = alternated(lambda: score_spl(files["tenMinutes"]), lambda: peer("meter", files["tenMinutes"]))
        row("score spl (whole command: A/C/Z Leq, LAF/LAS max, LAF L10/50/90, LAeq/s), 10 min 48 kHz", ours,
            theirs, "numpy+scipy, same measures", "≥ 4×", lambda r, o: r >= 4,
            "peer timed in its process (imports excluded)")
    if wanted("start-up"):
        # The fixed cost of a command: process start, linking, options, one small file. Beside
        # it, the floor of the same harness (Python's spawn and wait4 of /bin/true, pinned
        # the same way): what any command costs here before it does anything.
        def started(command, check):
            seconds, peak, out, _ = whole(command, repeats=21)
            return {"seconds": seconds, "peakResidentMB": peak, "check": check(out)}
        floor = started(pin + ["/bin/true"], lambda out: None)
        ten_ms = lambda r, o: o["seconds"] <= 0.010  # noqa: E731
        note = f"whole process, median of 21; the harness's floor (/bin/true through it) {1000 * floor['seconds']:.2f} ms"
        ours, theirs = alternated(lambda: score_spl(files["second"], repeats=21), lambda: peer("meter", files["second"]))
        row("start-up: score spl (whole command) on 1 s of 48 kHz", ours, theirs, "numpy+scipy, same measures (in process)",
            "≤ 10 ms", ten_ms, note)
        version = started(tool + ["--version"], lambda out: out.strip())
        row("start-up: activetask --version", version, floor, "/bin/true (the harness's floor)", "≤ 10 ms", ten_ms, note)
        if tapping_file.exists():
            tapping = started(tool + ["score", "tapping", "--json", str(tapping_file)],
                              lambda out: json.loads(out)["features"]["mhealthtools"]["meanTapInter"])
            row("start-up: score tapping (whole command), mPower file", tapping, floor, "/bin/true (the harness's floor)",
                "≤ 10 ms", ten_ms, note)
    if wanted("loudness"):
        ours, theirs = alternated(lambda: child(workloads + ["loudness", files["stereo"]]), lambda: peer("loudness", files["stereo"]))
        row("BS.1770-4 integrated, 10 min 48 kHz stereo", ours, theirs, "pyloudnorm", "≥ 15×", lambda r, o: r >= 15)
        # Whole commands: `score loudness` (I, LRA, M/S max, true peak) vs ffmpeg's ebur128 filter
        # (libebur128's algorithm in C: I, LRA; peak=true adds true peak).
        def score_loudness():
            seconds, peak, out, _ = whole(tool + ["score", "loudness", "--json", files["stereo"]])
            return {"seconds": seconds, "peakResidentMB": peak, "check": json.loads(out)["features"]["bs1770"]["integratedLufs"]}

        def ffmpeg_loudness():
            seconds, peak, _, out = whole(["ffmpeg", "-nostats", "-hide_banner", "-i", files["stereo"], "-af", "ebur128=peak=true", "-f", "null", "-"])
            integrated = [line.split()[1] for line in out.splitlines() if line.strip().startswith("I:")]
            return {"seconds": seconds, "peakResidentMB": peak, "check": float(integrated[-1]) if integrated else None}
        ours, theirs = alternated(score_loudness, ffmpeg_loudness)
        row("score loudness (whole command), 10 min 48 kHz stereo", ours, theirs, "ffmpeg -af ebur128=peak=true", "≥ 3×", lambda r, o: r >= 3)
    voices = sorted(str(p) for p in (SHARED / "voice").glob("*.wav"))
    if wanted("voice") and voices:
        ours, theirs = alternated(lambda: child(workloads + ["voice", *voices]), lambda: peer("voice", *voices, repeats=5))
        row(f"F0, pulses, jitter, shimmer, HNR: {len(voices)} real vowels", ours, theirs, "parselmouth (Praat)",
            "≥ 4×", lambda r, o: r >= 4)
    # Whole `score voice` (the default sets) per file against Praat, librosa and openSMILE computing the
    # same measures in one Python process (voice_everything.py, in the peers venv of
    # scripts/setup.sh: librosa 1.0 needs Python 3.12; on 3.11 it takes 0.11.0), on two cores and pinned to one.
    everything = ROOT / ".build/peers-venv/bin/python"
    generated = sorted(str(p) for p in pathlib.Path(files["corpus"]).glob("run-0000[0-3]/voice/*.wav"))  # 4 10-s 44.1-kHz vowels
    if wanted("voice-all") and everything.exists():
        for label, paths in ((f"{len(voices)} real vowels", voices), (f"{len(generated)} 10-s 44.1-kHz vowels", generated)):
            if not paths:
                continue
            def ours(prefix):
                runs = [whole(prefix + tool + ["score", "voice", "--json", path]) for path in paths]
                return {"seconds": sum(r[0] for r in runs), "peakResidentMB": max(r[1] for r in runs),
                        "check": sum(json.loads(r[2])["features"]["cepstral"]["cppsDb"] for r in runs)}
            one = ours([PIN])
            theirs = child([str(everything), str(HERE / "voice_everything.py"), "--repeats", "3", *paths])
            row(f"score voice, the default sets, whole command per file: {label}", ours([]), theirs,
                "parselmouth + librosa + openSMILE (same measures)", "≥ 4×", lambda r, o: r >= 4,
                f"one CPU {one['seconds']:.3g} s, {theirs['seconds'] / one['seconds']:.2f}×; peer timed in its process (imports excluded)")
    # Issue 36's two rows, in process on both sides: the toolkit's voice analysis with the Praat
    # sets (F0, pulses, perturbation, HNR, formants, cepstrogram and CPPS) against parselmouth
    # computing them, and with the MFCC and eGeMAPSv02 sets (the Praat F0 and levels always run)
    # against librosa and openSMILE (voice_everything.py's parts, from the same run).
    if wanted("voice-split") and everything.exists():
        for label, paths in ((f"{len(voices)} real vowels", voices), (f"{len(generated)} 10-s 44.1-kHz vowels", generated)):
            if not paths:
                continue
            def parts():
                result = child([str(everything), str(HERE / "voice_everything.py"), "--repeats", "3", *paths])["parts"]
                return {"praat": {"seconds": result["praat"]}, "others": {"seconds": result["librosa"] + result["opensmile"]}}

            def sets():
                return {"praat": child(workloads + ["voice-sets", "harmonicity,formants,cepstral", *paths]),
                        "others": child(workloads + ["voice-sets", "mfcc,egemapsv02", *paths])}
            runs = [(sets(), parts()) for _ in range(max(1, options.alternations))]

            def median(side, part):
                return median_run([run[side][part] for run in runs])
            row(f"voice, Praat's measures with formants and CPPS: {label}", median(0, "praat"), median(1, "praat"),
                "parselmouth (same measures)", "≥ 4×", lambda r, o: r >= 4, "in process on both sides")
            row(f"voice, MFCCs with Δ, ΔΔ and eGeMAPSv02: {label}", median(0, "others"), median(1, "others"),
                "librosa + openSMILE", "≥ 4×", lambda r, o: r >= 4, "in process; the toolkit's includes the Praat F0 and levels every voice analysis runs")
    # The eGeMAPSv02 functionals as a study computes them, one process per file on both sides:
    # `score voice --sets egemapsv02` (the toolkit's reconstruction, Sources/Analysis/Voice/EGeMAPSv02)
    # against the opensmile package's process_file (opensmile_file.py, imports included).
    if wanted("egemapsv02") and everything.exists():
        for label, paths in ((f"{len(voices)} real vowels", voices), (f"{len(generated)} 10-s 44.1-kHz vowels", generated)):
            if not paths:
                continue
            def ours_egemaps():
                runs = [whole(tool + ["score", "voice", "--sets", "egemapsv02", "--json", path]) for path in paths]
                return {"seconds": sum(r[0] for r in runs), "peakResidentMB": max(r[1] for r in runs),
                        "check": sum(json.loads(r[2])["features"]["egemapsv02"]["loudness_sma3_amean"] for r in runs)}

            def opensmile_files():
                runs = [whole([str(everything), str(HERE / "opensmile_file.py"), path]) for path in paths]
                return {"seconds": sum(r[0] for r in runs), "peakResidentMB": max(r[1] for r in runs), "check": sum(float(r[2]) for r in runs)}
            ours, theirs = alternated(ours_egemaps, opensmile_files)
            row(f"eGeMAPSv02 functionals, whole command per file: {label}", ours, theirs, "openSMILE 2.6.0 (opensmile process_file)",
                "≥ 4×", lambda r, o: r >= 4, "check: loudness_sma3_amean summed over the files")
    # MFCC 0–19 with Δ and ΔΔ and their statistics, in process on both sides (decoding included).
    if wanted("mfcc") and everything.exists():
        for label, paths in ((f"{len(voices)} real vowels", voices), (f"{len(generated)} 10-s 44.1-kHz vowels", generated)):
            if paths:
                def librosa_part():
                    result = child([str(everything), str(HERE / "voice_everything.py"), "--only", "librosa", "--repeats", "5", *paths])
                    return {"seconds": result["parts"]["librosa"], "check": result["check"]}
                ours, theirs = alternated(lambda: child(workloads + ["mfcc", *paths]), librosa_part)
                row(f"MFCCs with Δ and ΔΔ: {label}", ours, theirs, "librosa (same measures)", "≥ 4×", lambda r, o: r >= 4, "in process on both sides")
    tapping = SHARED / "mpower/pdkit_mpower_finger_tapping.json"
    if wanted("tapping") and tapping.exists():
        ours, theirs = alternated(lambda: child(workloads + ["tapping-features", str(tapping)]), lambda: peer("tapping-features", tapping, repeats=201))
        row("tapping features (mhealthtools set + atk extras vs the 42 mhealthtools), mPower file", ours,
            theirs, "numpy", "≥ 25×", lambda r, o: r >= 25)
        ours, theirs = alternated(lambda: child(workloads + ["tapping", str(tapping)]), lambda: peer("tapping", tapping, repeats=201))
        row("tapping: read the file + features", ours, theirs, "json + numpy", "(with parsing)", lambda r, o: True)
    if wanted("gait"):
        ours, theirs = alternated(lambda: child(workloads + ["gait", files["gait"]]), lambda: peer("gait", files["gait"]))
        row("gait, 1 h of 100 Hz accelerometer", ours, theirs, "pdkit 1.4", "≥ 10×", lambda r, o: r >= 10)
    if wanted("mhealthtools"):
        library = str(ROOT / ".build/mhealthtools-r-library")
        subprocess.run(["bash", str(ROOT / "Tests/Peers/mhealthtools/install.sh"), library], check=True)
        folder = pathlib.Path(files["mhealthtools30"])
        ours, theirs = alternated(lambda: mhealthtools_ours(tool, folder), lambda: mhealthtools_r(folder, library, 3600))
        row("mhealthtools walk features, 30-s device-motion walk (score gait: also the atk set)", ours, theirs,
            "mhealthtools in R", "≥ 10×", lambda r, o: r >= 10)
        folder = pathlib.Path(files["mhealthtools3600"])
        ours = mhealthtools_ours(tool, folder)
        limit = 600  # R on 1 h would take hours (its EMD grows faster than linearly)
        theirs = mhealthtools_r(folder, library, limit)
        note = ""
        if theirs is None:
            theirs, note = {"seconds": float(limit), "check": None}, f"R stopped after {limit} s unfinished: its time and the ratio are lower bounds"
        row("mhealthtools walk features, 1 h of 100-Hz device motion", ours, theirs, "mhealthtools in R", "≥ 10×", lambda r, o: r >= 10, note)
    walk = SHARED / "mpower/pdkit_mpower_gait.json"
    if wanted("json") and walk.exists():
        ours, theirs = alternated(lambda: child(workloads + ["json", str(walk)]), lambda: peer("json", walk, repeats=501))
        row("JSON accelerometer items → columns (mPower walk)", ours, theirs, "orjson+numpy", "≥ 2×", lambda r, o: r >= 2)
    if wanted("batch"):
        import tempfile
        with tempfile.TemporaryDirectory() as scratch:
            # The same analyses on both sides: the pipeline has no mhealthtools walk features
            # (pdkit's gait only), so the toolkit's batch leaves them out too (docs/batch.md).
            config = pathlib.Path(scratch) / "same-analyses.toml"
            config.write_text("[gait]\nmhealthtools = false\n")
            seconds, peak, out, _ = wall_and_peak(tool + ["batch", files["corpus"], "--db", f"{scratch}/atk.sqlite", "--config", str(config),
                                                          "--jobs", str(options.jobs), "--json"])
            ours = {"seconds": seconds, "peakResidentMB": peak, "check": float(json.loads(out)["computed"])}
            # What the batch adds to its analyses: its wall time against the sum of the stored
            # rows' analysis times (each row's `duration_ms`, the scorer's time on the file).
            with sqlite3.connect(f"{scratch}/atk.sqlite") as store:
                analyses, stored = store.execute("SELECT SUM(duration_ms) / 1000.0, COUNT(*) FROM results").fetchone()
                scored = store.execute("SELECT analyzer, recording FROM results ORDER BY recording, analyzer").fetchall()
            # The issue's own measure of the batch's cost: each stored row again as a `score`
            # command of its own (the same analyzer, recording and configuration), whole
            # processes spawned and reaped one after another, less the harness's floor (the same
            # number of /bin/true spawned the same way).
            def spawned(commands):
                start = time.perf_counter()
                statuses = [launch(command, spawn=subprocess.Popen, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).wait() for command in commands]
                return time.perf_counter() - start, statuses
            scores, statuses = spawned([tool + ["score", analyzer, recording, "--config", str(config), "--json"] for analyzer, recording in scored])
            floor, _ = spawned([[PIN, "/bin/true"] if tool[0] == PIN else ["/bin/true"] for _ in scored])
            usable = sum(1 for status in statuses if status in (0, 1))
            theirs = peer("batch", files["corpus"], f"{scratch}/py.sqlite", options.jobs)
        row(f"batch, generated corpus of {options.batch_runs} task runs", ours, theirs, "Python pipeline (same analyses)", "≥ 10×", lambda r, o: r >= 10)
        if options.jobs == 1 or options.one_cpu:
            row(f"batch over its analyses, the same run (wall time against the sum of its {stored} rows' analysis times)", ours,
                {"seconds": analyses, "check": float(stored)}, "sum of the analyses", "≤ 5 % over (≥ 0.952×)", lambda r, o: r >= 1 / 1.05,
                f"{100 * (seconds / analyses - 1):.1f} % over")
            row(f"batch over its files' `score` times, the same run (wall time against {len(scored)} `score` commands, one per row, less {floor:.3g} s of /bin/true)", ours,
                {"seconds": scores - floor, "check": float(usable)}, "sum of the scores", "≤ 5 % over (≥ 0.952×)", lambda r, o: r >= 1 / 1.05,
                f"{100 * (seconds / (scores - floor) - 1):.1f} % over")
    if wanted("rerun"):
        out = subprocess.run(["bash", str(ROOT / "Benchmarks/rerun-vs-sha256sum.sh"), str(options.rerun_runs),
                              str(pathlib.Path(options.work) / f"corpus-{options.rerun_runs}")],
                             check=True, capture_output=True, text=True).stdout
        result = json.loads(out.strip().splitlines()[-1])
        row(f"rerun of a fully stored batch ({options.rerun_runs} runs, {result['files']} files, {result['megabytes']} MB)",
            {"seconds": result["rerunSeconds"], "check": result["rerunComputed"]},
            {"seconds": result["sha256sumSeconds"], "check": result["files"]}, "sha256sum of the same files", "≥ 10×",
            lambda r, o: r >= 10, "median of 3 alternations, warm cache")

    print()
    print(f"CPU: {cpu_model()}, {os.cpu_count()} logical CPUs; the toolkit "
          + ("pinned to CPU 0 (the affinity it inherits), the batch one job on both sides" if options.one_cpu else f"on every CPU, the batch {options.jobs} jobs on both sides"))
    print()
    print(f"| workload | toolkit s | peer | peer s | speed ratio | target | met | toolkit MB | peer MB | check toolkit / peer |")
    print("|---|---:|---|---:|---:|---|---|---:|---:|---|")
    for name, ours, theirs, peer_name, ratio, target, met, note in rows:
        def mb(r):
            return "–" if r.get("peakResidentMB") is None else f"{r['peakResidentMB']:.0f}"

        def fmt(v):
            return "–" if v is None else f"{v:.6g}" if isinstance(v, float) else str(v)
        print(f"| {name} | {ours['seconds']:.4g} | {peer_name} | {theirs['seconds']:.4g} | {ratio:.2f}× | {target} | {met} | "
              f"{mb(ours)} | {mb(theirs)} | {fmt(ours.get('check'))} / {fmt(theirs.get('check'))}{' — ' + note if note else ''} |")


def cpu_model():
    """The processor's model name (/proc/cpuinfo), and whether it has AVX-512 and AVX2."""
    try:
        with open("/proc/cpuinfo") as info:
            lines = info.read().splitlines()
    except OSError:
        return "unknown"
    name = next((line.split(":", 1)[1].strip() for line in lines if line.startswith("model name")), "unknown")
    flags = next((line.split(":", 1)[1].split() for line in lines if line.startswith("flags")), [])
    extensions = [label for flag, label in (("avx512f", "AVX-512"), ("avx2", "AVX2")) if flag in flags]
    return name + (f" ({', '.join(extensions)})" if extensions else "")


if __name__ == "__main__":
    main()
