#!/usr/bin/python3
"""`make bench`: compiles the benchmark models with `ge compile`, runs them with `ge run --json`, checks ge's output
against PyTorch's, and, where onnxruntime-node is installed, times ONNX Runtime on the same models alternating with
ge. Prints a table and writes OUT/results.json. Exits 1 if a model fails to compile or run, or if its relative L2
error against PyTorch exceeds 1e-4 (2e-2 when the compile options contain allow_bf16).
usage: run_bench.py --ge build/bin/ge --out build/bench [--models "a b"] [--threads T] [--iters N] [--options="..."]
       [--neighbour [--neighbour_threads N]] (each model timed again beside bench/neighbour.py)"""
import argparse
import json
import math
import os
import shlex
import shutil
import subprocess
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ALL_MODELS = ("resnet18 resnet50 mobilenet_v2 squeezenet tinybert mlp efficientnet_b0 densenet121 googlenet "
              "shufflenet_v2")
ORT_INSTALL = ("mkdir -p ~/.cache/ge-bench/ort && cd ~/.cache/ge-bench/ort && npm init -y >/dev/null && "
               "npm install --ignore-scripts onnxruntime-node@1.30.0")


def run(cmd, env=None):
    """Runs cmd; returns its stdout, raises RuntimeError with the end of its stderr if it fails."""
    r = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=1800)
    if r.returncode != 0:
        msg = (r.stderr.strip() or r.stdout.strip() or f"{cmd[0]} exited with {r.returncode}").splitlines()[-1]
        raise RuntimeError(msg[-300:])
    return r.stdout


def last_json(text):
    for line in reversed(text.strip().splitlines()):
        if line.strip().startswith("{"):
            return json.loads(line)
    raise RuntimeError("no JSON line in output: " + text[-200:])


def rel_l2(got_path, ref_path):
    got, ref = np.load(got_path).astype(np.float64), np.load(ref_path).astype(np.float64)
    if got.shape != ref.shape:
        raise RuntimeError(f"output shape {got.shape} != PyTorch's {ref.shape}")
    return float(np.linalg.norm(got - ref) / max(np.linalg.norm(ref), 1e-30))


def bench_model(name, a, models_dir, ort_env):
    """Returns a result dict for one model; raises on a ge failure."""
    src, om = os.path.join(models_dir, name), os.path.join(a.out, name + ".om")
    out_dir = os.path.join(a.out, name + ".out")
    compiled = last_json(run([a.ge, "compile", f"--model={src}.onnx", f"--output={om}", f"--threads={a.threads}",
                              "--json"] + shlex.split(a.options)))
    refs = {k: n for k, n in compiled.get("impls", {}).items() if "(ref" in k or ":ref" in k or "simple_nchw" in k}
    if refs:
        raise RuntimeError(f"kernels resolve to reference implementations: {refs}")
    ge_cmd = [a.ge, "run", f"--model={om}", f"--input={src}.in.npy", f"--loop={a.iters}", "--warmup=3",
              f"--threads={a.threads}", "--json"]
    res = {"model": name, "target": compiled.get("target"), "impls": compiled.get("impls", {})}
    ge_runs, ort_runs, ort_env = time_both(a, src, ge_cmd, ort_env, res, out_dir)
    outputs = ge_runs[0].get("outputs") or [{"name": "output"}]
    res["rel_err"] = rel_l2(os.path.join(out_dir, outputs[0]["name"] + ".npy"), src + ".ref.npy")
    res["ge_engine"] = ge_runs[0].get("engine")
    res["ge_load_ms"] = min(r["load_ms"] for r in ge_runs)
    res["ge_median_ms"] = min(r["median_ms"] for r in ge_runs)
    if ort_runs:
        res["ort_load_ms"] = min(r["load_ms"] for r in ort_runs)
        res["ort_median_ms"] = min(r["median_ms"] for r in ort_runs)
        res["ratio"] = res["ort_median_ms"] / res["ge_median_ms"]
    if a.neighbour:
        neighbour = subprocess.Popen([sys.executable, os.path.join(HERE, "neighbour.py"), str(a.neighbour_threads)])
        try:
            time.sleep(1.0)  # the neighbour reaches full speed first
            busy_ge, busy_ort, _ = time_both(a, src, ge_cmd, ort_env, res, None)
        finally:
            neighbour.kill()
            neighbour.wait()
        res["busy_ge_median_ms"] = min(r["median_ms"] for r in busy_ge)
        res["ge_slowdown"] = res["busy_ge_median_ms"] / res["ge_median_ms"]
        if busy_ort and "ort_median_ms" in res:
            res["busy_ort_median_ms"] = min(r["median_ms"] for r in busy_ort)
            res["ort_slowdown"] = res["busy_ort_median_ms"] / res["ort_median_ms"]
            res["busy_ratio"] = res["busy_ort_median_ms"] / res["busy_ge_median_ms"]
            res["slowdown_vs_ort"] = res["ge_slowdown"] / res["ort_slowdown"]
    return res


def time_both(a, src, ge_cmd, ort_env, res, out_dir):
    """a.rounds alternating runs of ONNX Runtime and ge (load on a shared machine hits both alike); ge's first run
    writes its outputs to out_dir when given. Returns (ge_runs, ort_runs, ort_env): ort_env None after ORT failed."""
    ge_runs, ort_runs = [], []
    for i in range(a.rounds):
        if ort_env is not None:
            try:
                ort_runs.append(last_json(run(["node", os.path.join(HERE, "ort_bench.js"), src + ".onnx",
                                               str(a.iters), str(a.threads), src + ".in.npy"], env=ort_env)))
            except RuntimeError as e:  # ONNX Runtime's failure is not ge's: report it, keep going
                res["ort_error"] = str(e)
                ort_env = None
        ge_runs.append(last_json(run(ge_cmd + ([f"--output_dir={out_dir}"] if i == 0 and out_dir else []))))
    return ge_runs, ort_runs, ort_env


# What scripts/as_cpu.sh hides of /proc/cpuinfo's flags (it masks CPUID, not /proc/cpuinfo).
MASKED_FLAGS = {"x86-64-v3": ("avx512", "amx"), "x86-64-v2": ("avx512", "amx", "avx", "fma", "f16c")}


def cpu_description():
    """The CPU the figures come from: model name, the ISA flags that decide kernels, any oneDNN cap and any CPUID mask
    (scripts/as_cpu.sh, which exports GE_CPU_MASK)."""
    model, flags = "unknown", set()
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name") and model == "unknown":
                model = line.split(":", 1)[1].strip()
            elif line.startswith("flags"):
                flags = set(line.split(":", 1)[1].split())
                break
    except OSError:
        pass
    isa = [f for f in ("sse4_2", "avx", "avx2", "fma", "f16c", "avx512f", "avx512bw", "avx512vl", "avx512_vnni",
                       "avx512_bf16", "amx_tile") if f in flags]
    mask = os.environ.get("GE_CPU_MASK", "") if os.environ.get("LD_AUDIT") else ""
    if mask:
        isa = [f for f in isa if not f.startswith(MASKED_FLAGS.get(mask, ()))]
    return {"model": model, "isa": isa, "onednn_max_cpu_isa": os.environ.get("ONEDNN_MAX_CPU_ISA", ""),
            "cpu_mask": mask}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ge", default="build/bin/ge")
    ap.add_argument("--out", default="build/bench")
    ap.add_argument("--models", default=ALL_MODELS, help="space-separated names (default: all six)")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--iters", type=int, default=30)
    ap.add_argument("--rounds", type=int, default=2, help="alternating ORT/ge rounds; the best median counts")
    ap.add_argument("--neighbour", action="store_true",
                    help="also time every model with a neighbour process on the CPU (bench/neighbour.py)")
    ap.add_argument("--neighbour_threads", type=int, default=2)
    ap.add_argument("--options", default="", help='extra `ge compile` flags: --options="--precision_mode=allow_bf16 ..."')
    a = ap.parse_args()
    names = a.models.split() or ALL_MODELS.split()
    if not (os.path.isfile(a.ge) and os.access(a.ge, os.X_OK)):
        sys.exit(f"run_bench.py: no ge binary at {a.ge} (build it first: make build)")
    tol = 2e-2 if "allow_bf16" in a.options else 1e-4
    models_dir = os.path.join(a.out, "models")
    os.makedirs(models_dir, exist_ok=True)
    if subprocess.run([sys.executable, os.path.join(HERE, "export_models.py"), models_dir] + names).returncode:
        return 1

    ort_modules = os.environ.get("ORT_NODE_MODULES", os.path.expanduser("~/.cache/ge-bench/ort/node_modules"))
    have_ort = shutil.which("node") and os.path.isdir(os.path.join(ort_modules, "onnxruntime-node"))
    ort_env = dict(os.environ, NODE_PATH=ort_modules) if have_ort else None

    cpu = cpu_description()
    print(f"ge benchmark: threads {a.threads}, {a.iters} iterations, best median of {a.rounds} round(s)"
          + (f", options {a.options}" if a.options else ""), flush=True)
    print(f"CPU: {cpu['model']}, ISA {' '.join(cpu['isa'])}"
          + (f", ONEDNN_MAX_CPU_ISA={cpu['onednn_max_cpu_isa']}" if cpu["onednn_max_cpu_isa"] else "")
          + (f", CPUID masked to {cpu['cpu_mask']} for ge and ONNX Runtime (scripts/as_cpu.sh)" if cpu["cpu_mask"]
             else ""), flush=True)
    print(f"{'model':14} {'ge load ms':>10} {'ge median ms':>12} {'ORT median ms':>13} {'ort/ge':>7}"
          f" {'rel err vs PyTorch':>18}", flush=True)
    results, failed = [], []
    for name in names:
        try:
            r = bench_model(name, a, models_dir, ort_env)
            r["ok"] = math.isfinite(r["rel_err"]) and r["rel_err"] <= tol
            ort = f"{r['ort_median_ms']:13.3f} {r['ratio']:7.2f}" if "ratio" in r else f"{'-':>13} {'-':>7}"
            print(f"{name:14} {r['ge_load_ms']:10.1f} {r['ge_median_ms']:12.3f} {ort} {r['rel_err']:18.2e}"
                  + ("" if r["ok"] else f"  > {tol:g} FAILED"), flush=True)
            if "busy_ratio" in r:
                print(f"{'':14} with a neighbour: ge {r['busy_ge_median_ms']:.3f} ms (x{r['ge_slowdown']:.2f}), ORT "
                      f"{r['busy_ort_median_ms']:.3f} ms (x{r['ort_slowdown']:.2f}), ort/ge {r['busy_ratio']:.2f}",
                      flush=True)
            elif "ge_slowdown" in r:
                print(f"{'':14} with a neighbour: ge {r['busy_ge_median_ms']:.3f} ms (x{r['ge_slowdown']:.2f})", flush=True)
            if "ort_error" in r:
                print(f"  ONNX Runtime failed: {r['ort_error']}")
        except Exception as e:  # noqa: BLE001 - any failure of one model is reported, the rest still run
            r = {"model": name, "ok": False, "error": str(e)}
            print(f"{name:14} FAILED: {e}", flush=True)
        results.append(r)
        if not r["ok"]:
            failed.append(name)

    ratios = [r["ratio"] for r in results if "ratio" in r]
    summary = {"cpu": cpu, "neighbour_threads": a.neighbour_threads if a.neighbour else 0, "threads": a.threads, "iters": a.iters, "rounds": a.rounds, "options": a.options,
               "tolerance": tol, "models": results}
    if results and results[0].get("target"):
        summary["target"] = results[0]["target"]
    if ratios:
        summary["geomean_ratio"] = math.exp(sum(map(math.log, ratios)) / len(ratios))
        summary["min_ratio"] = min(ratios)
        print(f"ort/ge ratio (above 1: ge is faster): geometric mean {summary['geomean_ratio']:.2f}, "
              f"minimum {summary['min_ratio']:.2f}, over {len(ratios)} models")
    busy = [r["busy_ratio"] for r in results if "busy_ratio" in r]
    if busy:
        summary["busy_geomean_ratio"] = math.exp(sum(map(math.log, busy)) / len(busy))
        summary["busy_min_ratio"] = min(busy)
        summary["max_slowdown_vs_ort"] = max(r["slowdown_vs_ort"] for r in results if "slowdown_vs_ort" in r)
        print(f"with a {a.neighbour_threads}-thread neighbour: ort/ge geometric mean {summary['busy_geomean_ratio']:.2f}, "
              f"minimum {summary['busy_min_ratio']:.2f}; ge's slowdown / ORT's at most "
              f"{summary['max_slowdown_vs_ort']:.2f}")
    if not ratios and not have_ort:
        print(f"ONNX Runtime side by side: `make bench-ort` or: {ORT_INSTALL}")
    with open(os.path.join(a.out, "results.json"), "w") as f:
        json.dump(summary, f, indent=1)
    if failed:
        print(f"FAILED: {' '.join(failed)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
