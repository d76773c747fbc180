#!/usr/bin/python3
"""Single-op cost: an Add of two 16-float tensors per call in ge (`ge run-op --json`: the static form, prepared once,
and the dynamic form, descs per call through a kernel cache) and in ONNX Runtime running a one-node ONNX model of
the same Add (onnx.helper), on the same inputs, one thread each, median per call over timed batches.

ONNX Runtime from Python when `import onnxruntime` works (plain `run` and `run_with_iobinding`, the cheapest
Python call); otherwise that is said, and onnxruntime-node is used where it is installed (ORT_NODE_MODULES, or
~/.cache/ge-bench/ort/node_modules as `make bench-ort` installs it; bench/README.md): its `run` is asynchronous, so
its figure includes Node's promise and N-API overhead and is an upper bound for ORT itself. Without either, only
ge is measured. Timings on a shared machine drift: compare figures from one run.

usage: bench/single_op_ort.py [--ge build/bin/ge] [--iters 200000] [--size 16] [--work DIR]"""
import argparse
import importlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

import numpy as np
import onnx
from onnx import TensorProto, helper

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BATCHES = 100


def make_model(path, n):
    a = helper.make_tensor_value_info("A", TensorProto.FLOAT, [n])
    b = helper.make_tensor_value_info("B", TensorProto.FLOAT, [n])
    c = helper.make_tensor_value_info("C", TensorProto.FLOAT, [n])
    graph = helper.make_graph([helper.make_node("Add", ["A", "B"], ["C"])], "single_add", [a, b], [c])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], producer_name="single_op_ort")
    model.ir_version = 8
    onnx.checker.check_model(model)
    onnx.save(model, path)


def per_call_us(call, iters, warmup=1000):
    """Median and minimum microseconds per call over BATCHES timed batches of iters/BATCHES calls."""
    for _ in range(warmup):
        call()
    n = max(1, iters // BATCHES)
    times = []
    for _ in range(BATCHES):
        t0 = time.perf_counter_ns()
        for _ in range(n):
            call()
        times.append((time.perf_counter_ns() - t0) / n / 1000.0)
    times.sort()
    return times[len(times) // 2], times[0]


def ort_python(model, a, b, iters, want):
    # Optional, not a dependency of the project: imported by name so that tests/deps does not require it.
    try:
        ort = importlib.import_module("onnxruntime")
    except ImportError as e:
        print(f"ONNX Runtime (Python): not available ({e}); skipped")
        return None
    so = ort.SessionOptions()
    so.intra_op_num_threads = 1
    so.inter_op_num_threads = 1
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    sess = ort.InferenceSession(model, so, providers=["CPUExecutionProvider"])
    feeds = {"A": a, "B": b}
    got = sess.run(None, feeds)[0]
    assert np.array_equal(got, want), "ONNX Runtime's Add differs from numpy"
    out = {"version": ort.__version__}
    out["run_median_us"], out["run_min_us"] = per_call_us(lambda: sess.run(None, feeds), iters)
    binding = sess.io_binding()
    binding.bind_cpu_input("A", a)
    binding.bind_cpu_input("B", b)
    c = np.empty_like(a)
    binding.bind_output("C", "cpu", 0, np.float32, list(c.shape), c.ctypes.data)
    out["iobinding_median_us"], out["iobinding_min_us"] = per_call_us(lambda: sess.run_with_iobinding(binding),
                                                                      iters)
    return out


ORT_NODE_LOOP = r"""
const ort = require(process.env.ORT_NODE);
async function main() {
  const [model, itersS, n] = process.argv.slice(2);
  const iters = parseInt(itersS), size = parseInt(n), batches = %d;
  const sess = await ort.InferenceSession.create(model, {executionProviders: ['cpu'], intraOpNumThreads: 1,
      interOpNumThreads: 1, graphOptimizationLevel: 'all'});
  const a = new Float32Array(size), b = new Float32Array(size);
  for (let i = 0; i < size; i++) { a[i] = Math.sin(i); b[i] = Math.cos(i); }
  const feeds = {A: new ort.Tensor('float32', a, [size]), B: new ort.Tensor('float32', b, [size])};
  for (let i = 0; i < 1000; i++) await sess.run(feeds);
  const per = Math.max(1, Math.floor(iters / batches)), times = [];
  for (let k = 0; k < batches; k++) {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < per; i++) await sess.run(feeds);
    times.push(Number(process.hrtime.bigint() - t0) / per / 1000);
  }
  times.sort((x, y) => x - y);
  console.log(JSON.stringify({median_us: times[times.length >> 1], min_us: times[0]}));
}
main().catch(e => { console.error(e); process.exit(1); });
""" % BATCHES


def ort_node(model, iters, size, work):
    modules = os.environ.get("ORT_NODE_MODULES", os.path.expanduser("~/.cache/ge-bench/ort/node_modules"))
    pkg = os.path.join(modules, "onnxruntime-node")
    node = shutil.which("node")
    if node is None or not os.path.isdir(pkg):
        print("ONNX Runtime (Node.js): onnxruntime-node not installed (see bench/README.md); skipped")
        return None
    script = os.path.join(work, "ort_loop.js")
    with open(script, "w") as f:
        f.write(ORT_NODE_LOOP)
    r = subprocess.run([node, script, model, str(iters), str(size)], capture_output=True, text=True, timeout=600,
                       env=dict(os.environ, ORT_NODE=pkg))
    if r.returncode != 0:
        print(f"ONNX Runtime (Node.js): failed: {r.stderr.strip()[-400:]}")
        return None
    with open(os.path.join(pkg, "package.json")) as f:
        version = json.load(f).get("version", "?")
    return dict(json.loads(r.stdout.strip().splitlines()[-1]), version=version)


def ge_run_op(ge, a_path, b_path, iters, work, want):
    out_dir = os.path.join(work, "ge_out")
    r = subprocess.run([ge, "run-op", "--op=Add", f"--input={a_path}", f"--input={b_path}", f"--loop={iters}",
                        "--warmup=1000", f"--output_dir={out_dir}", "--json"], capture_output=True, text=True,
                       timeout=600)
    if r.returncode != 0:
        sys.exit(f"ge run-op failed: {r.stderr.strip()}")
    got = np.load(os.path.join(out_dir, "C.npy"))
    assert np.array_equal(got, want), "ge's Add differs from numpy"
    return json.loads(r.stdout.strip().splitlines()[-1])


def cpu_model():
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    return "?"


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--ge", default=os.path.join(ROOT, "build", "bin", "ge"))
    p.add_argument("--iters", type=int, default=200000)
    p.add_argument("--size", type=int, default=16)
    p.add_argument("--work", default=None)
    args = p.parse_args()
    work = args.work or tempfile.mkdtemp(prefix="single_op_ort_")
    os.makedirs(work, exist_ok=True)
    rng = np.random.default_rng(0)
    a = rng.standard_normal(args.size).astype(np.float32)
    b = rng.standard_normal(args.size).astype(np.float32)
    want = a + b
    a_path, b_path, model = (os.path.join(work, n) for n in ("a.npy", "b.npy", "add.onnx"))
    np.save(a_path, a)
    np.save(b_path, b)
    make_model(model, args.size)

    print(f"CPU: {cpu_model()}; Add of two {args.size}-float tensors, {args.iters} calls, 1 thread")
    g = ge_run_op(args.ge, a_path, b_path, args.iters, work, want)
    rows = [(f"ge static  (SingleOp, {g['impl']})", g["median_us"], g["min_us"]),
            ("ge dynamic (DynamicSingleOp, cached kernel)", g["dynamic_median_us"], g["dynamic_min_us"])]
    py = ort_python(model, a, b, args.iters, want)
    js = None
    if py is not None:
        rows.append((f"ONNX Runtime {py['version']} Python run()", py["run_median_us"], py["run_min_us"]))
        rows.append((f"ONNX Runtime {py['version']} Python run_with_iobinding()", py["iobinding_median_us"],
                     py["iobinding_min_us"]))
    else:
        js = ort_node(model, args.iters, args.size, work)
        if js is not None:
            rows.append((f"ONNX Runtime {js['version']} Node.js await run() (upper bound)", js["median_us"],
                         js["min_us"]))
    width = max(len(r[0]) for r in rows)
    print(f"{'':{width}}  median us/call  min us/call")
    for name, med, mn in rows:
        print(f"{name:{width}}  {med:14.3f}  {mn:11.3f}")
    for name, med, _ in rows[2:]:
        print(f"{name} / ge static: {med / g['median_us']:.0f}x")
    print(json.dumps({"ge": g, "ort_python": py, "ort_node": js}))


if __name__ == "__main__":
    main()
