#!/bin/sh
# scripts/as_cpu.sh LEVEL COMMAND [ARGS...]: run COMMAND (and every process and thread it starts) as on an x86-64 CPU
# of LEVEL (x86-64-v3: AVX2 and FMA, no AVX-512; x86-64-v2: SSE4.2, no AVX), on this CPU, by masking CPUID
# (tools/cpu_mask/cpu_mask.c; needs Linux's CPUID faulting: "cpuid_fault" in /proc/cpuinfo). ge, oneDNN and ONNX
# Runtime then detect, choose and run the kernels they would on such a CPU. The clock, caches and cores stay this
# CPU's. BUILD names the build folder (default: build). Exit status 3: this machine cannot mask CPUID.
set -e
if [ $# -lt 2 ]; then
  echo "usage: scripts/as_cpu.sh x86-64-v2|x86-64-v3 COMMAND [ARGS...]" >&2
  exit 2
fi
level=$1
shift
case $level in
  x86-64-v3) hwcaps=-AVX512F,-AVX512CD,-AVX512ER,-AVX512PF,-AVX512VL,-AVX512DQ,-AVX512BW ;;
  x86-64-v2) hwcaps=-AVX512F,-AVX512CD,-AVX512ER,-AVX512PF,-AVX512VL,-AVX512DQ,-AVX512BW,-AVX2,-AVX,-FMA,-BMI1,-BMI2 ;;
  *) echo "as_cpu.sh: unknown level '$level' (x86-64-v2 or x86-64-v3)" >&2; exit 2 ;;
esac
root=$(cd "$(dirname "$0")/.." && pwd)
lib=$(cd "$root" && realpath -m "${BUILD:-build}/lib/libge_cpu_mask.so")
if [ ! -f "$lib" ]; then
  echo "as_cpu.sh: $lib is not built (make build)" >&2
  exit 2
fi
if ! grep -qw cpuid_fault /proc/cpuinfo; then
  echo "as_cpu.sh: this kernel or VM offers no CPUID faulting (no cpuid_fault in /proc/cpuinfo): cannot mask" >&2
  exit 3
fi
# glibc's string functions are chosen by ld.so before any library runs; its tunable covers those.
GE_CPU_MASK=$level LD_AUDIT=$lib LD_PRELOAD="$lib${LD_PRELOAD:+:$LD_PRELOAD}" \
  GLIBC_TUNABLES="glibc.cpu.hwcaps=$hwcaps${GLIBC_TUNABLES:+:$GLIBC_TUNABLES}" exec "$@"
