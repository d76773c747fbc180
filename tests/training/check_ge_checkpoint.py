#!/usr/bin/env python3
"""Checkpoints through the command line: `ge train --save`, then `ge run --checkpoint` computes the inference
output P from the trained variables (compared with numpy's forward pass on the reference weights), and
`ge train --restore` continues training bit for bit as if it had never stopped (40 + 60 steps == 100 steps).

usage: check_ge_checkpoint.py --ge PATH_TO_GE
"""
import argparse
import os
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import make_mlp_training as mlp  # noqa: E402


def run(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"FAIL: {' '.join(cmd)} exited {p.returncode}\n{p.stdout}\n{p.stderr}")
    return p.stdout


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ge", required=True)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        mlp.generate(d, steps=100)
        model, x, y = f"{d}/mlp_train.onnx", f"{d}/X.npy", f"{d}/Y.npy"
        train = [args.ge, "train", f"--model={model}", f"--input=X={x}", f"--input=Y={y}"]
        run(train + ["--steps=100", f"--save={d}/full.ckpt", f"--save_variables={d}/full"])
        run(train + ["--steps=40", f"--save={d}/part.ckpt"])
        run(train + ["--steps=60", f"--restore={d}/part.ckpt", f"--save_variables={d}/resumed"])
        failed = False
        for name in ["W1", "B1", "W2", "B2", "V_W1", "V_B1", "V_W2", "V_B2", "T"]:
            a, b = np.load(f"{d}/full/{name}.npy"), np.load(f"{d}/resumed/{name}.npy")
            same = a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()
            print(f"resumed {name}: {'bit-identical' if same else 'DIFFERENT'}")
            failed |= not same

        run([args.ge, "run", f"--model={model}", f"--checkpoint={d}/full.ckpt", f"--input=X={x}",
             f"--output_dir={d}/out"])
        w = {n: np.load(f"{d}/expected/{n}.npy").astype(np.float64) for n in ["W1", "B1", "W2", "B2"]}
        xs = np.load(x).astype(np.float64)
        expected = np.maximum(xs @ w["W1"] + w["B1"], 0) @ w["W2"] + w["B2"]
        got = np.load(f"{d}/out/P.npy")
        finite = np.all(np.isfinite(got))
        err = np.linalg.norm(got - expected) / np.linalg.norm(expected)
        print(f"ge run --checkpoint: P relative L2 {err:.3e} (tolerance 1e-5){'' if finite else ', NOT FINITE'}")
        failed |= not finite or err > 1e-5
    print("FAIL" if failed else "PASS")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
