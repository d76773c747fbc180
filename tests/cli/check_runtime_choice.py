#!/usr/bin/python3
"""`ge compile --runtime=auto|v1|v2`: a static model compiled with --runtime=v2 is a lowered .om that runtime v2
runs with the same outputs as the compiled one; --runtime=v1 refuses a model with a symbolic dim, naming why and the
fix; a bad value is a clear error. `ge run --profile` on runtime v2 reports every Main kernel, `ge inspect`
counts an IR .om's ops and engines, `ge run --pipeline_stages` streams requests through stages, and `ge -h` prints
the usage.
usage: check_runtime_choice.py GE_BINARY WORKDIR"""
import json
import os
import subprocess
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

ge, work = sys.argv[1], sys.argv[2]
os.makedirs(work, exist_ok=True)
failures = []


def model(batch):
    rng = np.random.default_rng(3)
    w = numpy_helper.from_array(rng.standard_normal((8, 4)).astype(np.float32), "w")
    nodes = [helper.make_node("MatMul", ["x", "w"], ["m"], name="mm"),
             helper.make_node("Relu", ["m"], ["r"], name="relu"),
             helper.make_node("Neg", ["r"], ["y"], name="neg")]
    g = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [batch, 8])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [batch, 4])], [w])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])
    m.ir_version = 8
    return m


def ge_cmd(args):
    return subprocess.run([ge] + args, capture_output=True, text=True, errors="replace", timeout=120)


static_onnx, dyn_onnx = os.path.join(work, "static.onnx"), os.path.join(work, "dyn.onnx")
onnx.save(model(3), static_onnx)
onnx.save(model("n"), dyn_onnx)
x = np.linspace(-1, 1, 24, dtype=np.float32).reshape(3, 8)
np.save(os.path.join(work, "x.npy"), x)

outs = {}
for runtime, want_type in [("auto", "compiled"), ("v1", "compiled"), ("v2", "lowered")]:
    om = os.path.join(work, f"static_{runtime}.om")
    r = ge_cmd(["compile", f"--model={static_onnx}", f"--output={om}", f"--runtime={runtime}"])
    if r.returncode != 0:
        failures.append(f"--runtime={runtime}: rc {r.returncode}: {(r.stdout + r.stderr)[-300:]}")
        continue
    info = json.loads(ge_cmd(["inspect", om, "--json"]).stdout)
    if info.get("model_type") != want_type:
        failures.append(f"--runtime={runtime}: model_type {info.get('model_type')}, want {want_type}")
    out_dir = os.path.join(work, f"out_{runtime}")
    r = ge_cmd(["run", f"--model={om}", f"--input={work}/x.npy", f"--output_dir={out_dir}"])
    if r.returncode != 0:
        failures.append(f"run --runtime={runtime} model: rc {r.returncode}: {(r.stdout + r.stderr)[-300:]}")
        continue
    outs[runtime] = np.load(os.path.join(out_dir, "y.npy"))
    print(f"ok   --runtime={runtime}: {want_type} .om runs")
want = -np.maximum(x @ numpy_helper.to_array(model(3).graph.initializer[0]), 0)
for runtime, y in outs.items():
    if not np.allclose(y, want, rtol=1e-5, atol=1e-5):
        failures.append(f"--runtime={runtime}: outputs differ from numpy by {np.abs(y - want).max()}")

info = json.loads(ge_cmd(["inspect", os.path.join(work, "static_v2.om"), "--json"]).stdout or "{}")
# (the Relu is fused into the MatMul)
if info.get("ops") != {"FusedMatMul": 1, "Neg": 1} or sum(info.get("engines", {}).values()) != 2:
    failures.append(f"inspect of the lowered .om: ops {info.get('ops')}, engines {info.get('engines')}")
else:
    print(f"ok   inspect: ops {info['ops']}, engines {info['engines']}")

r = ge_cmd(["compile", f"--model={dyn_onnx}", f"--output={work}/dyn_v1.om", "--runtime=v1"])
msg = (r.stdout + r.stderr).strip()
if r.returncode <= 0 or "runtime v2" not in msg or "--input_shape" not in msg or os.path.exists(f"{work}/dyn_v1.om"):
    failures.append(f"--runtime=v1 on a symbolic dim: want a refusal naming runtime v2 and --input_shape, no .om: "
                    f"rc {r.returncode}: {msg[-300:]}")
else:
    print(f"ok   --runtime=v1 refused: {msg.splitlines()[-1][:150]}")
r = ge_cmd(["compile", f"--model={static_onnx}", f"--output={work}/bad.om", "--runtime=v3"])
msg = (r.stdout + r.stderr).strip()
if r.returncode <= 0 or "--runtime must be" not in msg:
    failures.append(f"--runtime=v3: want a clean error: rc {r.returncode}: {msg[-300:]}")

r = ge_cmd(["compile", f"--model={dyn_onnx}", f"--output={work}/dyn.om"])
r = ge_cmd(["run", f"--model={work}/dyn.om", f"--input={work}/x.npy", "--loop=5", "--profile"])
lines = r.stderr.splitlines()
if r.returncode != 0 or not any(l.startswith("kernel time per run") and "over 2 kernels" in l for l in lines) or \
        not any("FusedMatMul" in l for l in lines) or not any("Neg" in l for l in lines):
    failures.append(f"run --profile on runtime v2: rc {r.returncode}: {r.stderr[-500:]}")
else:
    print("ok   --profile on runtime v2: " + next(l for l in lines if l.startswith("kernel time per run")))

# A wrong input to a dynamic model is named with the model's symbolic dim; --threads on a compiled model is used
# (no note), on the interpreter it is noted as ignored.
np.save(os.path.join(work, "x_int.npy"), np.zeros((3, 8), np.int32))
r = ge_cmd(["run", f"--model={work}/dyn.om", f"--input={work}/x_int.npy"])
if r.returncode == 0 or "has dtype int32" not in r.stderr or "float32[n,8]" not in r.stderr:
    failures.append(f"wrong dtype into a dynamic model: want 'has dtype int32' and 'float32[n,8]': {r.stderr[-300:]}")
else:
    print("ok   a wrong input to a dynamic model names its symbolic dim: " + r.stderr.strip()[-90:])
r = ge_cmd(["run", f"--model={work}/dyn.om", f"--input={work}/x.npy", "--threads=2"])
r_onnx = ge_cmd(["run", f"--model={dyn_onnx}", f"--input={work}/x.npy", "--threads=2"])
if r.returncode != 0 or "is ignored" in r.stderr or r_onnx.returncode != 0 or \
        "--threads=2 is ignored: the interpreter runs on 1 thread" not in r_onnx.stderr:
    failures.append(f"--threads notes: .om rc {r.returncode} {r.stderr[-200:]}; onnx rc {r_onnx.returncode} "
                    f"{r_onnx.stderr[-200:]}")
else:
    print("ok   --threads is noted as ignored only on the interpreter")

# --pipeline_stages=2 on the lowered .om: the --loop requests stream through two stages as one batch; --json reports
# the stages and the batch time, and the outputs written are the last request's, as without the pipeline.
r = ge_cmd(["run", f"--model={work}/dyn.om", f"--input={work}/x.npy", "--loop=4", "--pipeline_stages=2", "--json",
            f"--output_dir={work}/pipe_out"])
try:
    report = json.loads(r.stdout.strip().splitlines()[-1]) if r.returncode == 0 else {}
except (ValueError, IndexError):
    report = {}
outs = report.get("outputs", [])
if r.returncode != 0 or report.get("pipeline_stages") != 2 or not report.get("batch_ms", 0) > 0 or \
        [o.get("name") for o in outs] != ["y"] or outs[0].get("shape") != [3, 4]:
    failures.append(f"run --pipeline_stages=2: rc {r.returncode}: {r.stdout[-300:]} {r.stderr[-300:]}")
else:
    print(f"ok   --pipeline_stages=2: batch_ms {report['batch_ms']}")

# ge -h and --help print the usage and succeed; ge without a command prints it and fails.
for args, rc in ((["-h"], 0), (["--help"], 0), ([], 2)):
    r = ge_cmd(args)
    if r.returncode != rc or "ge compile" not in r.stdout + r.stderr:
        failures.append(f"ge {' '.join(args)}: rc {r.returncode} (want {rc}) and the usage: {(r.stdout + r.stderr)[-200:]}")
    else:
        print(f"ok   ge {' '.join(args) or '(no command)'}: usage, rc {rc}")

for f in failures:
    print("FAIL", f)
sys.exit(1 if failures else 0)
