#!/usr/bin/env python3
"""Peak memory of every command that reads a recording, on 2 GB inputs (docs/reliability.md,
"Memory model"). Needs ~4.5 GB of free space in $TMPDIR and a release build.

Usage: scripts/peak-memory.py [ACTIVETASK]     default: .build/release/activetask

Inputs: a 2,000,000,000-byte 16-bit mono 48 kHz WAV (a 1 kHz tone at -20 dBFS, 5.8 h) and a
2 GB accelerometer JSON (~29 million items). Each command runs with ATK_REPORT_PEAK_MEMORY=1,
which prints the process's own VmHWM at exit. One Markdown row per run: exit status, seconds,
peak resident MB, the bound of the memory model that applies, and the first line of the error
or result. Exits 1 if a run was killed by a signal, exceeded its bound, or refused without
naming the limit's flag.
"""

import math
import os
import struct
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GB = 2_000_000_000


def write_wav(path):
    rate = 48_000
    second = struct.pack("<%dh" % rate, *(round(3277 * math.sin(2 * math.pi * 1000 * i / rate)) for i in range(rate)))
    with open(path, "wb") as f:
        f.write(b"RIFF" + struct.pack("<I", 36 + GB) + b"WAVEfmt " + struct.pack("<IHHIIHH", 16, 1, 1, rate, 2 * rate, 2, 16))
        f.write(b"data" + struct.pack("<I", GB))
        left = GB
        while left > 0:
            chunk = second[:left]
            f.write(chunk)
            left -= len(chunk)


def write_json(path):
    with open(path, "w") as f:
        f.write('{"items":[')
        written, i = 10, 0
        while written < GB:
            part = ",".join('{"timestamp":%.2f,"x":%.4f,"y":-0.98,"z":0.12}' % ((i + k) / 100, 0.3 * math.sin((i + k) / 50))
                            for k in range(10_000))
            if i:
                part = "," + part
            f.write(part)
            written += len(part)
            i += 10_000
        f.write("]}")


def main():
    cli = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, ".build/release/activetask")
    failed = False
    with tempfile.TemporaryDirectory() as folder:
        wav, accel = os.path.join(folder, "long.wav"), os.path.join(folder, "accel_big.json")
        write_wav(wav)
        write_json(accel)
        db = os.path.join(folder, "store.sqlite")
        mib = 1 << 20
        # (command, bound in MB, what the bound is, refused → flag the message must name)
        runs = [
            (["info", wav], 64, "streaming: O(block)", None),
            (["score", "spl", wav], 64, "streaming: O(block) + one number per 1-s interval", None),
            (["score", "spl", wav, "--html", os.path.join(folder, "spl.html")], 256, "as above + the chart of 20,833 readings", None),
            (["score", "voice", wav], 64, "refused from the header: 10^9 samples > 2^24", "--maximum-samples"),
            (["calibrate", wav], 64, "streaming", None),
            (["audiometry", "verify", wav], 64, "refused from the header: 10^9 samples > 2^24", "--max-samples"),
            (["batch", "run", wav, "--db", db], 256, "jobs × largest streaming analysis; voice refused", None),
            (["info", accel], 64, "refused before reading: 2 GB > 512 MiB", "--max-file-bytes"),
            (["score", "gait", accel], 64, "refused before reading", "--max-file-bytes"),
            (["score", "tapping", accel], 64, "refused before reading", "--max-file-bytes"),
            (["unpack", accel, "--out", os.path.join(folder, "out")], 64, "refused before reading", "--max-file-bytes"),
            (["batch", "run", accel, "--db", db], 256, "error row: hashed (streaming), never parsed", None),
            (["info", accel, "--max-file-bytes", "3000000000"], 8192, "raised: the bytes + 8 B per number in columns", None),
            (["score", "gait", accel, "--max-file-bytes", "3000000000"], 16384, "raised: the bytes + columns + gait's per-sample arrays (whole-signal)", None),
        ]
        print("| command (2 GB input) | exit | s | peak MB | bound MB | bound | result |")
        print("|---|---:|---:|---:|---:|---|---|")
        for arguments, bound, why, flag in runs:
            start = time.perf_counter()
            run = subprocess.run([cli] + arguments, capture_output=True, env=dict(os.environ, ATK_REPORT_PEAK_MEMORY="1"))
            seconds = time.perf_counter() - start
            lines = run.stderr.decode("utf-8", "replace").splitlines()
            peak = int(lines.pop().split()[-2]) if lines and lines[-1].endswith(" MB") else -1
            lines = [line for line in lines if not line.startswith("batch: ")]
            message = lines[0] if lines else " / ".join(line.strip() for line in run.stdout.decode("utf-8", "replace").splitlines()[:3])
            message = message.replace(folder + "/", "")
            bad = run.returncode < 0 or run.returncode > 3 or peak < 0 or peak > bound
            if flag:
                bad = bad or run.returncode != 3 or flag not in message
            failed = failed or bad
            shown = " ".join(a.replace(folder + "/", "") for a in arguments)
            print(f"| `{shown}` | {run.returncode} | {seconds:.1f} | {peak} | {bound} | {why} | {message[:160].replace('|', '/')}{' **FAIL**' if bad else ''} |")
            sys.stdout.flush()
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
