#!/usr/bin/env python3
"""Builds the seed corpora of the fuzz targets from real files (docs/reliability.md).

Usage: seeds.py OUT_FOLDER

Reads SampleData/ and, when present, ../shared/data/ (never copies them into the repository: the
seeds go to OUT_FOLDER/<target>/). Real files are kept whole when small; large JSON arrays are cut
to their first 40 elements, CSV files to their first 60 lines and WAV data chunks to 4,096 bytes
(sizes in the header rewritten to match), so every seed is a valid, small file of the real layout
that libFuzzer can mutate quickly. The heart-rate and recorder-line seeds are built here from the
Bluetooth GATT 0x2A37 layout and from the real accelerometer items.
"""

import io
import warnings
import json
import os
import struct
import sys
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SOURCES = [os.path.join(ROOT, "SampleData"), os.path.join(os.path.dirname(ROOT), "shared", "data")]
MAX_ELEMENTS = 40
MAX_CSV_LINES = 60
MAX_WAV_DATA = 4096


def files():
    for source in SOURCES:
        for folder, _, names in os.walk(source):
            for name in sorted(names):
                yield os.path.join(folder, name)


def shrink(value):
    """The same JSON value with every array cut to its first MAX_ELEMENTS elements."""
    if isinstance(value, list):
        return [shrink(v) for v in value[:MAX_ELEMENTS]]
    if isinstance(value, dict):
        return {k: shrink(v) for k, v in value.items()}
    return value


def json_target(text):
    """Which JSON target a file seeds, from the classes and keys it holds."""
    if any(k in text for k in ("ORKEnvironmentSPLMeterResult", "ORKdBHLToneAudiometry", "ORKToneAudiometry", "AUXU")):
        return "audio-results"
    if any(k in text for k in ("TappingSamples", "TapTimeStamp", "ORKTappingIntervalResult", "TapCoordinate")):
        return "tapping"
    return "json-items"


def small_wav(data):
    """A WAV file's chunks with the data chunk cut to MAX_WAV_DATA bytes and the sizes rewritten."""
    if data[:4] != b"RIFF" or data[8:12] != b"WAVE":
        return None
    chunks, offset = [], 12
    while offset + 8 <= len(data):
        ident, size = data[offset:offset + 4], struct.unpack("<I", data[offset + 4:offset + 8])[0]
        body = data[offset + 8:offset + 8 + size]
        if ident == b"data":
            body = body[:MAX_WAV_DATA]
        chunks.append(ident + struct.pack("<I", len(body)) + body + (b"\0" if len(body) % 2 else b""))
        offset += 8 + size + (size % 2)
    payload = b"WAVE" + b"".join(chunks)
    return b"RIFF" + struct.pack("<I", len(payload)) + payload


def synthetic_wavs():
    """PCM 8/16/24-bit and float WAVs, mono and stereo, 64 frames of a ramp."""
    out = {}
    for bits, tag in ((8, 1), (16, 1), (24, 1), (32, 3)):
        for channels in (1, 2):
            frames = 64
            width = bits // 8
            if tag == 3:
                samples = b"".join(struct.pack("<f", (i % 32) / 32 - 0.5) for i in range(frames * channels))
            else:
                samples = b"".join(((i * 37) % (1 << bits)).to_bytes(width, "little") for i in range(frames * channels))
            fmt = struct.pack("<HHIIHH", tag, channels, 8000, 8000 * channels * width, channels * width, bits)
            payload = b"WAVE" + b"fmt " + struct.pack("<I", len(fmt)) + fmt + b"data" + struct.pack("<I", len(samples)) + samples
            out[f"synthetic-{bits}bit-{channels}ch.wav"] = b"RIFF" + struct.pack("<I", len(payload)) + payload
    return out


def extended80(value):
    """An IEEE 754 80-bit extended float (AIFF's sample rate), for a positive integer."""
    exponent = value.bit_length() - 1
    return struct.pack(">HQ", 16383 + exponent, value << (63 - exponent))


def other_containers():
    """The other headers libsndfile sniffs, so the fuzzer mutates their parsers too: AIFF, AIFF-C,
    Sun AU, RF64 with its ds64 chunk, and WAVs carrying the metadata chunks libsndfile parses
    (LIST INFO and adtl with labl/note, cue, bext, fact, PEAK, smpl, acid)."""
    frames = 64
    pcm_be = b"".join(struct.pack(">h", (i * 997) % 65536 - 32768) for i in range(frames))
    pcm_le = b"".join(struct.pack("<h", (i * 997) % 65536 - 32768) for i in range(frames))
    comm = struct.pack(">hIh", 1, frames, 16) + extended80(8000)
    ssnd = struct.pack(">II", 0, 0) + pcm_be
    aiff = b"AIFF" + b"COMM" + struct.pack(">I", len(comm)) + comm + b"SSND" + struct.pack(">I", len(ssnd)) + ssnd
    commc = comm + b"NONE" + bytes([14]) + b"not compressed" + b"\0"
    aifc = b"AIFC" + b"FVER" + struct.pack(">II", 4, 0xA2805140) + b"COMM" + struct.pack(">I", len(commc)) + commc \
        + b"SSND" + struct.pack(">I", len(ssnd)) + ssnd
    fmt = struct.pack("<HHIIHH", 1, 1, 8000, 16000, 2, 16)

    def chunk(ident, body):
        return ident + struct.pack("<I", len(body)) + body + (b"\0" if len(body) % 2 else b"")

    info = chunk(b"LIST", b"INFO" + chunk(b"INAM", b"vowel\0") + chunk(b"ISFT", b"ActiveTaskKit\0") + chunk(b"ICMT", b"seed\0"))
    adtl = chunk(b"LIST", b"adtl" + chunk(b"labl", struct.pack("<I", 1) + b"start\0") + chunk(b"note", struct.pack("<I", 1) + b"n\0"))
    cue = chunk(b"cue ", struct.pack("<I", 1) + struct.pack("<II4sIII", 1, 0, b"data", 0, 0, 0))
    bext = chunk(b"bext", b"description".ljust(256, b"\0") + b"originator".ljust(32, b"\0") + bytes(32) + b"2026-11-25" + b"12:00:00"
                 + bytes(8) + struct.pack("<H", 1) + bytes(64) + bytes(190))
    fact = chunk(b"fact", struct.pack("<I", frames))
    peak = chunk(b"PEAK", struct.pack("<IIfI", 1, 0, 0.5, 3))
    smpl = chunk(b"smpl", struct.pack("<9I", 0, 0, 125000, 60, 0, 0, 0, 1, 0) + struct.pack("<6I", 0, 0, 0, frames - 1, 0, 0))
    acid = chunk(b"acid", struct.pack("<IHHfIHHf", 1, 60, 0, 0.0, 1, 4, 4, 120.0))
    body = b"WAVE" + chunk(b"fmt ", fmt) + fact + bext + cue + smpl + acid + peak + chunk(b"data", pcm_le) + info + adtl
    ds64 = struct.pack("<QQQI", 0, len(pcm_le), frames, 0)
    rf64 = b"WAVE" + chunk(b"ds64", ds64) + chunk(b"fmt ", fmt) + b"data" + struct.pack("<I", 0xFFFFFFFF) + pcm_le
    rf64 = rf64.replace(struct.pack("<QQ", 0, len(pcm_le)), struct.pack("<QQ", 4 + len(rf64), len(pcm_le)), 1)
    return {
        "container.aiff": b"FORM" + struct.pack(">I", len(aiff)) + aiff,
        "container.aifc": b"FORM" + struct.pack(">I", len(aifc)) + aifc,
        "container.au": b".snd" + struct.pack(">IIIII", 24, len(pcm_be), 3, 8000, 1) + pcm_be,
        "container-rf64.wav": b"RF64" + struct.pack("<I", 0xFFFFFFFF) + rf64,
        "metadata-chunks.wav": b"RIFF" + struct.pack("<I", len(body)) + body,
    }


def heart_rate_values():
    """GATT 0x2A37 values: every combination of the 16-bit, contact, energy and RR flags."""
    out = {}
    for flags in range(0x20):
        value = [flags]
        value += [0x48, 0x00] if flags & 0x01 else [0x48]
        if flags & 0x08:
            value += [0x10, 0x27]
        if flags & 0x10:
            value += [0x00, 0x04, 0x20, 0x03]
        out[f"flags-{flags:02x}.bin"] = bytes(value)
    return out


def archive_seeds(tapping, walking, wav):
    """Upload archives of the real layouts: an info.json manifest and the result, recorder or audio
    files of one task, deflated and stored."""
    out = {}
    for name, task, files in (("tapping", "Tapping Activity", tapping), ("walking", "Walking Activity", walking), ("voice", "Voice Activity", wav)):
        if not files:
            continue
        for method in (zipfile.ZIP_DEFLATED, zipfile.ZIP_STORED):
            buffer = io.BytesIO()
            with zipfile.ZipFile(buffer, "w", method) as archive:
                info = {"taskRun": "00000000-0000-4000-8000-000000000000", "item": task, "appVersion": "1.0", "phoneInfo": "iPhone 6",
                        "files": [{"filename": f, "timestamp": "2015-03-10T14:00:00-0500", "contentType": "text/json"} for f in files]}
                archive.writestr("info.json", json.dumps(info))
                for entry, data in files.items():
                    archive.writestr(entry, data)
            out[f"{name}-{'deflated' if method == zipfile.ZIP_DEFLATED else 'stored'}.zip"] = buffer.getvalue()
    return out


def config_seeds():
    """fuzz-config: TOML configurations of every documented shape, and the hostile ones of
    docs/reliability.md §6 (nesting past the limit by headers, dotted keys, inline tables and arrays; dates;
    wrong types; out-of-range values)."""
    deep = lambda n: ".".join(["a"] * n)
    return {
        "every-section.toml": b'[batch]\nanalyzers = ["tapping", "gait"]\naudio = "both"\n[spl]\ncalibrationOffsetDecibels = 111.28\nthresholdDecibels = 35\n'
                              b'[voice]\npitchFloorHz = 60\npitchCeilingHz = 500\n[tapping]\nconvention = "little"\n[gait.analysis]\nminimumBoutSeconds = 4\n',
        "csv-options.toml": b'[gait.csv]\ntimeUnit = "ms"\n[gait.analysis]\nrateHz = 100\n',
        "empty.toml": b"",
        "deep-header.toml": f"[{deep(200)}]\nx = 1\n".encode(),
        "deep-dotted.toml": f"{deep(200)} = 1\n".encode(),
        "deep-inline.toml": ("x = " + "{a = " * 60 + "1" + "}" * 60 + "\n").encode(),
        "deep-array.toml": ("x = " + "[" * 60 + "]" * 60 + "\n").encode(),
        "date.toml": b"[batch]\nsince = 2020-01-01\n",
        "wrong-type.toml": b'[spl]\nthresholdDecibels = "quiet"\n',
        "range.toml": b"[gait.analysis]\nrateHz = 1e300\n[voice]\npitchFloorHz = -0.0\n",
        "crlf-bom.toml": b"\xef\xbb\xbf[voice]\r\npitchFloorHz = 60\r\n[gait.analysis]\r\nchunkSeconds = 1e-300\r\n",
        "multiline.toml": b'[batch]\nanalyzers = ["voice", """tapping"""]  # ] }\n[tapping]\nconvention = \'\'\'\nlittle\'\'\'\n',
        "integers.toml": b"[voice]\nmaximumSamples = 0x7fffffffffffffff\nmfccCount = 5.5\n[spl]\nrequiredIntervals = -9223372036854775808\n",
    }


def calibration_seeds():
    """fuzz-calibration: measured headphone calibrations in both spellings, as spreadsheets write
    them (BOM, CRLF, quoted cells), with a standard RETSPL set, and a name with control bytes."""
    csv = "# headphone: HDA 300\n# reference_dbfs: -20\nfrequency_hz,spl_db,retspl_db\n1000,90,7.5\n4000,85,12\n"
    return {
        "plain.csv": csv.encode(),
        "spreadsheet.csv": ("\ufeff" + csv.replace("\n", "\r\n").replace("1000,90", '"1000","90"')).encode(),
        "standard.csv": b"# headphone: ER-3A\n# reference_dbfs: -30\n# retspl: er3aHA2\nfrequency_hz,spl_db\n1000,80\n2000,82\n",
        "control-name.csv": b"# headphone: A\x1b]0;x\x07<b>&\n# reference_dbfs: -20\nfrequency_hz,spl_db,retspl_db\n1000,90,7.5\n",
        "points.json": b'{"headphone": "X \\"q\\"", "referenceLevelDbfs": -20, "points": [{"frequencyHz": 1000, "splDb": 90, "retsplDb": 7.5}]}',
    }


def iio_seeds():
    """fuzz-iio: an IIO accelerometer's attribute values (Fuzz/Sources/fuzz-iio names the 13 lines),
    then its buffer: scans of three 16-bit axes and a 64-bit timestamp, as the kernel writes them."""
    def tree(types, clock, scans):
        lines = ["100", "50 100 200", "0.0012", "0"] + types + ["0", "1", "2", "3", clock]
        return ("\n".join(lines) + "\n").encode() + scans
    def scans(count, step_ns, endian="<"):
        return b"".join(struct.pack(endian + "hhhxxq", k, -k, 1000, k * step_ns) for k in range(count))
    little = ["le:s16/16>>0"] * 3 + ["le:s64/64>>0"]
    big = ["be:s12/16>>4"] * 3 + ["be:s64/64>>0"]
    return {
        "little.iio": tree(little, "monotonic", scans(40, 10_000_000)),
        "big-shifted.iio": tree(big, "realtime", scans(40, 10_000_000, ">")),
        "frozen-clock.iio": tree(little, "monotonic", scans(40, 0)),
        "partial-scan.iio": tree(little, "boottime", scans(3, 10_000_000)[:-5]),
    }


def manifest_seeds():
    """fuzz-manifest: study manifests naming SampleData's files (relative to it) as Synapse and
    spreadsheets write them, and the ambiguous shapes of docs/reliability.md §6."""
    header = "recordId,healthCode,tapping_results.json.TappingSamples,accel_walking_outbound.json.items"
    row = "r1,hc-1,tapping_results.json,accel_3E30633D_C450_3876_E864_A840A6B36F9D-20260101120010.json"
    return {
        "plain.csv": f"{header}\n{row}\nr2,hc-2,,walk_accelerometer.csv\n".encode(),
        "spreadsheet.csv": ("\ufeff" + header + ',note\r\n' + row + ',"said ""go""\r\nthen walked"\r\n').encode(),
        "missing-file.csv": f"{header}\nr1,hc-1,nothing.json,\n".encode(),
        "repeated-column.csv": b"recordId,a.json,a.json\nr1,tapping_results.json,tapping_results.json\n",
        "nul-cell.csv": b"recordId,a.json\nr1,tapping_results.json\x00.bak\n",
        "no-file-column.csv": b"recordId,healthCode\nr1,h1\nr2,h2\n",
        "formula-column.csv": b'recordId,"=HYPERLINK(""http://x"",""y"")",walk.json\nr1,x,walk_accelerometer.csv\n',
        "open-quote.csv": f'{header}\nr1,"hc-1,tapping_results.json,\n'.encode(),
    }


def zip_directory_seeds(archives):
    """fuzz-zip-directory: the upload archives, and the ambiguous ones of docs/reliability.md §6 (an entry
    named twice, a central directory name unlike its local header's, a CRC-32 that disagrees)."""
    out = dict(archives)
    base = next(iter(archives.values()), None)
    if base is None:
        return out
    buffer = io.BytesIO()
    with warnings.catch_warnings(), zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        warnings.simplefilter("ignore")  # "Duplicate name": the point of this seed
        with zipfile.ZipFile(io.BytesIO(base)) as source:
            for info in source.infolist():
                archive.writestr(info.filename, source.read(info))
                archive.writestr(info.filename, source.read(info))
    out["twice.zip"] = buffer.getvalue()
    renamed = bytearray(base)
    central = renamed.rfind(b"PK\x01\x02")
    renamed[central + 46] ^= 0x20
    out["renamed.zip"] = bytes(renamed)
    crc = bytearray(base)
    crc[central + 16] ^= 0x01
    out["crc.zip"] = bytes(crc)
    return out


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    out = sys.argv[1]
    seeds = {t: {} for t in ("json-items", "tapping", "audio-results", "csv", "wav", "heart-rate", "recorder-lines", "analysis", "archive",
                             "calibration", "iio", "config", "manifest", "zip-directory")}
    items = None
    for path in files():
        name = os.path.relpath(path, os.path.dirname(ROOT)).replace(os.sep, "_").replace("..", "")
        with open(path, "rb") as f:
            data = f.read()
        if path.endswith(".json"):
            try:
                value = json.loads(data)
            except ValueError:
                seeds["json-items"][name] = data[: 1 << 16]
                continue
            seeds[json_target(data.decode("utf-8", "replace"))][name] = json.dumps(shrink(value)).encode()
            found = value.get("items") if isinstance(value, dict) else value
            if items is None and isinstance(found, list) and found and isinstance(found[0], dict) and "x" in found[0]:
                items = found[:20]
        elif path.endswith(".csv"):
            seeds["csv"][name] = b"\n".join(data.split(b"\n")[:MAX_CSV_LINES]) + b"\n"
        elif path.endswith(".wav"):
            wav = small_wav(data)
            if wav:
                seeds["wav"][name] = wav
    seeds["wav"].update(synthetic_wavs())
    seeds["wav"].update(other_containers())
    seeds["heart-rate"].update(heart_rate_values())
    seeds["analysis"].update(analysis_seeds())
    first = lambda target: next(iter(seeds[target].values()), None)
    seeds["archive"].update(archive_seeds(
        {"tapping_results.json": first("tapping")} if first("tapping") else {},
        {"accel_walking.outbound.json": first("json-items"), "deviceMotion_walking.rest.json": first("json-items")} if first("json-items") else {},
        {"audio_audio.wav": first("wav")} if first("wav") else {}))
    seeds["calibration"].update(calibration_seeds())
    seeds["iio"].update(iio_seeds())
    seeds["config"].update(config_seeds())
    seeds["manifest"].update(manifest_seeds())
    seeds["zip-directory"].update(zip_directory_seeds(seeds["archive"]))
    if items:
        seeds["recorder-lines"]["items.jsonl"] = b"\n".join(json.dumps(i).encode() for i in items) + b"\n"
        keys = [k for k in items[0] if not isinstance(items[0][k], (dict, list))]
        rows = [",".join(keys)] + [",".join(str(i.get(k, "")) for k in keys) for i in items]
        seeds["recorder-lines"]["items.csv"] = ("\n".join(rows) + "\n").encode()
    for target, named in seeds.items():
        folder = os.path.join(out, target)
        os.makedirs(folder, exist_ok=True)
        for name, data in named.items():
            with open(os.path.join(folder, name), "wb") as f:
                f.write(data)
        print(f"{target}: {len(named)} seeds, {sum(map(len, named.values())):,} bytes")


def analysis_seeds():
    """fuzz-analysis inputs (Fuzz/Sources/fuzz-analysis): a kind byte, then numbers, each a raw
    Double (0xF0 + 8 bytes, big-endian) forming a plausible recording of that kind, with one
    hostile palette value (byte 0: NaN) spliced in, so mutations start from valid signals."""
    import math
    def raw(x):
        return b"\xf0" + struct.pack(">d", x)
    seeds = {}
    sine = [0.3 * math.sin(2 * math.pi * 150 * i / 8000) for i in range(600)]
    seeds["audio.bin"] = bytes([0, 3, 1]) + raw(1.0) + raw(35.0) + b"".join(map(raw, sine[:300])) + b"\x00" + b"".join(map(raw, sine[300:]))
    walk = []
    for i in range(400):
        t = i / 100
        walk += [t, 0.1 * math.sin(2 * math.pi * 1.8 * t), 0.02, -1 + 0.3 * math.sin(2 * math.pi * 1.8 * t)]
    seeds["motion.bin"] = bytes([1]) + b"".join(map(raw, walk))
    taps = []
    for k in range(60):
        taps += [0.2 * k, 96.0 if k % 2 == 0 else 224.0, 416.0]
    seeds["taps.bin"] = bytes([2]) + b"".join(map(raw, taps))
    seeds["readings.bin"] = bytes([3]) + raw(-23.3) + raw(35.0) + b"".join(raw(30 + (k % 7)) for k in range(20))
    audiogram = []
    for f in (500, 1000, 2000, 4000, 8000):
        audiogram += [float(f), 20.0, 25.0]
    seeds["audiogram.bin"] = bytes([4]) + b"".join(map(raw, audiogram))
    return seeds


if __name__ == "__main__":
    main()
