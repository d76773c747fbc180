#!/usr/bin/env bash
# Installs every Debian package ge needs to build, test, fuzz and benchmark. Non-interactive; installs only what
# is missing (apt-get update runs first only then). Usage: scripts/install_deps.sh [--bench]
# python3-torch/torchvision: the model tests export models with torch.onnx and compare against PyTorch.
# ocl-icd-opencl-dev: Debian's oneDNN CMake config calls find_package(OpenCL); libdnnl-dev only Recommends it and
# Recommends are not installed here. tests/deps/check_deps_complete.py (ctest deps_complete) proves this list is
# complete: every file the build reads and every Python module the tests import comes from a package of the
# `packages` array below (which it parses) or from their Depends/Pre-Depends.
# python3-dev, python3-pybind11: `import ge` (python/) is built for /usr/bin/python3; python3-pytest runs its tests.
# git: the mutation harness (tools/mutate, `make mutate`) and its test read the tree with git ls-files.
# --bench adds Node.js for ONNX Runtime side-by-side benchmarks.
set -euo pipefail
packages=(
  build-essential cmake ninja-build pkg-config
  libprotobuf-dev protobuf-compiler libonnx-dev
  libdnnl-dev ocl-icd-opencl-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  clang-14 libclang-rt-14-dev
  python3 python3-numpy python3-onnx
  python3-dev python3-pybind11 python3-pytest
  python3-torch python3-torchvision
  ccache git
  graphviz  # dot: `ge inspect --graph=FILE.svg` and its tests render graph pictures with it
)
if [[ "${1:-}" == "--bench" ]]; then
  command -v node >/dev/null 2>&1 || packages+=(nodejs)
  command -v npm >/dev/null 2>&1 || packages+=(npm)
fi
missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
if ((${#missing[@]} == 0)); then
  exit 0
fi
echo "install_deps: installing ${missing[*]}"
SUDO=""
if [[ $(id -u) -ne 0 ]]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
