// ge's own Winograd F(2x2, 3x3) convolution for AVX2 + FMA ("exec.winograd_f23_avx2"), for the CPUs where oneDNN
// 2.6 has no Winograd (x86-64-v3): 3x3, stride 1, pads 1, dilation 1, group 1, float32 activations in NHWC (the
// default layout of convolution chains), constant weights, optional constant bias, ge::FusedConv's residual Sum
// (NHWC) and Relu. Per 2x2 output tile the 4x4 input patch is transformed (B^T d B, vectorised over channels), 16
// GEMMs [tiles x C] @ [C x K] run on the packed SGEMM (packed_gemm.h) with the weights transformed (G g G^T) and
// packed at prepare, and the 4x4 products are transformed back (A^T m A) with bias, Sum and Relu: 2.25x fewer
// multiplications than the direct convolution. Results differ from the direct ones by rounding (~1e-6 relative).
#pragma once
#include <memory>

#include "kernels/exec/prepared_kernel.h"

namespace ge::exec {

// nullptr when the request is not a convolution this kernel supports (see above), or the CPU lacks AVX2 + FMA.
std::unique_ptr<PreparedKernel> PrepareWinogradConv(const PrepareRequest& request);

}  // namespace ge::exec
