// MatMul, Gemm, ge::FusedMatMul and ge::FusedGemm with constant 2-D float32 weights on ge's packed AVX2 + FMA
// SGEMM ("exec.packed_gemm_avx2", packed_gemm.h): B packed once at prepare, an optional bias over N (FusedMatMul's
// input, or Gemm's constant C times beta) and Relu applied as each register tile is stored. MatMul folds A's batch
// dims into M. Runs the nodes the dnnl engine does not take (ge.engine.dnnl=0, or declined), and the dnnl engine
// hands it its static constant-weight matmuls when the model's target has no AVX-512 (variant "ge_packed_gemm"):
// on a 2-core Zen 3 (AVX2) the bench's MLP ran 25% faster than on oneDNN 2.6's AVX2 matmul, TinyBERT 10%.
#pragma once
#include <memory>

#include "kernels/exec/prepared_kernel.h"

namespace ge::exec {

// nullptr when the request is not supported: no AVX2 + FMA (or a target below x86-64-v3), non-constant or non-2-D
// weights, transA, alpha != 1, another C than a bias, an activation other than Relu, layouts other than plain,
// unknown dims.
std::unique_ptr<PreparedKernel> PrepareMatMulPacked(const PrepareRequest& request);

}  // namespace ge::exec
