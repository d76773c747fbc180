"""What check_gpt_dynamic.py and check_shape_churn.py share: exporting the GPT model, compiling it once without
--input_shape (and telling a dynamic compile from one that fixed the sequence dim), running ge, comparing outputs.
"""
import json
import os
import subprocess
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
SKIP = 77


def skip(msg):
    print(f"SKIP: {msg}")
    sys.exit(SKIP)


def fail(msg):
    print(f"FAIL: {msg}")
    sys.exit(1)


def run(cmd, timeout=900):
    return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)


def export(work):
    """Exports gpt.onnx and the references into WORK/model (export_gpt.py); returns that directory."""
    out = os.path.join(work, "model")
    p = run(["/usr/bin/python3", os.path.join(HERE, "export_gpt.py"), out])
    if p.returncode == SKIP:
        skip(p.stdout.strip())
    if p.returncode != 0:
        fail(f"export_gpt.py exited {p.returncode}\n{p.stdout}{p.stderr}")
    print(p.stdout.strip().splitlines()[-1])
    return out


def last_json(text):
    for line in reversed(text.strip().splitlines()):
        if line.startswith("{"):
            return json.loads(line)
    return None


def compile_dynamic(ge, onnx_path, om_path):
    """`ge compile` without --input_shape; exits 77 when ge fixed the unknown sequence dim (a static model)."""
    p = run([ge, "compile", f"--model={onnx_path}", f"--output={om_path}", "--json"])
    text = p.stdout + p.stderr
    if p.returncode != 0:
        fail(f"ge compile exited {p.returncode}\n{text}")
    report = last_json(p.stdout) or {}
    if "compiled as" in text or report.get("static") is True:
        note = next((l for l in text.splitlines() if "compiled as" in l), "the compile report says static")
        skip(f"ge compile fixed the dynamic sequence dim ({note.strip()}): dynamic compile (issue 12) is not "
             "there yet")
    print(f"compiled {os.path.basename(onnx_path)} once without --input_shape -> {om_path}")
    return report


def compare(got, ref, tol):
    """Relative L2 error over the finite elements (src/base/compare.h CompareRelativeL2): NaN and inf must match
    exactly. Returns (ok, message)."""
    if got.shape != ref.shape:
        return False, f"shape {got.shape} != {ref.shape}"
    got, ref = got.astype(np.float64), ref.astype(np.float64)
    gf, rf = np.isfinite(got), np.isfinite(ref)
    bad = (gf != rf) | (~gf & ~rf & ~((got == ref) | (np.isnan(got) & np.isnan(ref))))
    if bad.any():
        i = int(np.flatnonzero(bad.ravel())[0])
        return False, f"element {i}: {got.ravel()[i]} where the reference has {ref.ravel()[i]}"
    both = gf & rf
    e = np.linalg.norm(got[both] - ref[both]) / max(np.linalg.norm(ref[both]), 1e-30)
    return bool(e <= tol), f"rel_l2 {e:.2e}"
