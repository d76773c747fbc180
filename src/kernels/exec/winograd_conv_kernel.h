// 3x3 stride-1 convolutions over NHWC float32 by Winograd F(4x4, 3x3) on AVX2 + FMA ("exec.winograd_conv"): Conv
// and ge::FusedConv (X, W, [B], [Sum]) -> Y = act(Conv(X, W) + B + Sum) with act none, Relu or Clip.
//
// Each 4x4 output tile is computed from a 6x6 input tile with 36 products instead of 144: the input tiles are
// transformed (V = B^T d B), multiplied per tile position by the transformed weights (36 GEMMs [tiles x IC] @
// [IC x OC] on ge's packed SGEMM, U = G g G^T prepared once at load) and transformed back (Y = A^T M A) with the
// bias, residual sum and activation applied on the way out. oneDNN 2.6 has Winograd only for AVX-512; on AVX2 its
// direct kernels run resnet18's 3x3 layers at the FMA peak, so 4x fewer multiplications is the remaining gain. The
// dnnl engine hands these nodes here where oneDNN's Winograd is not available (PrepareConv, conv_kernels.cc).
//
// Rounding differs from a direct convolution (the transforms reassociate sums): relative errors ~1e-6 against the
// reference kernel for unit-scale data, as oneDNN's AVX-512 Winograd.
#pragma once
#include <memory>

#include "kernels/exec/prepared_kernel.h"

namespace ge::exec {

// Whether this machine, within the model's target, runs the kernel (AVX2 + FMA present and allowed).
bool WinogradConvAvailable(IsaLevel max_isa);

enum class WinogradPolicy {
  kWherePays,       // only where it beats the direct kernels: 16+ channels each way, 16+ 4x4 output tiles per image
  kWhereSupported,  // every supported convolution (tuning times it; tests)
};

// nullptr when the request is not such a convolution (another layout, dtype, window, group or activation; weights
// not constant; dims that vary; bfloat16 allowed), or, by `policy`, one where it would not pay.
std::unique_ptr<PreparedKernel> PrepareWinogradConvNhwc(const PrepareRequest& request,
                                                        WinogradPolicy policy = WinogradPolicy::kWherePays);

}  // namespace ge::exec
