#!/usr/bin/python3
"""Corrupted compiled models: `ge run` and `ge inspect` on truncated or byte-flipped .om files must exit with a
message, never crash or hang. Half of the flipped files get a re-computed checksum so the damage reaches the
partition parsers and the loader's own checks, not only the verifier. Also: wrong input files for a good .om.
usage: check_bad_om.py GE_BINARY WORKDIR SAMPLE.onnx"""
import os
import random
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
