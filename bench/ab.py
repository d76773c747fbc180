#!/usr/bin/python3
"""A/B of two ge binaries on the benchmark models, interleaved so that machine noise hits both alike: each model is
compiled by each binary, then the two run alternately `--rounds` times, in alternating order (A B, B A, ...) (`ge run --json`, `--iters` iterations each);
the best median of each counts. Prints B/A per model (below 1: B is faster) and the geometric mean, and exits 1 when
a model's outputs differ between A and B bitwise (unless --allow-diff). Models come from export_models.py, cached in
OUT/models like run_bench.py's.
usage: ab.py --a OLD/ge --b NEW/ge [--out build/bench-ab] [--models "a b"] [--rounds 5] [--threads 2] [--iters 20]"""
import argparse
import json
import math
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ALL_MODELS = ("resnet18 resnet50 mobilenet_v2 squeezenet tinybert mlp efficientnet_b0 densenet121 googlenet "
              "shufflenet_v2")


def run(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=1800)
    if r.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)}: {(r.stderr.strip() or r.stdout.strip())[-300:]}")
    return r.stdout


def median_ms(ge, om, inp, a, out_dir=None):
    cmd = [ge, "run", f"--model={om}", f"--input={inp}", f"--loop={a.iters}", "--warmup=3", f"--threads={a.threads}",
           "--json"] + ([f"--output_dir={out_dir}"] if out_dir else [])
    line = [l for l in run(cmd).splitlines() if l.startswith("{")][-1]
    return json.loads(line)["median_ms"]


def same_outputs(dir_a, dir_b):
    names = sorted(os.listdir(dir_a))
    if names != sorted(os.listdir(dir_b)):
        return False
    for n in names:
        with open(os.path.join(dir_a, n), "rb") as fa, open(os.path.join(dir_b, n), "rb") as fb:
            if fa.read() != fb.read():
                return False
    return True


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--a", required=True, help="the baseline ge binary")
    ap.add_argument("--b", required=True, help="the ge binary under test")
    ap.add_argument("--out", default="build/bench-ab")
    ap.add_argument("--models", default=ALL_MODELS)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--iters", type=int, default=20)
    ap.add_argument("--allow-diff", action="store_true", help="do not fail when outputs differ")
    a = ap.parse_args()
    names = a.models.split()
    models_dir = os.path.join(a.out, "models")
    os.makedirs(models_dir, exist_ok=True)
    if subprocess.run([sys.executable, os.path.join(HERE, "export_models.py"), models_dir] + names).returncode:
        return 1
    print(f"{'model':16} {'A median ms':>11} {'B median ms':>11} {'B/A':>6}  outputs")
    ratios, differ = [], []
    for name in names:
        src = os.path.join(models_dir, name)
        best, oms, outs = {}, {}, {}
        for tag, ge in (("a", a.a), ("b", a.b)):
            oms[tag] = os.path.join(a.out, f"{name}.{tag}.om")
            run([ge, "compile", f"--model={src}.onnx", f"--output={oms[tag]}", f"--threads={a.threads}"])
            outs[tag] = os.path.join(a.out, f"{name}.{tag}.out")
            best[tag] = median_ms(ge, oms[tag], src + ".in.npy", a, outs[tag])
        # The order alternates (A B, B A, ...): on these machines the first run of a pair is measurably faster.
        for r in range(a.rounds - 1):
            pair = (("b", a.b), ("a", a.a)) if r % 2 == 0 else (("a", a.a), ("b", a.b))
            for tag, ge in pair:
                best[tag] = min(best[tag], median_ms(ge, oms[tag], src + ".in.npy", a))
        ratio = best["b"] / best["a"]
        ratios.append(ratio)
        same = same_outputs(outs["a"], outs["b"])
        if not same:
            differ.append(name)
        print(f"{name:16} {best['a']:11.3f} {best['b']:11.3f} {ratio:6.3f}  {'identical' if same else 'DIFFER'}",
              flush=True)
    geo = math.exp(sum(math.log(r) for r in ratios) / len(ratios))
    print(f"B/A geometric mean {geo:.3f}, max {max(ratios):.3f} over {len(ratios)} models; "
          f"outputs bit-identical for {len(ratios) - len(differ)} of {len(ratios)}")
    return 1 if differ and not a.allow_diff else 0


if __name__ == "__main__":
    sys.exit(main())
