// Geometry and the im2col + GEMM loop shared by Conv, ConvInteger and QLinearConv. Spatial dims are padded to
// three (leading dims of size 1) so one loop serves 1-D, 2-D and 3-D convolutions.
#pragma once
#include <cstdint>

#include "base/status.h"
#include "base/tensor.h"
#include "kernels/ref/kernel_context.h"

namespace ge::ref::nn {

struct ConvGeom {
  int64_t n = 0, c = 0, m = 0, group = 1;
  int nsp = 0;  // spatial rank of the node (1..3)
  int64_t in[3] = {1, 1, 1}, out[3] = {1, 1, 1}, k[3] = {1, 1, 1};
  int64_t s[3] = {1, 1, 1}, d[3] = {1, 1, 1}, pb[3] = {0, 0, 0}, pe[3] = {0, 0, 0};
  int64_t in_size() const { return in[0] * in[1] * in[2]; }
  int64_t out_size() const { return out[0] * out[1] * out[2]; }
  int64_t k_size() const { return k[0] * k[1] * k[2]; }
  Dims OutputDims() const;  // [N, M, out spatial...]
};

// Checks the X, W and optional B inputs of a float Conv / ConvTranspose: present, floating point, one shared type.
Status CheckFloatConvInputs(const KernelContext& ctx);

// Forward convolution geometry from X dims [N, C, ...], W dims [M, C/group, k...] and the node's attributes.
StatusOr<ConvGeom> MakeConvGeom(const KernelContext& ctx, const Dims& x, const Dims& w);

// y[N, M, out] = conv(x, w) (+ bias when non-null). x is [N, C, in], w is [M, C/group * K]. Padded input
// positions read as zero. C is float, double or int32_t.
template <typename C>
void ConvForward(const ConvGeom& g, const C* x, const C* w, const C* bias, C* y);

}  // namespace ge::ref::nn
