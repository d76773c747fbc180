#!/usr/bin/python3
"""`ge run-op`: single ops on .npy files through the public single-op API, outputs checked with numpy (Add with
broadcasting, Transpose with a perm, Softmax with an axis, MatMul, a reduction (and one over every axis, axes=[]),
Reshape with a constant shape, Pad with a string attribute, LeakyRelu with a float, Clip with an omitted input,
TopK's two named outputs); `--json` reports the per-call times of both forms and the output shapes; bad ops,
attributes and inputs fail with exit code 1 and a message (never a crash). Times are printed, never asserted.
usage: check_run_op.py GE_BINARY WORKDIR"""
import json
import os
import shutil
import subprocess
import sys

import numpy as np

ge, work = sys.argv[1:3]
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
rng = np.random.default_rng(0)
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL " + what)


def npy(name, array):
    path = os.path.join(work, name + ".npy")
    np.save(path, array)
    return path


def run_op(args):
    return subprocess.run([ge, "run-op"] + args, capture_output=True, text=True, timeout=120)


def outputs_of(case, args, names):
    out_dir = os.path.join(work, "out_" + case)
    r = run_op(args + [f"--output_dir={out_dir}"])
    check(r.returncode == 0, f"{case}: exit {r.returncode}: {r.stderr.strip()[-300:]}")
    if r.returncode != 0:
        return [None] * len(names)
    return [np.load(os.path.join(out_dir, n + ".npy")) for n in names]


def expect_close(case, got, want, rtol=1e-5, atol=1e-6):
    ok = got is not None and got.shape == want.shape and got.dtype == want.dtype and \
        np.allclose(got, want, rtol=rtol, atol=atol)
    check(ok, f"{case}: got {None if got is None else (got.dtype, got.shape)}, want {(want.dtype, want.shape)}")


def softmax(x, axis):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


x = rng.standard_normal((2, 3, 4)).astype(np.float32)
b = rng.standard_normal(4).astype(np.float32)
xp, bp = npy("x", x), npy("b", b)

[c] = outputs_of("add", ["--op=Add", f"--input={xp}", f"--input={bp}"], ["C"])
expect_close("Add [2,3,4] + [4]", c, x + b, rtol=0, atol=0)

[t] = outputs_of("transpose", ["--op=Transpose", f"--input={xp}", "--attr=perm=2,0,1"], ["transposed"])
expect_close("Transpose perm=2,0,1", t, np.transpose(x, (2, 0, 1)), rtol=0, atol=0)
[t] = outputs_of("transpose_brackets", ["--op=Transpose", f"--input={xp}", "--attr=perm=[1,0,2]"], ["transposed"])
expect_close("Transpose perm=[1,0,2]", t, np.transpose(x, (1, 0, 2)), rtol=0, atol=0)

[s] = outputs_of("softmax", ["--op=Softmax", f"--input={xp}", "--attr=axis=1"], ["output"])
expect_close("Softmax axis=1", s, softmax(x, 1))

m1 = rng.standard_normal((3, 5)).astype(np.float32)
m2 = rng.standard_normal((5, 7)).astype(np.float32)
[y] = outputs_of("matmul", ["--op=MatMul", f"--input={npy('m1', m1)}", f"--input={npy('m2', m2)}"], ["Y"])
expect_close("MatMul [3,5] @ [5,7]", y, m1 @ m2, rtol=1e-4, atol=1e-5)

[r] = outputs_of("reduce", ["--op=ReduceMean", f"--input={xp}", "--attr=axes=1,", "--attr=keepdims=0"], ["reduced"])
expect_close("ReduceMean axes=1, keepdims=0", r, x.mean(axis=1))
[r] = outputs_of("reduce_all", ["--op=ReduceMean", f"--input={xp}", "--attr=axes=[]", "--attr=keepdims=0"],
                 ["reduced"])
expect_close("ReduceMean axes=[] (an empty list: every axis)", r, np.array(x.mean(), dtype=np.float32))

shape = npy("shape", np.array([4, -1], dtype=np.int64))
[r] = outputs_of("reshape", ["--op=Reshape", f"--input={xp}", f"--input=const:{shape}"], ["reshaped"])
expect_close("Reshape with a constant shape", r, x.reshape(4, -1), rtol=0, atol=0)

x2 = rng.standard_normal((3, 4)).astype(np.float32)
pads = npy("pads", np.array([0, 1, 0, 2], dtype=np.int64))
[p] = outputs_of("pad", ["--op=Pad", f"--input={npy('x2', x2)}", f"--input=const:{pads}", '--attr=mode="reflect"'],
                 ["output"])
expect_close("Pad mode=reflect", p, np.pad(x2, ((0, 0), (1, 2)), mode="reflect"), rtol=0, atol=0)

[lr] = outputs_of("leaky", ["--op=LeakyRelu", f"--input={xp}", "--attr=alpha=0.25"], ["Y"])
expect_close("LeakyRelu alpha=0.25", lr, np.where(x >= 0, x, np.float32(0.25) * x), rtol=0, atol=0)

hi = npy("hi", np.array(0.5, dtype=np.float32))
[cl] = outputs_of("clip", ["--op=Clip", f"--input={xp}", "--input=", f"--input=const:{hi}"], ["output"])
expect_close("Clip with no min", cl, np.minimum(x, np.float32(0.5)), rtol=0, atol=0)

k = npy("k", np.array([2], dtype=np.int64))
v, i = outputs_of("topk", ["--op=TopK", f"--input={xp}", f"--input=const:{k}", "--attr=axis=-1"],
                  ["Values", "Indices"])
want_i = np.argsort(-x, axis=-1, kind="stable")[..., :2]
expect_close("TopK values", v, np.take_along_axis(x, want_i, axis=-1), rtol=0, atol=0)
check(i is not None and np.array_equal(i, want_i), "TopK indices")

# --json: one line with the static and dynamic per-call times and the outputs.
a16 = npy("a16", rng.standard_normal(16).astype(np.float32))
b16 = npy("b16", rng.standard_normal(16).astype(np.float32))
r = run_op(["--op=Add", f"--input={a16}", f"--input={b16}", "--loop=20000", "--json"])
check(r.returncode == 0, f"--json: {r.stderr.strip()}")
if r.returncode == 0:
    j = json.loads(r.stdout.strip().splitlines()[-1])
    for key in ("op", "engine", "impl", "median_us", "min_us", "dynamic_median_us", "iters", "outputs"):
        check(key in j, f"--json has {key}: {j}")
    check(j.get("iters") == 20000, f"iters: {j.get('iters')}")
    check(j.get("outputs") == [{"name": "C", "dtype": "float32", "shape": [16]}], f"outputs: {j.get('outputs')}")
    check(0 < j.get("median_us", 0) and 0 < j.get("dynamic_median_us", 0), f"times: {j}")
    print(f"Add of 16 floats: static {j['median_us']:.3f} us, dynamic {j['dynamic_median_us']:.3f} us per call "
          f"({j['impl']})")

# Errors: exit code 1 and a message naming the problem.
errors = [
    (["--op=NoSuchOp", f"--input={xp}"], "unknown op 'NoSuchOp'"),
    ([f"--input={xp}"], "--op=NAME is required"),
    (["--op=Relu", f"--input={xp}", "--attr=alpha=1"], "no attribute 'alpha'"),
    (["--op=Softmax", f"--input={xp}", "--attr=axis=0.5"], "must be an int"),
    (["--op=Transpose", f"--input={xp}", "--attr=perm"], "expected NAME=VALUE"),
    (["--op=Add", f"--input={xp}"], "takes 2 inputs, got 1"),
    (["--op=Add", f"--input={xp}", f"--input={npy('i64', np.arange(4, dtype=np.int64))}"], "input types differ"),
    (["--op=Add", f"--input={xp}", f"--input={a16}"], "cannot be broadcast"),
    (["--op=Reshape", f"--input={xp}", f"--input={shape}"], "--input=const:"),
    (["--op=Add", f"--input={os.path.join(work, 'missing.npy')}", f"--input={xp}"], "missing.npy"),
    (["--op=Add", f"--input={xp}", f"--input={xp}", "--option=ge.bogus=1"], "is not an option ge knows"),
]
for args, text in errors:
    r = run_op(args)
    check(r.returncode == 1 and text in r.stderr, f"{args}: exit {r.returncode}, stderr {r.stderr.strip()!r}, "
                                                  f"expected {text!r}")

if failures:
    sys.exit(f"{len(failures)} check(s) failed")
print("PASS: ge run-op outputs match numpy; --json and errors as documented")
