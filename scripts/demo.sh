#!/usr/bin/env bash
# make demo: the main job on the bundled sample: compile the ONNX model into an offline model (.om), inspect it,
# run it on the sink runtime, and compare its output with PyTorch's for the same input.
set -euo pipefail
build=${1:-build}
ge="$build/bin/ge"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
check() {
  /usr/bin/python3 - "$1" samples/tiny_cnn.ref.npy <<'PY'
import sys, numpy as np
got, ref = np.load(sys.argv[1]), np.load(sys.argv[2])
err = np.linalg.norm(got.astype(np.float64) - ref) / np.linalg.norm(ref)
print(f"relative L2 error against PyTorch: {err:.2e} ({'OK' if err <= 1e-4 else 'MISMATCH'})")
sys.exit(0 if err <= 1e-4 else 1)
PY
}
echo "== ge compile samples/tiny_cnn.onnx (a small CNN exported from PyTorch) =="
"$ge" compile --model=samples/tiny_cnn.onnx --output="$out/tiny_cnn.om"
echo
echo "== ge inspect tiny_cnn.om =="
"$ge" inspect "$out/tiny_cnn.om"
echo
echo "== ge run tiny_cnn.om (sink runtime: one call runs the whole task list) =="
"$ge" run --model="$out/tiny_cnn.om" --input=samples/tiny_cnn.in.npy --output_dir="$out/om" --loop=20 --warmup=2
check "$out/om/output.npy"
echo
echo "== ge run samples/tiny_cnn.onnx (the reference interpreter) =="
"$ge" run --model=samples/tiny_cnn.onnx --input=samples/tiny_cnn.in.npy --output_dir="$out/onnx" --loop=20 --warmup=2
check "$out/onnx/output.npy"
echo
echo "== samples/training_mlp: an MLP trained with the C++ session API, checked against numpy =="
/usr/bin/python3 tests/training/check_sample.py --sample="$build/bin/train_mlp"
echo
echo "== samples/python/infer.py: the same model from Python (import ge, ONNX Runtime's API, compiled in memory) =="
PYTHONPATH="$build/python" /usr/bin/python3 samples/python/infer.py samples/tiny_cnn.onnx samples/tiny_cnn.in.npy "$out/python.npy"
check "$out/python.npy"
echo
echo "== samples/python/session_memory_limit.py: more graphs than ge.exec.sessionMemoryLimit holds, evicted and reloaded =="
PYTHONPATH="$build/python" /usr/bin/python3 samples/python/session_memory_limit.py
