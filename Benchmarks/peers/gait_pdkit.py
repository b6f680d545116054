"""pdkit's GaitProcessor next to `activetask evaluate oxford` on the Oxford Step Counter walks
(docs/analyses.md §2.10; Oxford Step Counter dataset, CC BY 4.0).

pdkit 1.4's documented use: heel strikes of the acceleration magnitude at 100 Hz
(`GaitProcessor.heel_strikes(mag_sum_acc)`). Each walk is resampled linearly to 100 Hz first
(pdkit assumes a uniform rate; the Oxford phones log 100-400 Hz irregularly). pdkit's cadence
needs a duration, so a window's pdkit cadence is 60·(n − 1)/(t_n − t_1) over its heel strikes,
the same definition as the ground truth. pdkit calls `np.int`, removed in numpy 1.24: it is
aliased to `int` here.

    python3 -m venv /tmp/pdkit-venv && /tmp/pdkit-venv/bin/pip install pdkit tsfresh future matplotlib \
        soundfile praat-parselmouth pandas_validator "scipy==1.13.1" "numpy<2" "pandas<2.2"
    /tmp/pdkit-venv/bin/python Benchmarks/peers/gait_pdkit.py ../shared/data/gait-oxford .build/release/activetask
"""
import json
import os
import subprocess
import sys
import warnings

import numpy as np
import pandas as pd

np.int = int  # pdkit 1.4 uses the removed alias
warnings.filterwarnings("ignore")
import pdkit  # noqa: E402


def ground_truth(path):
    d = np.loadtxt(path, delimiter=",", ndmin=2)
    t = d[:, 0] * 1e-9
    steps = []
    for foot in (1, 2):
        c = d[:, foot]
        steps += list(t[1:][(c[:-1] == 0) & (c[1:] == 1)])
    return np.sort(np.array(steps)), t[-1] - t[0]


def pdkit_strikes(t, magnitude):
    """Heel-strike times (s, absolute) or an empty array when pdkit fails."""
    if len(t) < 300:
        return np.array([])
    try:
        strikes, idx = pdkit.GaitProcessor(sampling_frequency=100.0).heel_strikes(pd.Series(magnitude.copy()))
        return t[0] + np.asarray(idx) / 100.0
    except Exception:
        return np.array([])


def main(folder, tool):
    ours = json.loads(subprocess.run([tool, "evaluate", "oxford", "--json", folder], capture_output=True, text=True).stdout)
    ours_by_walk = {w["walk"]: w for w in ours["walks"]}
    rows = []
    for walk in sorted(os.listdir(os.path.join(folder, "data"))):
        base = os.path.join(folder, "data", walk)
        if not os.path.exists(os.path.join(base, "accelerometer.csv")):
            continue
        truth, span = ground_truth(os.path.join(base, "stepcounter.csv"))
        if len(truth) < 0.2 * span:
            continue  # unusable ground truth (_Patient_3), as in evaluate oxford
        a = np.loadtxt(os.path.join(base, "accelerometer.csv"), delimiter=",")
        t0 = a[:, 0] * 1e-9
        order = np.argsort(t0, kind="stable")
        t0, xyz = t0[order], a[order, 2:5] / 9.80665
        t = np.arange(t0[0], t0[-1], 0.01)
        magnitude = np.linalg.norm(np.column_stack([np.interp(t, t0, xyz[:, k]) for k in range(3)]), axis=1)
        strikes = pdkit_strikes(t, magnitude)
        windows = []
        start = truth[0]
        while start + 20 <= truth[-1]:
            inside = truth[(truth >= start) & (truth < start + 20)]
            if len(inside) >= 10:
                gt = 60 * (len(inside) - 1) / (inside[-1] - inside[0])
                sel = (t >= start) & (t < start + 20)
                s = pdkit_strikes(t[sel], magnitude[sel])
                est = 60 * (len(s) - 1) / (s[-1] - s[0]) if len(s) >= 2 and s[-1] > s[0] else np.nan
                windows.append((gt, est))
            start += 10
        position = walk.split("_")[3].lower() if walk.count("_") >= 3 else "?"
        rows.append(dict(walk=walk, position=position, truth=len(truth), pdkit=len(strikes),
                         ours=ours_by_walk[walk]["detectedSteps"], pdkit_windows=windows,
                         ours_windows=[tuple(w) for w in ours_by_walk[walk]["cadenceWindows"]]))

    def summary(group):
        def count_error(key):
            return np.mean([abs(100 * (r[key] - r["truth"]) / r["truth"]) for r in group])

        def cadence_error(key):
            errors = [abs(est - gt) for r in group for gt, est in r[key]]
            missing = sum(np.isnan(e) for e in errors)
            finite = [e for e in errors if not np.isnan(e)]
            return (np.median(finite) if finite else np.nan), missing, len(errors)

        return count_error("ours"), count_error("pdkit"), cadence_error("ours_windows"), cadence_error("pdkit_windows")

    print(f"{'group':14s} {'walks':>5s}  {'count mean|e|% ours':>20s} {'pdkit':>8s}   {'cadence median|e| ours':>23s} {'pdkit':>8s} {'pdkit no estimate':>18s}")
    groups = [("all", rows)] + [(p, [r for r in rows if r["position"] == p]) for p in sorted({r["position"] for r in rows})]
    for name, group in groups:
        c_ours, c_pdkit, (m_ours, _, n), (m_pdkit, miss, _) = summary(group)
        print(f"{name:14s} {len(group):5d}  {c_ours:20.2f} {c_pdkit:8.2f}   {m_ours:23.2f} {m_pdkit:8.2f} {miss:12d} of {n}")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
