#!/usr/bin/python3
"""`make bench-dynamic`: a model compiled once without fixed lengths against the same model compiled at each length,
and against ONNX Runtime. The zoo's decoder (bench/zoo/models.py `decoder_rope_gqa`: RMSNorm, rotary embeddings,
grouped-query attention, SwiGLU; its token axis symbolic) is exported once (run_zoo.py's export), compiled without
--input_shape (a dynamic .om, runtime v2) and with --input_shape=ids:1,LEN for each length; at each length all three
run on the same random token ids (alternating rounds, best median each; ONNX Runtime by wall-clock as in the
zoo, its profiler costing more than a decoder's node takes): dynamic/static (target <= 1.15) and ORT/dynamic
(target > 1). Then shape churn: `ge run --vary=ids:1:1~256 --warmup=20 --loop=2000 --json` on the dynamic .om, whose
RSS growth after the warm-up (rss_end_mb / rss_after_warmup_mb - 1) is the churn figure (target <= 5%).
Writes OUT/dynamic.md and OUT/dynamic.json.
usage: dynamic.py [--ge build/bin/ge] [--out build/bench] [--threads 2] [--iters 100] [--rounds 3]
                  [--lengths 1,16,128,512] [--churn-loops 2000]"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
MODEL = "decoder_rope_gqa"


def last_json(text):
    for line in reversed(text.strip().splitlines()):
        if line.startswith("{"):
            return json.loads(line)
    raise RuntimeError("no JSON line in: " + text[-400:])


def run(cmd, env=None):
    r = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if r.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed ({r.returncode}): {r.stderr.strip()[-400:]}")
    return r.stdout


def ge_median(ge, om, inp, a):
    return last_json(run([ge, "run", f"--model={om}", f"--input={inp}", f"--loop={a.iters}", "--warmup=10",
                          f"--threads={a.threads}", "--json"]))["median_ms"]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ge", default="build/bin/ge")
    ap.add_argument("--out", default="build/bench")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--iters", type=int, default=100)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--lengths", default="1,16,128,512")
    ap.add_argument("--churn-loops", type=int, default=2000)
    a = ap.parse_args()
    ort_modules = os.environ.get("ORT_NODE_MODULES", os.path.expanduser("~/.cache/ge-bench/ort/node_modules"))
    if not (shutil.which("node") and os.path.isdir(os.path.join(ort_modules, "onnxruntime-node"))):
        sys.exit("dynamic.py: onnxruntime-node is needed (make bench-ort)")
    env = dict(os.environ, NODE_PATH=ort_modules)
    sys.path.insert(0, os.path.join(HERE, "zoo"))
    from models import ZOO
    from run_zoo import export
    zoo_dir = os.path.join(a.out, "zoo")
    os.makedirs(zoo_dir, exist_ok=True)
    export(MODEL, ZOO[MODEL][1], zoo_dir)
    onnx_path = os.path.join(zoo_dir, MODEL + ".onnx")
    tmp = tempfile.mkdtemp(prefix="ge_dynamic_")
    dyn = os.path.join(tmp, "dynamic.om")
    run([a.ge, "compile", f"--model={onnx_path}", f"--output={dyn}", f"--threads={a.threads}"])
    rows = []
    print(f"dynamic: {MODEL}, {a.threads} threads, {a.iters} iterations, best median of {a.rounds}", flush=True)
    for length in [int(x) for x in a.lengths.split(",")]:
        ids = os.path.join(tmp, f"ids{length}.npy")
        np.save(ids, np.random.RandomState(length).randint(0, 1000, (1, length)).astype(np.int64))
        static = os.path.join(tmp, f"static{length}.om")
        run([a.ge, "compile", f"--model={onnx_path}", f"--output={static}", f"--threads={a.threads}",
             f"--input_shape=ids:1,{length}"])
        d, s, o = [], [], []
        for _ in range(a.rounds):
            d.append(ge_median(a.ge, dyn, ids, a))
            s.append(ge_median(a.ge, static, ids, a))
            r = last_json(run(["node", os.path.join(HERE, "ort_bench.js"), onnx_path, str(a.iters), str(a.threads), ids],
                              env=env))
            o.append(r["median_ms"])
        row = {"length": length, "dynamic_ms": min(d), "static_ms": min(s), "ort_ms": min(o)}
        row["dynamic_over_static"] = row["dynamic_ms"] / row["static_ms"]
        row["ort_over_dynamic"] = row["ort_ms"] / row["dynamic_ms"]
        rows.append(row)
        print(f"length {length:4}: dynamic {row['dynamic_ms']:7.3f} ms  static {row['static_ms']:7.3f} ms  "
              f"ORT {row['ort_ms']:7.3f} ms  dynamic/static {row['dynamic_over_static']:.2f}  "
              f"ORT/dynamic {row['ort_over_dynamic']:.2f}", flush=True)
    churn = last_json(run([a.ge, "run", f"--model={dyn}", "--vary=ids:1:1~256", "--warmup=20",
                           f"--loop={a.churn_loops}", f"--threads={a.threads}", "--json"]))
    growth = churn["rss_end_mb"] / churn["rss_after_warmup_mb"] - 1
    shutil.rmtree(tmp, ignore_errors=True)
    summary = (f"dynamic/static worst {max(r['dynamic_over_static'] for r in rows):.2f}, ORT/dynamic worst "
               f"{min(r['ort_over_dynamic'] for r in rows):.2f}; churn (--vary=ids:1:1~256, {a.churn_loops} runs): RSS "
               f"{churn['rss_after_warmup_mb']:.1f} -> {churn['rss_end_mb']:.1f} MB ({growth:+.1%}), median "
               f"{churn['median_ms']:.3f} ms")
    print(summary)
    lines = ["| length | dynamic ms | static ms | ORT ms | dynamic/static | ORT/dynamic |", "|---|---|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {r['length']} | {r['dynamic_ms']:.3f} | {r['static_ms']:.3f} | {r['ort_ms']:.3f} | "
                     f"{r['dynamic_over_static']:.2f} | {r['ort_over_dynamic']:.2f} |")
    with open(os.path.join(a.out, "dynamic.md"), "w") as f:
        f.write(f"# {MODEL}: dynamic vs static vs ONNX Runtime\n\n{summary}\n\n" + "\n".join(lines) + "\n")
    with open(os.path.join(a.out, "dynamic.json"), "w") as f:
        json.dump({"model": MODEL, "lengths": rows, "churn": churn, "rss_growth": growth, "summary": summary}, f,
                  indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
