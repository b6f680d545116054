"""An independent numpy transcription of the mhealthtools 0.2.1 tapping features (docs/analyses.md §1.2-1.4),
used two ways:

1. cross-check: `python3 Benchmarks/peers/tapping_numpy.py --check FILE...` (or `--random N` for N random
   uploads with backward timestamps, duplicated None taps and short records) runs the release build's
   `activetask score tapping --json` on each file and compares all 42 features (relative 1e-9);
2. peer timing: `--time FILE` prints the p50 time of this implementation (issue 8's tapping ratio).

Reads AppCore `TappingSamples` (bare array, `tapping_results.json`, or a flattened archive entry).
"""
import json
import math
import subprocess
import sys
import time

import numpy as np


def samples_of(obj):
    if isinstance(obj, list) and obj and "TapTimeStamp" in obj[0]:
        return obj
    if isinstance(obj, dict):
        if "TappingSamples" in obj:
            return obj["TappingSamples"]
        for value in obj.values():
            found = samples_of(value)
            if found:
                return found
    return None


def rows(path):
    samples = samples_of(json.load(open(path)))
    t = np.array([s["TapTimeStamp"] for s in samples], float)
    xy = np.array([[float(v) for v in s["TapCoordinate"].strip("{}").split(",")] for s in samples])
    button = np.array([s["TappedButtonId"] for s in samples])
    return t, xy[:, 0], xy[:, 1], button


def stats11(v):
    n = len(v)
    if n == 0:
        return dict(mean=np.nan, median=np.nan, iqr=np.nan, min=np.inf, max=-np.inf, skew=np.nan, kur=np.nan,
                    sd=np.nan, mad=np.nan, cv=np.nan, range=-np.inf)
    mean = v.mean()
    d = v - mean
    m2, m3, m4 = (d ** 2).mean(), (d ** 3).mean(), (d ** 4).mean()
    sd = v.std(ddof=1) if n > 1 else np.nan
    with np.errstate(all="ignore"):
        skew = m3 / m2 ** 1.5 * ((n - 1) / n) ** 1.5 if n > 1 else np.nan
        kur = m4 / m2 ** 2 * ((n - 1) / n) ** 2 - 3 if n > 1 else np.nan
        cv = 100 * sd / mean
    q25, q75 = np.quantile(v, [0.25, 0.75])  # numpy 'linear' = R type 7
    median = np.median(v)
    return dict(mean=mean, median=median, iqr=q75 - q25, min=v.min(), max=v.max(), skew=skew, kur=kur, sd=sd,
                mad=1.4826 * np.median(np.abs(v - median)), cv=cv, range=v.max() - v.min())


def fatigue(d, k):
    n = len(d)
    head = d[:1] if k == 0 else d[:k]
    tail = d[n - 1 - k:]
    return head.mean() - tail.mean()


def acf(v, lag):
    d = v - v.mean()
    return (d[:-lag] * d[lag:]).sum() / (d * d).sum()


def features(t, x, y, button, threshold=20.0):
    if len(t) < 5:
        return {"error": "tapping data has less than 5 rows"}
    a = np.flatnonzero(button != "TappedButtonNone")
    b = []
    for i in np.flatnonzero(button == "TappedButtonNone"):
        if not any(x[j] == x[i] and y[j] == y[i] for j in b):
            b.append(i)
    order = np.concatenate([a, np.array(b, int)])
    order = order[np.argsort(t[order], kind="stable")]
    if len(order) < 5:
        return {"error": "sensor data has less than 5 unique rows"}
    keep = [0] + [k for k in range(1, len(order)) if abs(x[order[k]] - x[order[k - 1]]) > threshold]
    kept = order[keep]
    if len(kept) < 5:
        return {"error": "post cleaning less than 5 tap points remain"}
    d = np.diff(t[kept])
    n = len(d)
    out = {k + "TapInter": v for k, v in stats11(d).items()}
    out["tkeoTapInter"] = (d[1:-1] ** 2 - d[:-2] * d[2:]).mean()
    out["ar1TapInter"], out["ar2TapInter"] = acf(d, 1), acf(d, 2)
    k10, k25 = int(np.round(0.1 * n)), int(np.round(0.25 * n))  # numpy rounds half to even, as R
    out["fatigue10TapInter"], out["fatigue25TapInter"] = fatigue(d, k10), fatigue(d, k25)
    out["fatigue50TapInter"] = fatigue(d, n // 2)
    xk, yk = x[kept], y[kept]
    mean_x = xk.mean()
    for side, mask in (("DriftLeft", xk < mean_x), ("DriftRight", xk >= mean_x)):
        sx, sy = xk[mask], yk[mask]
        drift = np.hypot(np.diff(sx), np.diff(sy))
        out.update({k + side: v for k, v in stats11(drift).items()})
    out["numberTaps"] = len(kept)
    out["buttonNoneFreq"] = (button[kept] == "TappedButtonNone").sum() / len(kept)
    out["corXY"] = np.corrcoef(xk, yk)[0, 1]
    out["error"] = "None"
    return out


def random_files(count, folder):
    """Random uploads with the anomalies of real ones: backward timestamps, duplicated None taps,
    taps that barely move, few taps."""
    import os
    rng = np.random.default_rng(2016)
    paths = []
    for k in range(count):
        n = int(rng.integers(3, 260))
        t = np.cumsum(rng.gamma(2.0, 0.06, n))
        t -= t[0]
        swap = rng.random(n) < 0.03
        for i in np.flatnonzero(swap[1:]):
            t[i], t[i + 1] = t[i + 1], t[i]
        samples = []
        for i in range(n):
            kind = rng.choice(["TappedButtonLeft", "TappedButtonRight", "TappedButtonNone"], p=[0.46, 0.46, 0.08])
            cx = {"TappedButtonLeft": 96, "TappedButtonRight": 224, "TappedButtonNone": 160}[kind]
            x, y = round(cx + rng.normal(0, 15) * 2) / 2, round(416 + rng.normal(0, 15) * 2) / 2
            samples.append({"TapTimeStamp": float(t[i]), "TapCoordinate": f"{{{x:g}, {y:g}}}", "TappedButtonId": kind})
            if kind == "TappedButtonNone" and rng.random() < 0.5:
                samples.append(dict(samples[-1]))
        path = os.path.join(folder, f"random_{k}.json")
        json.dump(samples, open(path, "w"))
        paths.append(path)
    return paths


def check(paths, tool=".build/release/activetask"):
    worst = 0.0
    for path in paths:
        ours = json.loads(subprocess.run([tool, "score", "tapping", "--json", path], capture_output=True, text=True).stdout)
        mine = ours["features"]["mhealthtools"]
        ref = features(*rows(path))
        if "error" in ref and ref["error"] != "None":
            assert mine == {"error": ref["error"]}, (path, mine)
            continue
        for name, value in ref.items():
            if name == "error":
                assert mine[name] == value, (path, name)
                continue
            a = float(mine[name]) if not isinstance(mine[name], str) else float(mine[name].replace("Infinity", "inf"))
            b = float(value)
            if math.isnan(b):
                assert math.isnan(a), (path, name, a)
                continue
            # Relative 1e-9, with an absolute floor of 1e-12 for values that are zero up to rounding
            # (e.g. the skewness of a symmetric sample: 0.0 here, -2.8e-17 in numpy).
            rel = abs(a - b) / max(abs(b), 1e-300) if abs(a - b) > 1e-12 else 0.0
            worst = max(worst, rel)
            assert rel <= 1e-9, (path, name, a, b, rel)
    print(f"{len(paths)} files: all features agree, worst relative difference {worst:.2e}")


def timing(path):
    data = rows(path)
    for _ in range(20):
        features(*data)
    ts = []
    for _ in range(200):
        s = time.perf_counter()
        features(*data)
        ts.append(time.perf_counter() - s)
    ts.sort()
    print(f"numpy mhealthtools features, {len(data[0])} taps: p50 {ts[len(ts) // 2] * 1e6:.0f} us")


if __name__ == "__main__":
    if sys.argv[1] == "--check":
        check(sys.argv[2:])
    elif sys.argv[1] == "--random":
        import tempfile
        with tempfile.TemporaryDirectory() as folder:
            check(random_files(int(sys.argv[2]), folder))
    elif sys.argv[1] == "--time":
        timing(sys.argv[2])
