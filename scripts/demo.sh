#!/usr/bin/env bash
# make demo: runs the bundled sample model end to end and compares it with PyTorch's output for the same input.
set -euo pipefail
build=${1:-build}
ge="$build/bin/ge"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
echo "== ge run samples/tiny_cnn.onnx (a small CNN exported from PyTorch) =="
"$ge" run --model=samples/tiny_cnn.onnx --input=samples/tiny_cnn.in.npy --output_dir="$out" --loop=20 --warmup=2
/usr/bin/python3 - "$out/output.npy" samples/tiny_cnn.ref.npy <<'PY'
import sys, numpy as np
got, ref = np.load(sys.argv[1]), np.load(sys.argv[2])
err = np.linalg.norm(got.astype(np.float64) - ref) / np.linalg.norm(ref)
print(f"relative L2 error against PyTorch: {err:.2e} ({'OK' if err <= 1e-4 else 'MISMATCH'})")
sys.exit(0 if err <= 1e-4 else 1)
PY
