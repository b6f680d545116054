#!/usr/bin/env python3
"""Hostile inputs at full size against a built `activetask` (docs/reliability.md, "Hostile input").

Usage: scripts/hostile-inputs.py [ACTIVETASK]     default: .build/release/activetask

Writes each input to a temporary folder, runs the CLI on it with ATK_REPORT_PEAK_MEMORY=1 (the
process's own VmHWM at exit) and prints one Markdown row per input: exit status, seconds, peak
resident memory, and the first line of the error or the result. Exits 1 if any run crashed
(killed by a signal) or printed no clear error for a refused input.
"""

import json
import math
import os
import struct
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SAMPLE = os.path.join(ROOT, "SampleData")


def wav(frames_claimed, present):
    fmt = struct.pack("<HHIIHH", 1, 1, 8000, 8000, 1, 8)
    data_size = frames_claimed
    header = b"RIFF" + struct.pack("<I", min(36 + data_size, 0xFFFFFFFF)) + b"WAVEfmt " + struct.pack("<I", 16) + fmt
    return header + b"data" + struct.pack("<I", data_size) + bytes([128]) * present


def wav_list_wrap():
    """A finished 8-bit WAV followed by a LIST whose sub-chunk size (0xFFFFFFF3) wraps libsndfile's
    32-bit count: sf_open never returned on it (found by the wav fuzz target)."""
    audio = wav(1000, 1000)
    return audio + b"LIST" + struct.pack("<I", 28) + b"adtl" + bytes([0x6C, 0x61, 0x62, 0x96]) + struct.pack("<I", 0xFFFFFFF3) + bytes(16)


def items(count):
    parts = ('{"timestamp":%r,"x":0.01,"y":-0.98,"z":0.12}' % (i / 100) for i in range(count))
    return ("[" + ",".join(parts) + "]").encode()


def device_motion(seconds, rate):
    """A still phone's device-motion items with a 5-Hz tremor, `seconds` at `rate` Hz (mhealthtools' EMD and windows at scale)."""
    parts = []
    for i in range(int(seconds * rate)):
        t = i / rate
        w = math.sin(2 * math.pi * 5 * t)
        parts.append('{"timestamp":%.5f,"attitude":{"x":0,"y":0,"z":0,"w":1},"rotationRate":{"x":%.5f,"y":0.01,"z":0},'
                     '"gravity":{"x":0,"y":0,"z":-1},"userAcceleration":{"x":%.5f,"y":0,"z":0.001}}' % (t, 0.3 * w, 0.02 * w))
    return ("[" + ",".join(parts) + "]").encode()


def camera(seconds, rate):
    """Camera frames as mPower 2's heart snapshot writes them, a 72-beats/min pulse, `seconds` at `rate` frames/s."""
    parts = []
    for i in range(int(seconds * rate)):
        t = i / rate
        beat = math.exp(-((((t * 1.2) % 1) - 0.25) / 0.08) ** 2)
        parts.append('{"timestamp":%.5f,"red":%.6f,"green":%.6f,"blue":%.6f}' % (t, 0.9 - 0.01 * beat, 0.2 - 0.02 * beat, 0.1 - 0.015 * beat))
    return ("[" + ",".join(parts) + "]").encode()


def main():
    cli = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, ".build/release/activetask")
    tapping = open(os.path.join(SAMPLE, "tapping_results.json"), encoding="utf-8").read()
    walk = open(os.path.join(SAMPLE, "accel_3E30633D_C450_3876_E864_A840A6B36F9D-20260101120010.json"), encoding="utf-8").read()
    accel = json.loads(walk)
    cases = [
        # (name, file name, bytes, command, refused?)
        ("WAV header claiming 2^31 frames (1,000 present)", "claims.wav", wav(1 << 31, 1000), ["info", "FILE"], False),
        ("WAV data size 0xFFFFFFFF (streaming convention, 1,000 present)", "stream.wav", wav(0xFFFFFFFF, 1000), ["info", "FILE"], False),
        ("WAV LIST sub-chunk whose size wraps libsndfile's 32-bit count", "list-wrap.wav", wav_list_wrap(), ["score", "spl", "FILE"], True),
        ("10^7-item accelerometer array", "accel_big.json", items(10_000_000), ["info", "FILE"], False),
        ("10^5-deep arrays", "deep.json", b"[" * 100_000 + b"1" + b"]" * 100_000, ["info", "FILE"], True),
        ("10^5-deep objects", "deep-objects.json", b'{"a":' * 100_000 + b"1" + b"}" * 100_000, ["info", "FILE"], True),
        ("NaN in an item", "nan.json", walk.replace('"x":0.00347,', '"x":NaN,', 1).encode(), ["info", "FILE"], True),
        ("Infinity in an item", "inf.json", walk.replace('"x":0.00347,', '"x":Infinity,', 1).encode(), ["info", "FILE"], True),
        ("400-digit number and 1e400 in a walk", "huge-numbers.json",
         walk.replace('"x":0.00347,', '"x":1' + "0" * 400 + ",", 1).replace('"z":-0.88652}', '"z":-1e400}', 1).encode(), ["score", "gait", "FILE"], False),
        ("1e400 as a tap time", "tap-inf.json", tapping.replace('"TapTimeStamp": 0.195984', '"TapTimeStamp": 1e400').encode(), ["score", "tapping", "FILE"], True),
        ("non-UTF-8 byte in a string", "latin1.json", tapping.replace("TappedButtonRight", "TappedButton\udce9", 1).encode("utf-8", "surrogateescape"), ["info", "FILE"], True),
        ("10^7-digit TapCoordinate", "huge-coordinate.json",
         tapping.replace('"{237.9, 423.5}"', '"{' + "7" * 10_000_000 + ', 423.5}"').encode(), ["score", "tapping", "FILE"], True),
        ("1 h of 200-Hz device motion (mhealthtools' walk features: EMD, 5,624 windows per IMF)", "deviceMotion_1h.json",
         device_motion(3600, 200), ["score", "gait", "FILE"], False),
        ("1 h of 60-frame/s camera frames (mhealthtools' heart rate: 719 windows per channel)", "heartRate_1h.json",
         camera(3600, 60), ["score", "heartRate", "FILE"], False),
        ("camera frames 1e-20 s apart (the window mhealthtools would make: 10^22 frames)", "heartRate_dense.json",
         ("[" + ",".join('{"timestamp":%r,"red":0.9,"green":0.2,"blue":0.1}' % (i * 1e-20) for i in range(2000)) + "]").encode(),
         ["score", "heartRate", "FILE"], False),
        ("flattened archive with a ../ entry", "archive.json",
         json.dumps({"info.json": {"taskRun": "x", "item": "tapping", "files": []}, "tapping_results.json": json.loads(tapping),
                     "../escape.json": accel}).encode(), ["unpack", "FILE", "--out", "OUT"], True),
    ]
    failed = False
    print("| input | size | command | exit | s | peak MB | result |")
    print("|---|---:|---|---:|---:|---:|---|")
    with tempfile.TemporaryDirectory() as folder:
        for name, file_name, data, command, refused in cases:
            path = os.path.join(folder, file_name)
            with open(path, "wb") as f:
                f.write(data)
            arguments = [{"FILE": path, "OUT": os.path.join(folder, "out")}.get(a, a) for a in command]
            start = time.perf_counter()
            try:
                run = subprocess.run([cli] + arguments, capture_output=True, env=dict(os.environ, ATK_REPORT_PEAK_MEMORY="1"), timeout=120)
            except subprocess.TimeoutExpired as hang:  # a hang is a failure, reported like a crash
                run = subprocess.CompletedProcess(hang.cmd, -9, b"", b"timed out after 120 s")
            seconds = time.perf_counter() - start
            lines = run.stderr.decode("utf-8", "replace").splitlines()
            peak = lines.pop().split()[-2] if lines and lines[-1].endswith(" MB") else "?"
            if lines:
                message = lines[0].replace(folder + "/", "")
            else:  # a result: the lines that say what was read
                shown = [line.strip() for line in run.stdout.decode("utf-8", "replace").splitlines()
                         if any(key in line for key in ("kind", "samples", "stepCount ", "infiniteValues", "frames", "IMF1.mean.tm", "heartRateBeatsPerMinute", "error "))]
                message = " / ".join(shown[:4])
            crashed = run.returncode < 0 or run.returncode > 3
            unclear = refused and (run.returncode != 3 or file_name not in message)
            escaped = os.path.exists(os.path.join(folder, "escape.json")) or os.path.exists(os.path.join(os.path.dirname(folder), "escape.json"))
            failed = failed or crashed or unclear or escaped
            size = f"{len(data) / 1e6:,.1f} MB" if len(data) >= 1e6 else f"{len(data):,} B"
            print(f"| {name} | {size} | {' '.join(command[:-1] if command[-1] == 'FILE' else command[:1])} | {run.returncode} | {seconds:.2f} | {peak} | {message[:220].replace('|', '/')} |")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
