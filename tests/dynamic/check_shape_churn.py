#!/usr/bin/python3
"""Shape-churn acceptance (issue 12): the GPT-style decoder (export_gpt.py), compiled once without --input_shape,
run N times at pseudo-random sequence lengths 1..256 through `ge run --vary=ids:1:1~256` (the first 100 runs as
warm-up): RSS at the end must be at most 5% above RSS after those 100 runs. When Node.js and onnxruntime-node are
installed (../shared/bench/README.md), ONNX Runtime runs the same model under ../shared/bench/ort_shape_churn.js
and its figure is printed for comparison (never a failure: ONNX Runtime is optional).

usage: check_shape_churn.py GE WORK_DIR [--runs N] [--max-growth-pct P] [--ort-script PATH] [--ort-dir DIR]
  --runs N      total runs including the 100 warm-up runs (default 2000, the issue's figure)
  --ort-dir DIR where onnxruntime-node is installed (default ~/.cache/ge-bench/ort)
Exit 0 on success, 1 on a failure, 77 (skipped) when torch/onnx are missing, `ge compile` fixes the sequence dim or
`ge run` does not know --vary yet.
"""
import argparse
import os
import shutil
import subprocess
import sys

from gpt_common import compile_dynamic, export, fail, last_json, run, skip

WARMUP = 100
MAX_LEN = 256


def ort_figure(script, ort_dir, model, runs):
    """ONNX Runtime's RSS growth on the same model; None (with a note printed) when it cannot run."""
    node = shutil.which("node")
    modules = os.path.join(ort_dir, "node_modules")
    if node is None or not os.path.isdir(os.path.join(modules, "onnxruntime-node")) or not os.path.exists(script):
        print(f"ONNX Runtime: not run (needs node, {modules}/onnxruntime-node and {script})")
        return None
    env = dict(os.environ, NODE_PATH=modules)
    try:
        p = subprocess.run([node, script, model, str(runs), str(MAX_LEN)], capture_output=True, text=True,
                           timeout=1200, env=env, cwd=ort_dir)
    except subprocess.TimeoutExpired:
        print("ONNX Runtime: timed out")
        return None
    report = last_json(p.stdout) if p.returncode == 0 else None
    if report is None:
        print(f"ONNX Runtime: failed (exit {p.returncode}): {(p.stdout + p.stderr).strip()[-300:]}")
        return None
    return report


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("ge")
    ap.add_argument("work")
    ap.add_argument("--runs", type=int, default=2000)
    ap.add_argument("--max-growth-pct", type=float, default=5.0)
    ap.add_argument("--ort-script", default=os.path.normpath(
        os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "shared", "bench",
                     "ort_shape_churn.js")))
    ap.add_argument("--ort-dir", default=os.path.expanduser("~/.cache/ge-bench/ort"))
    args = ap.parse_args()
    if args.runs <= WARMUP:
        fail(f"--runs must be above the {WARMUP} warm-up runs")
    shutil.rmtree(args.work, ignore_errors=True)
    os.makedirs(args.work)
    model_dir = export(args.work)
    onnx_path = os.path.join(model_dir, "gpt.onnx")
    om = os.path.join(args.work, "gpt.om")
    compile_dynamic(args.ge, onnx_path, om)

    cmd = [args.ge, "run", f"--model={om}", f"--vary=ids:1:1~{MAX_LEN}", f"--warmup={WARMUP}",
           f"--loop={args.runs - WARMUP}", "--json"]
    p = run(cmd, timeout=3600)
    text = p.stdout + p.stderr
    if p.returncode != 0:
        if "vary" in text and any(w in text.lower() for w in ("unknown flag", "not supported", "unimplemented")):
            skip(f"ge run does not support --vary yet ({text.strip().splitlines()[-1]})")
        fail(f"{' '.join(cmd)} exited {p.returncode}\n{text.strip()[-800:]}")
    report = last_json(p.stdout)
    if report is None or "rss_after_warmup_mb" not in report or "rss_end_mb" not in report:
        fail(f"ge run --vary --json printed no rss_after_warmup_mb / rss_end_mb: {p.stdout.strip()[-400:]}")
    warm, end = float(report["rss_after_warmup_mb"]), float(report["rss_end_mb"])
    growth = 100.0 * (end - warm) / warm
    timing = f", median {report['median_ms']} ms per run" if "median_ms" in report else ""
    print(f"ge: {args.runs} runs at lengths 1..{MAX_LEN}: RSS {warm:.1f} MB after {WARMUP} runs, {end:.1f} MB at "
          f"the end ({growth:+.2f}%){timing}")

    ort = ort_figure(args.ort_script, args.ort_dir, onnx_path, args.runs - 20)
    if ort is not None:
        print(f"ONNX Runtime {args.runs} runs (20 warm-up) at lengths 1..{MAX_LEN}: RSS "
              f"{ort['rss_after_warmup_mb']:.1f} MB after warm-up, {ort['rss_end_mb']:.1f} MB at the end "
              f"({ort['growth_pct']:+.2f}%), {ort['ms_per_run']:.2f} ms per run")

    if growth > args.max_growth_pct:
        fail(f"RSS grew {growth:.2f}% after the first {WARMUP} runs (limit {args.max_growth_pct}%)")
    print(f"PASS: RSS growth {growth:+.2f}% <= {args.max_growth_pct}%")
    return 0


if __name__ == "__main__":
    sys.exit(main())
