#!/usr/bin/python3
"""`ge run --trace=FILE.json` and `ge compile --trace=FILE.json` write valid Chrome / Perfetto trace-event JSON:
every event has name, ph, ts, pid and tid, complete ("X") events a duration >= 0, metadata ("M") events name the
process and the tracks. Every kernel of the model appears exactly once per run (warmup runs included) on the sink
runtime (one track per stream) and on runtime v2 (one track per executor worker: the sequential executor's one, the
multi-thread executor's threads), and the kernels are exactly those `ge run --profile` counts; the load phases nest inside the load; the compile trace holds the parse, the passes and
the writing of the .om. Bad --trace values are clear errors.
usage: check_trace.py GE_BINARY WORKDIR SAMPLE_ONNX"""
import json
import os
import re
import subprocess
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

ge, work, sample = sys.argv[1], sys.argv[2], sys.argv[3]
os.makedirs(work, exist_ok=True)
failures = []
WARMUP, LOOP = 1, 3
RUNS = WARMUP + LOOP


def check(cond, what):
    if not cond:
        failures.append(what)
    return cond


def ge_cmd(args):
    return subprocess.run([ge] + args, capture_output=True, text=True, errors="replace", timeout=300)


def dynamic_model(path):
    """x[batch, 8] -> MatMul -> Relu -> Neg: symbolic batch, so it runs on runtime v2."""
    w = numpy_helper.from_array(np.random.default_rng(3).standard_normal((8, 4)).astype(np.float32), "w")
    nodes = [helper.make_node("MatMul", ["x", "w"], ["m"], name="mm \"quoted\""),
             helper.make_node("Relu", ["m"], ["r"], name="relu"),
             helper.make_node("Neg", ["r"], ["y"], name="neg")]
    g = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", 8])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["batch", 4])], [w])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])
    m.ir_version = 8
    onnx.save(m, path)


def branches_model(path):
    """Two independent MatMul/Relu chains joined by an Add: compiled with two streams, a branch on each."""
    rng = np.random.default_rng(5)
    inits, nodes = [], []
    for b in "ab":
        prev = "x"
        for i in range(3):
            w = numpy_helper.from_array(rng.standard_normal((32, 32)).astype(np.float32), f"{b}{i}_w")
            inits.append(w)
            nodes.append(helper.make_node("MatMul", [prev, w.name], [f"{b}{i}_m"], name=f"{b}_mm{i}"))
            nodes.append(helper.make_node("Relu", [f"{b}{i}_m"], [f"{b}{i}_r"], name=f"{b}_relu{i}"))
            prev = f"{b}{i}_r"
    nodes.append(helper.make_node("Add", ["a2_r", "b2_r"], ["y"], name="join"))
    g = helper.make_graph(nodes, "branches", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [32, 32])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [32, 32])], inits)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])
    m.ir_version = 8
    onnx.save(m, path)


def load_trace(path, what):
    try:
        with open(path) as f:
            doc = json.load(f)
    except (OSError, ValueError) as e:
        failures.append(f"{what}: {path} is not JSON: {e}")
        return []
    events = doc.get("traceEvents") if isinstance(doc, dict) else None
    if not check(isinstance(events, list) and events, f"{what}: no traceEvents array"):
        return []
    for e in events:
        ok = (isinstance(e, dict) and isinstance(e.get("name"), str) and e.get("ph") in ("X", "M") and
              isinstance(e.get("ts"), (int, float)) and isinstance(e.get("pid"), int) and isinstance(e.get("tid"), int))
        if not check(ok, f"{what}: malformed event {e}"):
            return []
        if e["ph"] == "X":
            check(isinstance(e.get("dur"), (int, float)) and e["dur"] >= 0, f"{what}: X event without dur >= 0: {e}")
        else:
            check(e["name"] in ("process_name", "thread_name", "thread_sort_index") and "args" in e,
                  f"{what}: unexpected metadata event {e}")
    named = {e["tid"] for e in events if e["ph"] == "M" and e["name"] == "thread_name"}
    for e in events:
        if e["ph"] == "X":
            check(e["tid"] in named, f"{what}: slice on an unnamed track {e['tid']}")
    check(any(e["ph"] == "M" and e["name"] == "process_name" for e in events), f"{what}: no process_name")
    return events


def profiled_kernels(stderr, what):
    m = re.search(r"kernel time per run: [0-9.]+ ms over (\d+) kernels", stderr)
    check(m is not None, f"{what}: --profile printed no kernel count: {stderr[-500:]}")
    return int(m.group(1)) if m else -1


def check_run(om, what, runtime, track_prefix, kernel_key, extra=()):
    """--profile counts the kernels of the sequential executors only (extra: other ge run flags, e.g. an executor)."""
    path = os.path.join(work, what + ".json")
    profile = ["--profile"] if not extra else []
    p = ge_cmd(["run", "--model=" + om, f"--warmup={WARMUP}", f"--loop={LOOP}", "--trace=" + path] + profile +
               list(extra))
    if not check(p.returncode == 0, f"{what}: ge run --trace failed: {p.stderr[-800:]}"):
        return []
    events = load_trace(path, what)
    tracks = {e["tid"]: e["args"]["name"] for e in events if e["ph"] == "M" and e["name"] == "thread_name"}
    slices = [e for e in events if e["ph"] == "X" and tracks.get(e["tid"], "").startswith(track_prefix)]
    check(slices, f"{what}: no slice on a '{track_prefix}' track ({tracks})")
    counts = {}
    for e in slices:
        key = kernel_key(e)
        counts[key] = counts.get(key, 0) + 1
    wrong = {k: n for k, n in counts.items() if n != RUNS}
    check(not wrong, f"{what}: kernels not traced exactly {RUNS} times (once per run): {wrong}")
    if profile:
        expected = profiled_kernels(p.stderr, what)
        check(len(counts) == expected, f"{what}: {len(counts)} distinct kernels traced, --profile counts {expected}")
    for e in slices:
        if e.get("cat") != "kernel":
            continue
        a = e.get("args", {})
        ok = all(k in a for k in ("node", "op", "impl", "inputs", "outputs", "bytes")) and a["impl"] != ""
        if not check(ok, f"{what}: kernel slice without node/op/impl/shapes/bytes args: {e}"):
            break
    # Load phases: nested inside the outermost load slice of the loading track.
    load = sorted((e for e in events if e["ph"] == "X" and e["tid"] == 0), key=lambda e: (e["ts"], -e["dur"]))
    check(any(runtime in e["name"] for e in load), f"{what}: no '{runtime}' load phase: {[e['name'] for e in load]}")
    if load:
        outer = load[0]
        for e in load[1:]:
            check(e["ts"] >= outer["ts"] and e["ts"] + e["dur"] <= outer["ts"] + outer["dur"] + 0.002,
                  f"{what}: load phase {e['name']} outside {outer['name']}")
    return events


def by_name(e):
    return e["name"]


def by_exec_node(e):
    return e.get("args", {}).get("exec_node", e["name"])


# Sink runtime: the sample CNN compiled static.
sink_om = os.path.join(work, "cnn.om")
p = ge_cmd(["compile", "--model=" + sample, "--output=" + sink_om, "--trace=" + os.path.join(work, "compile.json")])
if check(p.returncode == 0, f"ge compile --trace failed: {p.stderr}"):
    events = load_trace(os.path.join(work, "compile.json"), "compile")
    names = [e["name"] for e in events if e["ph"] == "X"]
    check(any(n.startswith("parse ") for n in names), f"compile: no parse slice: {names}")
    check(any(e.get("cat") == "pass" for e in events), "compile: no pass slices")
    for phase in ("formats, tuning, kernel selection", "plan streams and memory", "write the .om"):
        check(phase in names, f"compile: no '{phase}' slice: {names}")
    sink = check_run(sink_om, "sink", "SinkModel::Load", "stream ", by_name)
    info = json.loads(ge_cmd(["inspect", sink_om, "--json"]).stdout)
    kernels = {e["name"] for e in sink if e["ph"] == "X" and e.get("cat") == "kernel"}
    check(len(kernels) == info["tasks_by_type"].get("KERNEL", -1),
          f"sink: {len(kernels)} kernels traced, the .om has {info['tasks_by_type']} tasks")

# Two streams: a track each, every kernel once per run on its stream's track.
br_onnx, br_om = os.path.join(work, "branches.onnx"), os.path.join(work, "branches.om")
branches_model(br_onnx)
p = ge_cmd(["compile", "--model=" + br_onnx, "--output=" + br_om, "--option=ge.streamMaxParallelNum=2",
            "--option=ge.engine.dnnl=0"])
if check(p.returncode == 0, f"ge compile of the two-branch model failed: {p.stderr}"):
    streams = json.loads(ge_cmd(["inspect", br_om, "--json"]).stdout)["streams"]
    events = check_run(br_om, "sink_streams", "SinkModel::Load", "stream ", by_name)
    used = {e["tid"] for e in events if e["ph"] == "X" and e.get("cat") == "kernel"}
    check(streams == 2 and len(used) == 2, f"sink_streams: {streams} streams in the .om, kernels on tracks {used}")

# Runtime v2: the same CNN lowered (islands off, so that every node runs as its own kernel), and a model with a
# symbolic batch dim and an odd node name.
v2_om = os.path.join(work, "cnn_v2.om")
p = ge_cmd(["compile", "--model=" + sample, "--output=" + v2_om, "--runtime=v2",
            "--option=ge.exec.v2StaticIslandMinNodes=0"])
if check(p.returncode == 0, f"ge compile --runtime=v2 failed: {p.stderr}"):
    seq = check_run(v2_om, "v2", "ModelV2::Load", "executor worker ", by_exec_node)
    # The multi-thread executor: a track per thread that ran something, the same compute kernels once per run.
    mt = check_run(v2_om, "v2_multi_thread", "ModelV2::Load", "executor worker ", by_exec_node,
                   ["--option=ge.exec.v2Executor=multi_thread", "--threads=2"])
    kernels = [sum(1 for e in ev if e["ph"] == "X" and e.get("cat") == "kernel") for ev in (seq, mt)]
    check(kernels[0] == kernels[1] > 0, f"v2: kernel slices sequential vs multi-thread: {kernels}")
    check(len({e["tid"] for e in mt if e["ph"] == "X" and e["tid"] >= 200}) >= 2,
          "v2_multi_thread: slices on fewer than 2 worker tracks")
dyn_onnx, dyn_om = os.path.join(work, "dyn.onnx"), os.path.join(work, "dyn.om")
dynamic_model(dyn_onnx)
p = ge_cmd(["compile", "--model=" + dyn_onnx, "--output=" + dyn_om])
if check(p.returncode == 0, f"ge compile of the dynamic model failed: {p.stderr}"):
    events = check_run(dyn_om, "v2_dynamic", "ModelV2::Load", "executor worker ", by_exec_node)
    check(any(e.get("args", {}).get("node") == 'mm "quoted"' for e in events), "v2_dynamic: the quoted node name")

# Bad values.
p = ge_cmd(["run", "--model=" + sink_om, "--trace"])
check(p.returncode == 1 and "--trace=FILE.json" in p.stderr, f"--trace without a file: {p.returncode} {p.stderr}")
bad = os.path.join(work, "no_such_dir", "t.json")
p = ge_cmd(["run", "--model=" + sink_om, "--trace=" + bad])
check(p.returncode == 1 and bad in p.stderr, f"--trace into a missing directory: {p.returncode} {p.stderr}")
p = ge_cmd(["run", "--model=" + sample, "--trace=" + os.path.join(work, "onnx.json")])
check(p.returncode == 1 and "timeline" in p.stderr, f"--trace on the interpreter: {p.returncode} {p.stderr}")

for f in failures:
    print("FAIL:", f)
print(f"{'FAILED' if failures else 'OK'}: trace checks ({len(failures)} failures)")
sys.exit(1 if failures else 0)
