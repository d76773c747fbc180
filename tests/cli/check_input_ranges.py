#!/usr/bin/python3
"""`ge compile --input_shape="x:1,1~16,4"`: the ranged dim stays symbolic, the range is recorded in the .om and
`ge run` accepts sizes at and inside it and refuses one outside it naming input, dim, value and range; bad range
syntax is a clear compile error.
usage: check_input_ranges.py GE_BINARY WORKDIR"""
import os
import subprocess
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper

ge, work = sys.argv[1], sys.argv[2]
os.makedirs(work, exist_ok=True)
failures = []

g = helper.make_graph([helper.make_node("Relu", ["x"], ["y"], name="relu")], "g",
                      [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, "seq", 4])],
                      [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, "seq", 4])])
m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])
m.ir_version = 8
onnx_path = os.path.join(work, "relu_seq.onnx")
onnx.save(m, onnx_path)
om_path = os.path.join(work, "relu_seq.om")


def ge_cmd(args):
    return subprocess.run([ge] + args, capture_output=True, text=True, errors="replace", timeout=120)


r = ge_cmd(["compile", f"--model={onnx_path}", f"--output={om_path}", "--input_shape=x:1,2~16,4"])
if r.returncode != 0 or "dynamic" not in r.stdout:
    failures.append(f"compile with a range: rc {r.returncode}: {(r.stdout + r.stderr)[-300:]}")
else:
    for seq, ok in [(2, True), (9, True), (16, True), (1, False), (17, False)]:
        x = np.linspace(-1, 1, seq * 4, dtype=np.float32).reshape(1, seq, 4)
        np.save(os.path.join(work, f"x{seq}.npy"), x)
        out_dir = os.path.join(work, f"out{seq}")
        r = ge_cmd(["run", f"--model={om_path}", f"--input={work}/x{seq}.npy", f"--output_dir={out_dir}"])
        msg = (r.stdout + r.stderr).strip()
        if ok:
            if r.returncode != 0:
                failures.append(f"seq {seq}: rc {r.returncode}: {msg[-300:]}")
            elif not np.array_equal(np.load(os.path.join(out_dir, "y.npy")), np.maximum(x, 0)):
                failures.append(f"seq {seq}: wrong output")
            else:
                print(f"ok   seq {seq} runs")
        else:
            want = ["input 'x'", f"dim 1 is {seq}", "2~16"]
            if r.returncode <= 0 or any(w not in msg for w in want):
                failures.append(f"seq {seq}: want a clean refusal naming {want}: rc {r.returncode}: {msg[-300:]}")
            else:
                print(f"ok   seq {seq} refused: {msg.splitlines()[-1][:150]}")

for spec, want in [("x:1,2~,4", "bad range"), ("x:1,5~2,4", "empty"), ("x:1,a~b,4", "bad range"),
                   ("x:1,-3,4", "bad dim"), ("x:1,2~16,5~9", "contradicts"), ("x:1,2~16", "rank")]:
    r = ge_cmd(["compile", f"--model={onnx_path}", f"--output={work}/bad.om", f"--input_shape={spec}"])
    msg = (r.stdout + r.stderr).strip()
    if r.returncode <= 0 or want not in msg or "--input_shape" not in msg:
        failures.append(f"--input_shape={spec}: want a clean error with '{want}': rc {r.returncode}: {msg[-300:]}")
    else:
        print(f"ok   --input_shape={spec}: {msg.splitlines()[-1][:150]}")

for f in failures:
    print("FAIL", f)
sys.exit(1 if failures else 0)
