#!/usr/bin/python3
"""scripts/as_cpu.sh (tools/cpu_mask): a process run through it sees an x86-64-v3 CPU (no AVX-512) or an x86-64-v2 CPU
(no AVX) in its main thread and in threads it starts; its own SIGSEGV handler still gets real faults and a raised
SIGSEGV still kills it; ge under it compiles for the masked level with no AVX-512 kernel, refuses an x86-64-v4 .om
naming the missing features, and gives the same output at x86-64-v2 and x86-64-v3 as unmasked.
usage: check_cpu_mask.py SOURCE_DIR BUILD_DIR GE_BINARY PROBE WORKDIR   (exit 77: no CPUID faulting here)"""
import json
import os
import subprocess
import sys

import numpy as np

src, build, ge, probe, work = sys.argv[1:6]
os.makedirs(work, exist_ok=True)
as_cpu = os.path.join(src, "scripts", "as_cpu.sh")
env = dict(os.environ, BUILD=build)
flags = next((l.split(":", 1)[1].split() for l in open("/proc/cpuinfo") if l.startswith("flags")), [])
if "cpuid_fault" not in flags:
    print("this kernel or VM offers no CPUID faulting (cpuid_fault): scripts/as_cpu.sh cannot mask here; skipped")
    sys.exit(77)
failures = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures.append(what)


def run(cmd, level=None):
    return subprocess.run(([as_cpu, level] if level else []) + cmd, capture_output=True, text=True, timeout=300,
                          env=env)


def last_json(text):
    lines = [l for l in text.splitlines() if l.startswith("{")]
    return json.loads(lines[-1]) if lines else {}


host = last_json(run([probe]).stdout)["main"]
for level, want in (("x86-64-v3", {"avx": 1, "fma": 1, "avx2": 1, "avx512f": 0, "avx512bw": 0, "avx512_state": 0}),
                    ("x86-64-v2", {"avx": 0, "fma": 0, "avx2": 0, "avx512f": 0, "avx512bw": 0, "avx512_state": 0})):
    want = {k: min(v, host[k]) for k, v in want.items()}  # a mask never adds a feature the CPU lacks
    seen = last_json(run([probe], level).stdout)
    check(seen.get("main") == want and seen.get("thread") == want,
          f"{level}: main thread and a started thread see {want} (saw {seen})")

r = run([probe, "--fault"], "x86-64-v3")
check(r.returncode == 42 and "own SIGSEGV handler ran" in r.stderr,
      f"a real fault reaches the program's own SIGSEGV handler (exit {r.returncode})")
r = run([probe, "--raise"], "x86-64-v3")
check(r.returncode == -11, f"a raised SIGSEGV with the default action kills the process (exit {r.returncode})")
r = run([probe], "x86-64-v9")
check(r.returncode == 2 and "unknown level" in r.stderr, f"an unknown level is refused: {r.stderr.strip()}")

sample = os.path.join(src, "samples", "tiny_cnn.onnx")
sample_in = os.path.join(src, "samples", "tiny_cnn.in.npy")


def compile_and_run(tag, level, extra=()):
    om, out = os.path.join(work, f"tiny_cnn.{tag}.om"), os.path.join(work, f"out_{tag}")
    r = run([ge, "compile", f"--model={sample}", f"--output={om}", "--json"] + list(extra), level)
    if r.returncode != 0:
        return om, last_json(""), None, r.stderr
    info = last_json(r.stdout)
    r = run([ge, "run", f"--model={om}", f"--input={sample_in}", f"--output_dir={out}"], level)
    y = np.load(os.path.join(out, "output.npy")) if r.returncode == 0 else None
    return om, info, y, r.stderr


_, _, y_host, err = compile_and_run("host", None)
check(y_host is not None, f"unmasked compile and run: {err[-200:]}")
for level in ("x86-64-v3", "x86-64-v2"):
    _, info, y, err = compile_and_run(level, level)
    impls = info.get("impls", {})
    check(info.get("target") == level, f"{level}: --target=native compiles for {level} (got {info.get('target')})")
    check(impls and not any("avx512" in k or "amx" in k for k in impls), f"{level}: no AVX-512 kernel in {impls}")
    if level == "x86-64-v2":
        check(not any("avx" in k for k in impls), f"{level}: no AVX kernel in {impls}")
    check(y is not None and y_host is not None and np.allclose(y, y_host, rtol=1e-4, atol=1e-5),
          f"{level}: output matches the unmasked run {err[-200:]}")

if host["avx512f"]:
    om, info, _, err = compile_and_run("v4", None, ["--target=x86-64-v4"])
    r = run([ge, "run", f"--model={om}", f"--input={sample_in}"], "x86-64-v3")
    check(r.returncode != 0 and "AVX-512F" in r.stderr and "--target=x86-64-v3" in r.stderr,
          f"an x86-64-v4 .om is refused on the masked CPU, naming AVX-512 and the fix: {r.stderr.strip()[-300:]}")
else:
    print("skip: this CPU has no AVX-512, so no x86-64-v4 .om to refuse")

if failures:
    print(f"{len(failures)} check(s) failed")
    sys.exit(1)
print("all checks passed")
