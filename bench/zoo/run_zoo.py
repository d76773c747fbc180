#!/usr/bin/python3
"""`make bench-zoo`: the zoo (bench/zoo/models.py, 50 architectures) as a benchmark. Each model is exported once with
Debian's PyTorch (random weights, seed 0; opset 17) into OUT/zoo/, with its inputs and PyTorch's outputs; then
compiled with `ge compile`, run with `ge run` (its outputs against PyTorch's: relative L2 <= 1e-4 for each), profiled
(`ge run --profile`: the share of kernel time on reference kernels) and timed beside ONNX Runtime (onnxruntime-node,
wall-clock per run into pre-allocated outputs after a warm-up; alternating rounds, best median each). Writes OUT/zoo.md and OUT/zoo.json:
per model correctness, ORT/ge, ref share, load time of both, peak RSS of both; and a summary line.
usage: run_zoo.py [--ge build/bin/ge] [--out build/bench] [--threads 2] [--iters 10] [--rounds 2] [--list]
                  [name-or-family ...]   (none: every model)"""
import argparse
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
BENCH = os.path.dirname(HERE)


def export(name, builder, d):
    """Writes d/NAME.onnx, NAME.in{i}.npy and NAME.ref{i}.npy once; returns (input names, number of outputs)."""
    meta_path = os.path.join(d, name + ".meta.json")
    if os.path.exists(meta_path):
        return json.load(open(meta_path))
    import torch
    torch.manual_seed(0)
    model, inputs, dynamic = builder()
    names = list(dynamic) if dynamic else [f"x{i}" for i in range(len(inputs))]
    with torch.no_grad():
        ref = model(*inputs)
    refs = list(ref) if isinstance(ref, (tuple, list)) else [ref]
    outs = [f"y{i}" for i in range(len(refs))]
    torch.onnx.export(model, inputs, os.path.join(d, name + ".onnx"), opset_version=17, input_names=names,
                      output_names=outs, dynamic_axes=dynamic, do_constant_folding=True)
    for i, x in enumerate(inputs):
        np.save(os.path.join(d, f"{name}.in{i}.npy"), x.numpy())
    for i, r in enumerate(refs):
        np.save(os.path.join(d, f"{name}.ref{i}.npy"), r.detach().numpy())
    meta = {"inputs": names, "outputs": len(refs)}
    json.dump(meta, open(meta_path, "w"))
    return meta


def last_json(text):
    for line in reversed(text.strip().splitlines()):
        if line.startswith("{"):
            return json.loads(line)
    raise RuntimeError("no JSON line: " + text[-300:])


def run(cmd, env=None, want_stderr=False):
    r = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=1800)
    if r.returncode != 0:
        raise RuntimeError(((r.stderr or r.stdout).strip().splitlines() or ["exit %d" % r.returncode])[-1][-300:])
    return (r.stdout, r.stderr) if want_stderr else r.stdout


def ref_share(profile_stderr):
    """The share of kernel time on reference kernels from `ge run --profile`'s per-implementation lines."""
    share = 0.0
    for m in re.finditer(r"^\s+[\d.]+ ms\s+([\d.]+)%\s+\S+ (\S+) \(\d+ nodes\)", profile_stderr, re.M):
        impl = m.group(2)
        if impl == "ref" or impl.startswith("ref") or "(ref" in impl or ":ref" in impl:
            share += float(m.group(1)) / 100
    return share


def bench_model(name, family, builder, a, env, tmp):
    d = os.path.join(a.out, "zoo")
    r = {"model": name, "family": family}
    meta = export(name, builder, d)
    src = os.path.join(d, name)
    om = os.path.join(tmp, name + ".om")
    out_dir = os.path.join(tmp, name + ".out")
    compiled = last_json(run([a.ge, "compile", f"--model={src}.onnx", f"--output={om}", f"--threads={a.threads}",
                              "--json"]))
    r["dynamic"] = not compiled.get("static", True)
    inputs = [f"--input={n}={src}.in{i}.npy" for i, n in enumerate(meta["inputs"])]
    ge_cmd = [a.ge, "run", f"--model={om}", f"--loop={a.iters}", "--warmup=3", f"--threads={a.threads}",
              "--json"] + inputs
    ge_runs, ort_runs = [], []
    for i in range(a.rounds):
        try:
            o = last_json(run(["node", os.path.join(BENCH, "ort_bench.js"), src + ".onnx", str(a.iters),
                               str(a.threads), f"{src}.in0.npy"], env=env))
            ort_runs.append(o)
        except RuntimeError as e:  # ONNX Runtime's failure is not ge's
            r["ort_error"] = str(e)
        ge_runs.append(last_json(run(ge_cmd + ([f"--output_dir={out_dir}"] if i == 0 else []))))
    errs = []
    for i in range(meta["outputs"]):
        got = np.load(os.path.join(out_dir, f"y{i}.npy")).astype(np.float64)
        want = np.load(f"{src}.ref{i}.npy").astype(np.float64)
        errs.append(float(np.linalg.norm(got - want) / max(np.linalg.norm(want), 1e-30))
                    if got.shape == want.shape else math.inf)
    r["rel_err"] = max(errs)
    r["correct"] = bool(np.isfinite(r["rel_err"]) and r["rel_err"] <= 1e-4)
    r["ge_ms"] = min(g["median_ms"] for g in ge_runs)
    r["ge_load_ms"] = min(g["load_ms"] for g in ge_runs)
    r["ge_rss_mb"] = min(g["peak_rss_mb"] for g in ge_runs)
    _, prof = run(ge_cmd[:3] + ["--loop=3", f"--threads={a.threads}", "--profile", "--profile_nodes=0"] + inputs,
                  want_stderr=True)
    r["ref_share"] = ref_share(prof)
    if ort_runs:
        r["ort_ms"] = min(o["median_ms"] for o in ort_runs)
        r["ort_load_ms"] = min(o["load_ms"] for o in ort_runs)
        if all("rss_mb" in o for o in ort_runs):
            r["ort_rss_mb"] = min(o["rss_mb"] for o in ort_runs)
        r["ratio"] = r["ort_ms"] / r["ge_ms"]
        r["load_ratio"] = r["ort_load_ms"] / r["ge_load_ms"]
    return r


def geomean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ge", default="build/bin/ge")
    ap.add_argument("--out", default="build/bench")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--iters", type=int, default=10)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--list", action="store_true")
    ap.add_argument("only", nargs="*", help="model names or families (default: all)")
    a = ap.parse_args()
    sys.path.insert(0, HERE)
    from models import ZOO
    todo = [(n, f, b) for n, (f, b) in ZOO.items() if not a.only or n in a.only or f in a.only]
    if a.list:
        for n, f, _ in todo:
            print(f"{f:16} {n}")
        return 0
    ort_modules = os.environ.get("ORT_NODE_MODULES", os.path.expanduser("~/.cache/ge-bench/ort/node_modules"))
    if not (shutil.which("node") and os.path.isdir(os.path.join(ort_modules, "onnxruntime-node"))):
        sys.exit("run_zoo.py: onnxruntime-node is needed (make bench-ort)")
    env = dict(os.environ, NODE_PATH=ort_modules)
    os.makedirs(os.path.join(a.out, "zoo"), exist_ok=True)
    tmp = tempfile.mkdtemp(prefix="ge_zoo_")
    print(f"zoo: {len(todo)} models, {a.threads} threads, {a.iters} iterations, best median of {a.rounds}", flush=True)
    results = []
    for name, family, builder in todo:
        try:
            r = bench_model(name, family, builder, a, env, tmp)
            ort = (f"ORT {r['ort_ms']:8.2f} ms ORT/ge {r['ratio']:5.2f} load x{r['load_ratio']:5.1f}"
                   if "ratio" in r else "ORT -")
            print(f"{name:28} {'ok  ' if r['correct'] else 'FAIL'} err {r['rel_err']:.1e}  ge {r['ge_ms']:8.2f} ms  "
                  f"{ort}  ref {r['ref_share']:4.0%}  load {r['ge_load_ms']:6.1f} ms  RSS {r['ge_rss_mb']:6.1f} MB",
                  flush=True)
        except Exception as e:  # noqa: BLE001 - one model's failure is reported, the rest still run
            r = {"model": name, "family": family, "correct": False, "error": str(e)}
            print(f"{name:28} FAILED: {e}", flush=True)
        results.append(r)
        shutil.rmtree(os.path.join(tmp, name + ".out"), ignore_errors=True)
        if os.path.exists(os.path.join(tmp, name + ".om")):
            os.remove(os.path.join(tmp, name + ".om"))
    shutil.rmtree(tmp, ignore_errors=True)
    timed = [r for r in results if "ratio" in r]
    ratios = [r["ratio"] for r in timed]
    correct = sum(1 for r in results if r.get("correct"))
    summary = (f"{len(results)} models: {correct} correct; ORT/ge geometric mean {geomean(ratios):.2f}, minimum "
               f"{min(ratios, default=float('nan')):.2f} over {len(timed)} timed; "
               f"{sum(1 for r in timed if r['ratio'] < 0.9)} below 0.9; "
               f"{sum(1 for r in results if r.get('ref_share', 0) > 0.02)} with more than 2% on reference kernels; "
               f"load ORT/ge geometric mean {geomean([r['load_ratio'] for r in timed]):.1f}")
    print(summary)
    lines = ["| model | family | correct (rel L2) | ge ms | ORT ms | ORT/ge | ref share | ge load ms | ORT load ms | "
             "ge RSS MB | ORT RSS MB |", "|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in sorted(results, key=lambda r: r.get("ratio", -1)):
        if "error" in r:
            lines.append(f"| {r['model']} | {r['family']} | failed: {r['error'][:120]} |||||||||")
            continue
        f = lambda k, fmt: (fmt % r[k]) if k in r else "-"  # noqa: E731
        lines.append(f"| {r['model']} | {r['family']} | {'yes' if r['correct'] else 'NO'} ({r['rel_err']:.1e}) | "
                     f"{r['ge_ms']:.2f} | {f('ort_ms', '%.2f')} | {f('ratio', '%.2f')} | {r['ref_share']:.0%} | "
                     f"{r['ge_load_ms']:.1f} | {f('ort_load_ms', '%.1f')} | {r['ge_rss_mb']:.0f} | "
                     f"{f('ort_rss_mb', '%.0f')} |")
    with open(os.path.join(a.out, "zoo.md"), "w") as fh:
        fh.write("# The zoo: ge vs ONNX Runtime\n\n" + summary + "\n\n" + "\n".join(lines) + "\n")
    with open(os.path.join(a.out, "zoo.json"), "w") as fh:
        json.dump({"threads": a.threads, "iters": a.iters, "summary": summary, "models": results}, fh, indent=1)
    return 0 if correct == len(results) else 1


if __name__ == "__main__":
    sys.exit(main())
