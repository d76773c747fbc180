#!/usr/bin/python3
"""Model tests: exports the zoo (export_models.py) once into WORKDIR, runs each model through `ge run`, and checks
its output against PyTorch's with relative L2 error <= 1e-4; then compiles it (`ge compile`) several ways and checks
each .om's output against the interpreter's: ge's own kernels (`ge.engine.dnnl=0`) within relative L2 1e-5, the
default oneDNN engine (NHWC convolution chains, prepacked weights) and NC1HWC0 chains within 1e-4, each at this
CPU's ISA and again as on an AVX2-only CPU (CPUID masked by scripts/as_cpu.sh, else ONEDNN_MAX_CPU_ISA=AVX2; either
way --target=native is x86-64-v3), and with
--tune. A model fails when any node's kernel resolves to a oneDNN reference implementation (`ge compile --json`
"impls"): a reference implementation must never run on the hot path of a compiled model; and when the default
compile of a model misses the fusions listed in FUSED (the fusion census).
usage: check_models.py GE_BINARY WORKDIR [name ...]   (exit 77 = skipped: no python3-torch)"""
import json
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



def avx2_cpu():
    """How to run ge as on an AVX2-only CPU: (command prefix, environment). Where the kernel offers CPUID faulting,
    scripts/as_cpu.sh masks CPUID so that ge's own kernels and oneDNN both see x86-64-v3; elsewhere oneDNN is capped
    (ONEDNN_MAX_CPU_ISA=AVX2: oneDNN's kernels and --target=native follow it, ge's own loops still use AVX-512)."""
    build = os.path.dirname(os.path.dirname(os.path.abspath(ge)))
    as_cpu = os.path.join(here, "..", "..", "scripts", "as_cpu.sh")
    flags = next((l.split(":", 1)[1].split() for l in open("/proc/cpuinfo") if l.startswith("flags")), [])
    if "cpuid_fault" in flags and os.path.isfile(os.path.join(build, "lib", "libge_cpu_mask.so")):
        return [as_cpu, "x86-64-v3"], {"BUILD": build}
    return [], {"ONEDNN_MAX_CPU_ISA": "AVX2"}


AVX2 = avx2_cpu()
NATIVE = ([], {})
print("as on an AVX2-only CPU: " + ("CPUID masked (scripts/as_cpu.sh x86-64-v3)" if AVX2[0] else "ONEDNN_MAX_CPU_ISA=AVX2"))
CONFIGS = [  # tag, compile flags, tolerance against the interpreter, (command prefix, environment) of compile and run
    ("ge_kernels", ["--option=ge.engine.dnnl=0"], 1e-5, NATIVE),
    ("dnnl_nhwc", [], 1e-4, NATIVE),
    ("dnnl_nc1hwc0", ["--option=ge.format.activation=NC1HWC0"], 1e-4, NATIVE),
    ("dnnl_tuned", ["--tune", "--threads=2"], 1e-4, NATIVE),
    ("avx2_nhwc", [], 1e-4, AVX2),
    ("avx2_nc1hwc0", ["--option=ge.format.activation=NC1HWC0"], 1e-4, AVX2),
]

# Fusion census: op counts the default compile (config "dnnl_nhwc") must reach, and ops that must be gone, so that a
# pass order or pattern change that silently stops a fusion fails here (ReduceMeanPool once took tinybert's decomposed
# LayerNorms before LayerNormFusion saw them: 20% of its time).
FUSED = {  # name: ({op: count}, [ops that must not remain])
    "encoder_op14": ({"LayerNormalization": 4, "Attention": 2}, ["ReduceMean", "GlobalAveragePool", "Pow", "Sqrt"]),
    "encoder_op17": ({"LayerNormalization": 4, "Attention": 2}, ["Softmax"]),
    "efficientnet_b0": ({"SqueezeExcite": 16}, ["Sigmoid", "Mul"]),
    "shufflenet_v2_x0_5": ({"ChannelShuffle": 16}, ["Transpose"]),
}


def census_errors(name, om):
    """What the .om's op counts (`ge inspect --json`) miss of FUSED[name]; empty when all is there."""
    want, gone = FUSED.get(name, ({}, []))
    if not want and not gone:
        return []
    r = subprocess.run([ge, "inspect", om, "--json"], capture_output=True, text=True, timeout=300)
    lines = [l for l in r.stdout.splitlines() if l.startswith("{")]
    if r.returncode != 0 or not lines:
        return [f"ge inspect failed: {r.stderr.strip()[-200:]}"]
    ops = json.loads(lines[-1]).get("ops", {})
    errors = [f"{op} x{ops.get(op, 0)} (want {n})" for op, n in want.items() if ops.get(op, 0) != n]
    return errors + [f"{op} x{ops[op]} left unfused" for op in gone if ops.get(op, 0)]


def reference_impls(compile_stdout):
    """The reference implementations among `ge compile --json`'s "impls" (name -> node count)."""
    for line in reversed(compile_stdout.strip().splitlines()):
        if line.startswith("{"):
            impls = json.loads(line).get("impls", {})
            return {k: n for k, n in impls.items() if "(ref" in k or ":ref" in k or "simple_nchw" in k}
    return {"(no JSON from ge compile)": 1}
failures = 0
models = names or sorted(f[:-5] for f in os.listdir(work) if f.endswith(".onnx"))
if not models:
    print(f"no model to check in {work}: the export produced nothing")
    sys.exit(1)
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
    # Compiled .om files: ge's own kernels must match the interpreter to 1e-5; the oneDNN engine (the default) to
    # 1e-4, in each activation layout of convolution chains.
    for tag, opts, tol, (prefix, env) in CONFIGS:
        om = os.path.join(work, f"{name}.{tag}.om")
        out_om = os.path.join(work, f"{name}.out_{tag}")
        env = dict(os.environ, **env)
        r = subprocess.run(prefix + [ge, "compile", f"--model={work}/{name}.onnx", f"--output={om}", "--json"] + opts,
                           capture_output=True, text=True, timeout=900, env=env)
        streams = '"streams":' + r.stdout.split('"streams":')[1].split(",")[0] if '"streams":' in r.stdout else ""
        refs = reference_impls(r.stdout) if r.returncode == 0 and '"static":true' in r.stdout else {}
        if refs:
            ok = False
            line += f"; {tag} runs reference implementations {refs}"
        census = census_errors(name, om) if r.returncode == 0 and tag == "dnnl_nhwc" else []
        if census:
            ok = False
            line += f"; fusion census: {', '.join(census)}"
        if r.returncode == 0:
            r = subprocess.run(prefix + [ge, "run", f"--model={om}", f"--input={work}/{name}.in.npy", f"--output_dir={out_om}",
                                "--json"], capture_output=True, text=True, timeout=900, env=env)
        if r.returncode != 0:
            ok = False
            line += f"; {tag} .om failed: {r.stderr.strip()[-300:]}"
            continue
        engine = "sink" if '"engine":"sink"' in r.stdout else "interpreter"
        got_om = np.load(os.path.join(out_om, "output.npy")).astype(np.float64)
        err_om = (np.linalg.norm(got_om - got) / max(np.linalg.norm(got), 1e-30)) if got_om.shape == got.shape else np.inf
        ok = ok and np.isfinite(err_om) and err_om <= tol
        line += f"; {tag} ({engine}{', ' + streams.replace(chr(34), '') if streams else ''}) {err_om:.2e}"
    print(f"{'ok  ' if ok else 'FAIL'} {line}", flush=True)
    failures += 0 if ok else 1
print(f"{len(models) - failures} passed, {failures} failed")
sys.exit(1 if failures else 0)
