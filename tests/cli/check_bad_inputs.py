#!/usr/bin/python3
"""Bad input to `ge run` (and flags of `ge compile`) must give a non-zero exit and a message naming the problem,
never a crash or a hang.
usage: check_bad_inputs.py GE_BINARY WORKDIR"""
import os
import random
import subprocess
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

ge, work = sys.argv[1], sys.argv[2]
os.makedirs(work, exist_ok=True)
failures = []


def model(nodes, inputs, outputs, inits=(), opset=13):
    g = helper.make_graph(nodes, "g", inputs, outputs, list(inits))
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)])
    m.ir_version = 8
    return m


def vi(name, dims, t=TensorProto.FLOAT):
    return helper.make_tensor_value_info(name, t, dims)


def save(name, m):
    path = os.path.join(work, name)
    onnx.save(m, path)
    return path


def check(name, args, expect_substrings, timeout=60, command="run"):
    try:
        r = subprocess.run([ge, command] + args, capture_output=True, text=True, errors="replace", timeout=timeout)
    except subprocess.TimeoutExpired:
        failures.append(f"{name}: hung (no exit within {timeout}s)")
        return
    msg = r.stderr + r.stdout
    if r.returncode <= 0:
        failures.append(f"{name}: exit code {r.returncode} (want a clean non-zero exit): {msg[-200:]}")
        return
    for s in expect_substrings:
        if s not in msg:
            failures.append(f"{name}: message lacks '{s}': {msg.strip()[-300:]}")
            return
    print(f"ok   {name}: {msg.strip().splitlines()[-1][:150]}")


good = save("good.onnx", model([helper.make_node("Relu", ["x"], ["y"], name="relu")], [vi("x", [2, 3])], [vi("y", [2, 3])]))
np.save(os.path.join(work, "x23.npy"), np.ones((2, 3), np.float32))
np.save(os.path.join(work, "x32.npy"), np.ones((3, 2), np.float32))
np.save(os.path.join(work, "x23i.npy"), np.ones((2, 3), np.int32))

raw = open(good, "rb").read()
with open(os.path.join(work, "truncated.onnx"), "wb") as f:
    f.write(raw[: len(raw) // 2])
check("truncated model", [f"--model={work}/truncated.onnx"], ["not a valid ONNX model"])
with open(os.path.join(work, "garbage.onnx"), "wb") as f:
    f.write(b"\x08\x07\x12\xff\xff\xff\xff\x0f" + bytes(range(256)))
check("garbage model", [f"--model={work}/garbage.onnx"], ["ONNX"])
check("missing model file", [f"--model={work}/nope.onnx"], ["cannot open"])

unknown = save("unknown.onnx", model([helper.make_node("Frobnicate", ["x"], ["y"], name="frob")], [vi("x", [2])], [vi("y", [2])]))
check("unknown op", [f"--model={unknown}"], ["Frobnicate", "frob"])

missing = save("missing_init.onnx", model([helper.make_node("Add", ["x", "w"], ["y"], name="add")], [vi("x", [2])], [vi("y", [2])]))
check("missing initializer", [f"--model={missing}"], ["'w'", "add"])

cyc = save("cycle.onnx", model([helper.make_node("Relu", ["b"], ["a"], name="r1"), helper.make_node("Relu", ["a"], ["b"], name="r2")],
                              [vi("x", [2])], [vi("a", [2])]))
check("cycle", [f"--model={cyc}"], ["cycle"])

check("wrong input count", [f"--model={good}", f"--input={work}/x23.npy", f"--input={work}/x23.npy"], ["inputs"])
check("wrong input shape", [f"--model={good}", f"--input={work}/x32.npy"], ["input 'x'", "shape"])
check("wrong input dtype", [f"--model={good}", f"--input={work}/x23i.npy"], ["input 'x'", "dtype"])
check("unknown input name", [f"--model={good}", f"--input=zz={work}/x23.npy"], ["'zz'"])

# Integer flags outside their range: refused before anything runs, naming the flag, the value and the range.
flags_om = os.path.join(work, "flags.om")
if os.path.exists(flags_om):
    os.remove(flags_om)
check("--threads above its range", [f"--model={good}", "--threads=5000"], ["--threads=5000", "[0, 1024]"])
check("--threads below its range", [f"--model={good}", "--threads=-1"], ["--threads=-1", "[0, 1024]"])
check("--contention not a policy", [f"--model={good}", "--contention=sometimes"],
      ["--contention", "adaptive, full or one", "sometimes"])
check("--threads not an integer", [f"--model={good}", "--threads=four"], ["--threads=four", "not an integer"])
check("compile --threads above its range", [f"--model={good}", f"--output={flags_om}", "--threads=5000"],
      ["--threads=5000", "[0, 1024]"], command="compile")
check("compile --external_weight above its range", [f"--model={good}", f"--output={flags_om}", "--external_weight=3"],
      ["--external_weight=3", "[0, 2]"], command="compile")
if os.path.exists(flags_om):
    failures.append("compile with an out-of-range flag wrote its output")

# --vary=NAME:AXIS:LO~HI: AXIS, LO and HI are plain digits; empty or with anything after the digits is refused.
check("--vary with an empty AXIS", [f"--model={good}", "--vary=x::2~2"], ["--vary 'x::2~2'", "AXIS"])
check("--vary with bytes after HI", [f"--model={good}", "--vary=x:0:2~2x"], ["--vary 'x:0:2~2x'", "LO~HI"])

huge_shape = numpy_helper.from_array(np.array([1000000, 1000000], np.int64), "shape")
huge = save("huge.onnx", model([helper.make_node("ConstantOfShape", ["shape"], ["y"], name="cos")], [vi("x", [1])],
                               [vi("y", [1000000, 1000000])], [huge_shape]))
check("absurd size (10^12 elements)", [f"--model={huge}"], ["exceeds"])
big_init = TensorProto(name="w", data_type=TensorProto.FLOAT, dims=[1000000, 1000000], raw_data=b"1234")
bi = save("huge_init.onnx", model([helper.make_node("Add", ["x", "w"], ["y"], name="add")], [vi("x", [1])], [vi("y", [1])], [big_init]))
check("absurd initializer", [f"--model={bi}"], ["initializer 'w'"])

bad_attr = save("bad_axis.onnx", model([helper.make_node("Softmax", ["x"], ["y"], name="sm", axis=7)], [vi("x", [2, 3])], [vi("y", [2, 3])]))
check("out-of-range attribute", [f"--model={bad_attr}"], ["sm", "axis"])

# Random byte flips of a real model: any outcome but a crash or a hang is acceptable.
random.seed(1)
sample = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../samples/tiny_cnn.onnx"), "rb").read()
for i in range(30):
    data = bytearray(sample)
    for _ in range(random.randint(1, 8)):
        data[random.randrange(len(data))] = random.randrange(256)
    if i % 3 == 0:
        data = data[: random.randrange(len(data))]
    p = os.path.join(work, f"flip{i}.onnx")
    open(p, "wb").write(bytes(data))
    try:
        r = subprocess.run([ge, "run", f"--model={p}"], capture_output=True, text=True, errors="replace", timeout=120)
        if r.returncode < 0:
            failures.append(f"byte-flipped model {i}: killed by signal {-r.returncode}: {r.stderr[-200:]}")
    except subprocess.TimeoutExpired:
        failures.append(f"byte-flipped model {i}: hung")

for f in failures:
    print("FAIL " + f)
print(f"{'all bad inputs rejected cleanly' if not failures else str(len(failures)) + ' problems'}")
sys.exit(1 if failures else 0)
