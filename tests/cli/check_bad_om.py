#!/usr/bin/python3
"""Corrupted compiled models: `ge run` and `ge inspect` on truncated or byte-flipped .om files must exit with a
message, never crash or hang. Half of the flipped files get a re-computed checksum so the damage reaches the
partition parsers and the loader's own checks, not only the verifier. Also: wrong input files for a good .om; what
`ge inspect` reports of a good .om (its partition table, tasks per stream) and of one compiled with
--external_weight=2 (the weight file and its bytes, and the file once it is gone, which `ge run` refuses).
usage: check_bad_om.py GE_BINARY WORKDIR SAMPLE.onnx"""
import json
import os
import random
import shutil
import struct
import subprocess
import sys

import numpy as np

ge, work, sample = sys.argv[1:4]
os.makedirs(work, exist_ok=True)
failures = []


def crc32c(data):
    table = crc32c.table
    crc = 0xFFFFFFFF
    for b in data:
        crc = table[(crc ^ b) & 0xFF] ^ (crc >> 8)
    return crc ^ 0xFFFFFFFF


crc32c.table = []
for i in range(256):
    c = i
    for _ in range(8):
        c = (c >> 1) ^ 0x82F63B78 if c & 1 else c >> 1
    crc32c.table.append(c)


def resign(image):
    """Header checksum (offset 12) = CRC32C of the image with the field read as zero."""
    b = bytearray(image)
    b[12:16] = b"\0\0\0\0"
    b[12:16] = struct.pack("<I", crc32c(bytes(b)))
    return bytes(b)


def run(name, args, expect_ok=None, want=None, timeout=60):
    try:
        r = subprocess.run([ge] + args, capture_output=True, text=True, errors="replace", timeout=timeout)
    except subprocess.TimeoutExpired:
        failures.append(f"{name}: hung")
        return None
    if r.returncode < 0:
        failures.append(f"{name}: killed by signal {-r.returncode}: {r.stderr[-300:]}")
    elif r.returncode != 0 and not r.stderr.strip():
        failures.append(f"{name}: failed without a message")
    elif expect_ok is not None and (r.returncode == 0) != expect_ok:
        failures.append(f"{name}: exit {r.returncode}, expected {'success' if expect_ok else 'failure'}: {r.stderr[-300:]}")
    elif want and not all(w in r.stderr for w in want):
        failures.append(f"{name}: message lacks {want}: {r.stderr[-300:]}")
    return r


om = os.path.join(work, "good.om")
run("compile", ["compile", f"--model={sample}", f"--output={om}"], expect_ok=True)
good = open(om, "rb").read()
assert resign(good) == good, "the test's CRC32C disagrees with ge's"
run("good model", ["run", f"--model={om}"], expect_ok=True)


def inspect(name, path):
    r = run(name, ["inspect", path, "--json"], expect_ok=True)
    return json.loads(r.stdout) if r is not None and r.returncode == 0 else {}


# `ge inspect` of the good model: the partition table as the file holds it, and one task count per stream.
info = inspect("inspect good model", om)
partition_names = ["MODEL_DEF", "WEIGHTS_DATA", "TASK_INFO", "VAR_INFO", "EXECUTE_PLAN", "STATIC_ISLANDS"]
table = [struct.unpack_from("<IIQQ", good, 256 + 24 * i) for i in range(struct.unpack_from("<I", good, 56)[0])]
want_parts = [{"type": partition_names[t], "offset": offset, "size": size} for t, _, offset, size in table]
if info.get("partitions") != want_parts:
    failures.append(f"inspect partitions {info.get('partitions')}, the file's table {want_parts}")
per_stream = info.get("tasks_per_stream")
if not per_stream or len(per_stream) != info.get("streams") or sum(per_stream) != info.get("tasks"):
    failures.append(f"inspect tasks_per_stream {per_stream}: want one count per stream ({info.get('streams')}) "
                    f"summing to tasks ({info.get('tasks')})")

# External weights: inspect names the weight file (relative to the .om) with the bytes read from it; once the file
# is gone, inspect lists it as missing and `ge run` fails naming it.
ext_om = os.path.join(work, "ext.om")
run("compile --external_weight=2", ["compile", f"--model={sample}", f"--output={ext_om}", "--external_weight=2"],
    expect_ok=True)
info = inspect("inspect external weights", ext_om)
files = info.get("external_weight_files", {})
if len(files) != 1 or not all(os.path.isfile(os.path.join(work, f)) for f in files) or \
        sum(files.values()) != info.get("external_weights_bytes") or not info.get("external_weights_bytes") or \
        info.get("missing_weight_files") != []:
    failures.append(f"inspect external weights: files {files}, external_weights_bytes "
                    f"{info.get('external_weights_bytes')}, missing {info.get('missing_weight_files')}")
gone = os.path.join(work, "ext.weights.gone")
shutil.rmtree(gone, ignore_errors=True)
if os.path.isdir(os.path.join(work, "ext.weights")):
    os.rename(os.path.join(work, "ext.weights"), gone)
info = inspect("inspect missing weight file", ext_om)
if not files or info.get("missing_weight_files") != list(files):
    failures.append(f"inspect with the weight file gone: missing {info.get('missing_weight_files')}, want {list(files)}")
run("missing weight file", ["run", f"--model={ext_om}"], expect_ok=False, want=[os.path.basename(f) for f in files])

# Known damage with known messages.
cases = {
    "empty": (b"", ["DATA_LOSS", "empty"]),
    "header only": (good[:256], ["DATA_LOSS"]),
    "truncated": (good[: len(good) // 2], ["DATA_LOSS"]),
    "bad magic": (b"XXXX" + good[4:], ["DATA_LOSS"]),
    "future version": (resign(good[:8] + struct.pack("<I", 99) + good[12:]), ["version"]),
    "flipped byte": (good[:-100] + bytes([good[-100] ^ 0x40]) + good[-99:], ["checksum"]),
}
for name, (data, want) in cases.items():
    p = os.path.join(work, name.replace(" ", "_") + ".om")
    open(p, "wb").write(data)
    run(name, ["run", f"--model={p}"], expect_ok=False, want=want)

# Wrong inputs for a good model.
np.save(os.path.join(work, "wrong_shape.npy"), np.zeros((1, 3, 16, 16), np.float32))
np.save(os.path.join(work, "wrong_dtype.npy"), np.zeros((1, 3, 32, 32), np.float64))
run("wrong input shape", ["run", f"--model={om}", f"--input={work}/wrong_shape.npy"], expect_ok=False, want=["input"])
run("wrong input dtype", ["run", f"--model={om}", f"--input={work}/wrong_dtype.npy"], expect_ok=False, want=["input"])

rng = random.Random(1234)
loaded = 0
for i in range(120):
    b = bytearray(good)
    kind = i % 3
    if kind == 0:
        b = b[: rng.randrange(len(b))]
    else:
        for _ in range(rng.randint(1, 8)):
            pos = rng.randrange(256, len(b)) if rng.random() < 0.8 else rng.randrange(len(b))
            b[pos] ^= 1 << rng.randrange(8)
        if kind == 2:
            b = bytearray(resign(bytes(b)))
    p = os.path.join(work, f"mut{i}.om")
    open(p, "wb").write(b)
    r = run(f"mutation {i}", ["run", f"--model={p}"])
    if r is not None and r.returncode == 0:
        loaded += 1
    run(f"inspect mutation {i}", ["inspect", p, "--json"])
print(f"{loaded} of 120 mutated models still ran (a flip in weights or unused bytes)")
if failures:
    print("\n".join(failures))
    sys.exit(1)
print("all bad .om files rejected cleanly")
