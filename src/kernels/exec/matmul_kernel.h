// MatMul, Gemm, ge::FusedMatMul and ge::FusedGemm with constant 2-D float32 weights on ge's packed AVX2 + FMA
// SGEMM ("exec.packed_gemm_avx2", packed_gemm.h): B packed once at prepare, an optional bias over N (FusedMatMul's
// input, or Gemm's constant C times beta) and Relu applied as each register tile is stored. MatMul folds A's batch
// dims into M. Runs the nodes the dnnl engine does not take (ge.engine.dnnl=0, or declined). On a Zen 4 core it
// reaches 80-115 GFLOP/s on transformer and MLP shapes, about what oneDNN's AVX2 sgemm does, so the dnnl engine
// keeps its own matmuls.
#pragma once
#include <memory>

#include "kernels/exec/prepared_kernel.h"

namespace ge::exec {

// nullptr when the request is not supported: no AVX2 + FMA (or a target below x86-64-v3), non-constant or non-2-D
// weights, transA, alpha != 1, another C than a bias, an activation other than Relu, layouts other than plain.
std::unique_ptr<PreparedKernel> PrepareMatMulPacked(const PrepareRequest& request);

}  // namespace ge::exec
