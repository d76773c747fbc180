#!/usr/bin/python3
"""The installable API works outside the tree: `cmake --install` the build into a fresh prefix, configure and build
samples/offline_model against it with find_package(ge) (only the installed headers and libge.so on the paths),
compile samples/tiny_cnn.onnx with the installed `ge`, and check that the sample's output matches PyTorch's
reference (relative L2 <= 1e-4) and is bit-identical to `ge run` on the same input; then run samples/python/infer.py
with `import ge` from the installed package only (PYTHONPATH = its site-packages under the prefix), bit-identical
too.
usage: check_installed_sample.py SOURCE_DIR BUILD_DIR WORK_DIR"""
import os
import shutil
import subprocess
import sys


def run(cmd, **kw):
    r = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if r.returncode != 0:
        sys.exit(f"FAIL: {' '.join(cmd)} exited {r.returncode}\n{r.stdout[-2000:]}\n{r.stderr[-2000:]}")
    return r.stdout


def main():
    src, build, work = (os.path.abspath(p) for p in sys.argv[1:4])
    shutil.rmtree(work, ignore_errors=True)
    prefix, sample_build = os.path.join(work, "prefix"), os.path.join(work, "sample-build")
    run(["cmake", "--install", build, "--prefix", prefix])
    for f in ("include/ge/model.h", "include/ge/status.h", "include/ge/types.h", "bin/ge"):
        if not os.path.exists(os.path.join(prefix, f)):
            sys.exit(f"FAIL: {f} was not installed")
    # Self-contained headers: each compiles with only the installed include/ on the path.
    for h in sorted(os.listdir(os.path.join(prefix, "include/ge"))):
        run(["c++", "-std=c++17", "-fsyntax-only", "-I", os.path.join(prefix, "include"), "-x", "c++", "-"],
            input=f'#include "ge/{h}"\nint main() {{ return 0; }}\n')
    env = dict(os.environ, CCACHE_DISABLE="1")
    run(["cmake", "-S", os.path.join(src, "samples/offline_model"), "-B", sample_build, "-G", "Ninja",
         f"-DCMAKE_PREFIX_PATH={prefix}"], env=env)
    run(["cmake", "--build", sample_build], env=env)
    ge = os.path.join(prefix, "bin/ge")
    om, onnx = os.path.join(work, "tiny_cnn.om"), os.path.join(src, "samples/tiny_cnn.onnx")
    x, ref = os.path.join(src, "samples/tiny_cnn.in.npy"), os.path.join(src, "samples/tiny_cnn.ref.npy")
    run([ge, "compile", f"--model={onnx}", f"--output={om}"])
    out = os.path.join(work, "sample_out.npy")
    print(run([os.path.join(sample_build, "run_model"), om, x, ref, out]).strip())
    ge_out = os.path.join(work, "ge_out")
    run([ge, "run", f"--model={om}", f"--input={x}", f"--output_dir={ge_out}"])
    import numpy as np
    got = np.load(out)
    want = np.load(os.path.join(ge_out, sorted(os.listdir(ge_out))[0]))
    if got.shape != want.shape or got.tobytes() != want.tobytes():
        sys.exit(f"FAIL: the sample's output differs from `ge run`'s ({got.shape} vs {want.shape})")
    site = [root for root, _, files in os.walk(prefix) if os.path.basename(root) == "ge" and "__init__.py" in files]
    if not site:
        sys.exit("FAIL: the ge Python package was not installed")
    py_out = os.path.join(work, "python_out.npy")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PYTHONPATH"] = os.path.dirname(site[0])
    print(run(["/usr/bin/python3", os.path.join(src, "samples/python/infer.py"), om, x, py_out], env=env, cwd=work).strip())
    if np.load(py_out).tobytes() != want.tobytes():
        sys.exit("FAIL: the installed Python module's output differs from `ge run`'s")
    print("PASS: installed package, out-of-tree C++ and Python samples bit-identical to ge run and within 1e-4 of "
          "PyTorch")


if __name__ == "__main__":
    main()
