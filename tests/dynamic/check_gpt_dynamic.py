#!/usr/bin/python3
"""Dynamic-shape acceptance (issue 12): a GPT-style decoder exported from PyTorch with a dynamic sequence axis
(export_gpt.py), compiled once without --input_shape, runs at sequence lengths 1, 7, 64 and 256 with outputs
within relative L2 1e-4 of PyTorch's (NaN and inf must match exactly).

usage: check_gpt_dynamic.py GE WORK_DIR
Exit 0 on success, 1 on a failure, 77 (skipped) when torch/onnx are missing or `ge compile` fixes the sequence
dim (no dynamic compile yet).
"""
import os
import shutil
import sys

import numpy as np

from gpt_common import compare, compile_dynamic, export, fail, run

LENGTHS = (1, 7, 64, 256)
TOL = 1e-4


def main():
    if len(sys.argv) != 3:
        print(__doc__)
        return 2
    ge, work = sys.argv[1:3]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    model_dir = export(work)
    om = os.path.join(work, "gpt.om")
    compile_dynamic(ge, os.path.join(model_dir, "gpt.onnx"), om)
    failures = []
    for n in LENGTHS:
        out = os.path.join(work, f"out_{n}")
        p = run([ge, "run", f"--model={om}", f"--input=ids={model_dir}/ids_{n}.npy", f"--output_dir={out}"])
        if p.returncode != 0:
            failures.append(f"length {n}: ge run exited {p.returncode}: {(p.stdout + p.stderr).strip()[-400:]}")
            print(f"FAIL length {n}: ge run exited {p.returncode}")
            continue
        got_path = os.path.join(out, "logits.npy")
        if not os.path.exists(got_path):
            failures.append(f"length {n}: no logits.npy in {out}: {sorted(os.listdir(out))}")
            continue
        ok, msg = compare(np.load(got_path), np.load(os.path.join(model_dir, f"ref_{n}.npy")), TOL)
        print(f"{'ok  ' if ok else 'FAIL'} length {n:3d}: {msg} ({p.stdout.strip().splitlines()[-1]})")
        if not ok:
            failures.append(f"length {n}: {msg} (tolerance {TOL})")
    if failures:
        fail("; ".join(failures))
    print(f"PASS: one .om, lengths {', '.join(map(str, LENGTHS))} within relative L2 {TOL} of PyTorch")
    return 0


if __name__ == "__main__":
    sys.exit(main())
