// MaxPool over an NHWC activation (2-D windows, float32, output Y only) as one prepared kernel ("exec.max_pool"):
// each output pixel's channels are the elementwise max over the window's taps inside the image, vectorized across
// channels (AVX-512, AVX2 and baseline builds of the loop, chosen by the CPU within the model's target ISA). The
// reference kernel's semantics hold bit for bit: NaNs are skipped, the first number counts, and a window holding
// no number gives the lowest float. oneDNN 2.6's NHWC max pooling ran GoogLeNet's 3x3 stride-1 pools 3-5x slower
// than their loads allow (28x28x192: ~95 us on 2 Sapphire Rapids cores); the dnnl engine hands these nodes here.
#pragma once
#include <memory>

#include "kernels/exec/prepared_kernel.h"

namespace ge::exec {

// nullptr when the request is not such a MaxPool (another layout or dtype, an Indices output, 1-D or 3-D windows,
// dims that vary, output dims other than the window's).
std::unique_ptr<PreparedKernel> PrepareMaxPoolNhwc(const PrepareRequest& request);

}  // namespace ge::exec
