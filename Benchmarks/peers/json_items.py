"""Peer timing for JSON accelerometer items -> columns (issue: foundation, benchmark of the fast path).

Reads the same file as SensorDataBenchmarks (../shared/data/mpower/pdkit_mpower_gait.json) with
orjson + numpy, orjson alone and the standard json module, and prints p50 times and MB/s.
Compare with `cd Benchmarks && swift package benchmark --filter "JSON items.*"` run in the same
session on the same machine.

    pip install orjson numpy && python3 Benchmarks/peers/json_items.py
"""
import json
import pathlib
import sys
import time

import numpy as np
import orjson

path = pathlib.Path(__file__).resolve().parents[3] / "shared/data/mpower/pdkit_mpower_gait.json"
if not path.exists():
    sys.exit(f"{path} is absent: the real mPower walk is needed")
data = path.read_bytes()


def orjson_numpy():
    items = orjson.loads(data)
    return [np.fromiter((item[key] for item in items), float, len(items)) for key in ("timestamp", "x", "y", "z")]


def p50(function, runs=500):
    for _ in range(50):
        function()
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    times.sort()
    return times[len(times) // 2]


for name, function in [("orjson+numpy -> columns", orjson_numpy), ("orjson.loads only", lambda: orjson.loads(data)),
                       ("json.loads only", lambda: json.loads(data))]:
    t = p50(function)
    print(f"{name:28s} p50 {t * 1e6:8.0f} us  {len(data) / t / 1e6:6.0f} MB/s  ({len(data)} bytes)")
