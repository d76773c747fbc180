#!/usr/bin/python3
"""Model tests: exports the zoo (export_models.py) once into WORKDIR, runs each model through `ge run`, and checks
its output against PyTorch's with relative L2 error <= 1e-4; then compiles it (`ge compile`) and checks that the .om's
output equals the interpreter's within relative L2 1e-5, and once more with the oneDNN engine on
(`--option=ge.engine.dnnl=1`) within 1e-4.
usage: check_models.py GE_BINARY WORKDIR [name ...]   (exit 77 = skipped: no python3-torch)"""
import os
import subprocess
import sys

import numpy as np

ge, work = sys.argv[1], sys.argv[2]
names = sys.argv[3:]
try:
    import torch  # noqa: F401
except ImportError:
    print("python3-torch is not installed: model tests skipped (scripts/install_deps.sh installs it)")
    sys.exit(77)

here = os.path.dirname(os.path.abspath(__file__))
os.makedirs(work, exist_ok=True)
stamp = os.path.join(work, ".exported")
if not os.path.exists(stamp) or os.path.getmtime(stamp) < os.path.getmtime(os.path.join(here, "export_models.py")):
    subprocess.run([sys.executable, os.path.join(here, "export_models.py"), work], check=True)
    open(stamp, "w").close()

failures = 0
models = names or sorted(f[:-5] for f in os.listdir(work) if f.endswith(".onnx"))
for name in models:
    out = os.path.join(work, name + ".out")
    r = subprocess.run([ge, "run", f"--model={work}/{name}.onnx", f"--input={work}/{name}.in.npy",
                        f"--output_dir={out}"], capture_output=True, text=True, timeout=900)
    if r.returncode != 0:
        print(f"FAIL {name}: ge run exited {r.returncode}: {r.stderr.strip()[-300:]}")
        failures += 1
        continue
    got = np.load(os.path.join(out, "output.npy")).astype(np.float64)
    ref = np.load(os.path.join(work, name + ".ref.npy")).astype(np.float64)
    if got.shape != ref.shape:
        print(f"FAIL {name}: shape {got.shape} != {ref.shape}")
        failures += 1
        continue
    err = np.linalg.norm(got - ref) / max(np.linalg.norm(ref), 1e-30)
    ok = np.isfinite(err) and err <= 1e-4
    line = f"{name}: relative L2 error {err:.2e}"
    om = os.path.join(work, name + ".om")
    out_om = os.path.join(work, name + ".out_om")
    r = subprocess.run([ge, "compile", f"--model={work}/{name}.onnx", f"--output={om}", "--json"],
                       capture_output=True, text=True, timeout=900)
    streams = '"streams":' + r.stdout.split('"streams":')[1].split(",")[0] if '"streams":' in r.stdout else ""
    if r.returncode == 0:
        r = subprocess.run([ge, "run", f"--model={om}", f"--input={work}/{name}.in.npy", f"--output_dir={out_om}",
                            "--json"], capture_output=True, text=True, timeout=900)
    if r.returncode != 0:
        ok = False
        line += f"; .om failed: {r.stderr.strip()[-300:]}"
    else:
        engine = "sink" if '"engine":"sink"' in r.stdout else "interpreter"
        got_om = np.load(os.path.join(out_om, "output.npy")).astype(np.float64)
        err_om = (np.linalg.norm(got_om - got) / max(np.linalg.norm(got), 1e-30)) if got_om.shape == got.shape else np.inf
        ok = ok and np.isfinite(err_om) and err_om <= 1e-5
        line += f"; .om ({engine}{', ' + streams.replace(chr(34), '') if streams else ''}) vs interpreter {err_om:.2e}"
        om_d = os.path.join(work, name + ".dnnl.om")
        out_d = os.path.join(work, name + ".out_dnnl")
        r = subprocess.run([ge, "compile", f"--model={work}/{name}.onnx", f"--output={om_d}",
                            "--option=ge.engine.dnnl=1"], capture_output=True, text=True, timeout=900)
        if r.returncode == 0:
            r = subprocess.run([ge, "run", f"--model={om_d}", f"--input={work}/{name}.in.npy",
                                f"--output_dir={out_d}"], capture_output=True, text=True, timeout=900)
        if r.returncode != 0:
            ok = False
            line += f"; dnnl .om failed: {r.stderr.strip()[-300:]}"
        else:
            got_d = np.load(os.path.join(out_d, "output.npy")).astype(np.float64)
            err_d = (np.linalg.norm(got_d - got) / max(np.linalg.norm(got), 1e-30)) if got_d.shape == got.shape else np.inf
            ok = ok and np.isfinite(err_d) and err_d <= 1e-4
            line += f"; dnnl {err_d:.2e}"
    print(f"{'ok  ' if ok else 'FAIL'} {line}", flush=True)
    failures += 0 if ok else 1
print(f"{len(models) - failures} passed, {failures} failed")
sys.exit(1 if failures else 0)
