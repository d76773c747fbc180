#!/usr/bin/python3
"""`ge compile --target`: a model compiled for x86-64-v3 runs, with the same output, natively and as on an AVX2-only
CPU (ONEDNN_MAX_CPU_ISA=AVX2); one compiled for x86-64-v4 runs natively where the CPU has AVX-512 and is refused
with a message naming both levels and the fix where oneDNN is capped at AVX2; an unknown target is an error; `ge
inspect` and `ge run --json` report the target and the kernel implementations.
usage: check_target.py GE_BINARY WORKDIR SAMPLE.onnx SAMPLE_INPUT.npy"""
import json
import os
import subprocess
import sys

import numpy as np

ge, work, sample, sample_in = sys.argv[1:5]
os.makedirs(work, exist_ok=True)
failures = []
AVX2 = dict(os.environ, ONEDNN_MAX_CPU_ISA="AVX2")


def run(args, env=None):
    return subprocess.run([ge] + args, capture_output=True, text=True, timeout=300, env=env or os.environ)


def last_json(text):
    for line in reversed(text.strip().splitlines()):
        if line.startswith("{"):
            return json.loads(line)
    return {}


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL " + what)


def compile_for(target, env=None):
    om = os.path.join(work, f"sample_{target}.om")
    r = run(["compile", f"--model={sample}", f"--output={om}", f"--target={target}", "--json"], env)
    check(r.returncode == 0, f"compile --target={target}: {r.stderr[-300:]}")
    return om, last_json(r.stdout)


def output_of(om, env=None, tag=""):
    out = os.path.join(work, "out_" + tag)
    r = run(["run", f"--model={om}", f"--input={sample_in}", f"--output_dir={out}", "--json"], env)
    if r.returncode != 0:
        return None, r.stderr
    return np.load(os.path.join(out, "output.npy")), last_json(r.stdout)


native = last_json(run(["compile", f"--model={sample}", f"--output={os.path.join(work, 'native.om')}", "--json"]).stdout)
native_level = native.get("target", "")
print(f"this machine compiles natively for {native_level}")

# x86-64-v3: runs at native ISA and capped at AVX2, with one output.
om3, rep3 = compile_for("x86-64-v3")
check(rep3.get("target") == "x86-64-v3", f"compile report names the target: {rep3.get('target')}")
impls3 = rep3.get("impls", {})
check(not any("avx512" in k for k in impls3), f"x86-64-v3 kernels use no AVX-512 implementation: {impls3}")
y_native, info = output_of(om3, None, "v3_native")
check(y_native is not None, f"x86-64-v3 model runs natively: {info}")
y_avx2, info_avx2 = output_of(om3, AVX2, "v3_avx2")
check(y_avx2 is not None, f"x86-64-v3 model runs with ONEDNN_MAX_CPU_ISA=AVX2: {info_avx2}")
if y_native is not None and y_avx2 is not None:
    err = np.linalg.norm(y_native - y_avx2) / max(np.linalg.norm(y_native), 1e-30)
    check(np.isfinite(err) and err <= 1e-5, f"x86-64-v3 outputs agree at both ISAs (relative L2 {err:.2e})")
    check(info.get("target") == "x86-64-v3" and info.get("impls"), f"ge run --json reports target and impls: {info}")
inspect = last_json(run(["inspect", om3, "--json"]).stdout)
check(inspect.get("target") == "x86-64-v3" and inspect.get("impls"), f"ge inspect reports target and impls")

# x86-64-v4: refused where oneDNN is capped at AVX2 (or the CPU lacks AVX-512), with both levels and the fix.
om4, rep4 = compile_for("x86-64-v4")
r = run(["run", f"--model={om4}", f"--input={sample_in}"], AVX2)
check(r.returncode != 0, "an x86-64-v4 model is refused under ONEDNN_MAX_CPU_ISA=AVX2")
msg = r.stderr
print("refusal: " + msg.strip())
if native_level == "x86-64-v4":
    check("x86-64-v4" in msg and "x86-64-v3" in msg and "--target=" in msg,
          f"the refusal names the model's target, this machine's level and the fix: {msg}")
    y4, info4 = output_of(om4, None, "v4_native")
    check(y4 is not None, f"an x86-64-v4 model runs natively on an AVX-512 CPU: {info4}")
else:
    check("AVX-512" in msg or "x86-64-v4" in msg, f"the refusal names what is missing: {msg}")

# Bad targets.
r = run(["compile", f"--model={sample}", f"--output={os.path.join(work, 'bad.om')}", "--target=x86-64-v9"])
check(r.returncode != 0 and "--target must be" in r.stderr, f"unknown target rejected: {r.stderr}")

print(f"{'FAILED' if failures else 'ok'}: {len(failures)} failure(s)")
sys.exit(1 if failures else 0)
