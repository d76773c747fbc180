// What ge's own NHWC float32 convolution kernels (winograd_conv_kernel.h, im2col_conv_kernel.h) read off a request:
// Conv or ge::FusedConv (X, W, [B], [Sum]) -> Y = act(Conv(X, W) + B + Sum), and the scratch state they share.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "kernels/exec/prepared_kernel.h"
#include "ops/nn/window_util.h"

namespace ge::exec {

enum class ConvAct { kNone, kRelu, kClip };

struct ConvEpilogue {
  ConvAct act = ConvAct::kNone;
  float lo = 0.f, hi = 0.f;  // Clip's bounds
};

// A ge::FusedConv's activation (a plain Conv: none); false for other activations or Clip bounds lo > hi.
bool ParseConvEpilogue(const ir::Node& node, ConvEpilogue* e);

struct NhwcConv {
  const Tensor* w = nullptr;  // constant float32 [OC][IC][KH][KW]
  bool has_bias = false, has_sum = false;
  ConvEpilogue epilogue;
  nn::Window window;  // kernel = W's KH x KW, dilation 1
  Dims x, y;          // logical NCHW dims, NHWC in memory
};

// The convolution of the request, or nullopt when it is not one these kernels take: another op, layout or dtype,
// unknown or varying dims, group != 1, dilation, an activation other than none / Relu / Clip, weights not constant,
// a bias or Sum of the wrong shape, bfloat16 allowed.
std::optional<NhwcConv> ParseNhwcConv(const PrepareRequest& request);

// A kernel's scratch floats: its own (64-byte aligned), or the runtime's shared scratch.
class ScratchState final : public KernelState {
 public:
  explicit ScratchState(size_t floats);
  explicit ScratchState(void* shared) : buffer_(static_cast<float*>(shared)) {}
  float* buffer() const { return buffer_; }

 private:
  std::vector<float> owned_;
  float* buffer_ = nullptr;
};

}  // namespace ge::exec
