// ONNX GRU ("exec.gru"): oneDNN 2.6's GRU costs milliseconds to create per node (primitive, weight reorders) and
// JIT-generates its GEMM kernels on first use. Here the input projection of every step and batch row is one packed
// SGEMM up front (packed_gemm.h: X @ W^T + biases, gates z, r, h each padded to 16 units), and each step, per batch
// row, is matrix-vector products with R packed into column panels (rnn_step.h; each panel read once per step for
// all rows) and the gate math (fast_math.h sigmoid and tanh lanes), on AVX-512 where the model's target and the
// CPU allow, else AVX2. linear_before_reset = 1: one product per step, panels of 16 units x (z, r, h), and
// r * (h @ Rh^T + Rbh); linear_before_reset = 0: z and r from panels of 32 units x (z, r), then (r * h) @ Rh^T from
// panels of 64 units. W, the biases and R are packed at prepare, or at compile time and mapped from the model
// (rnn_weights.h). The directions of a bidirectional node run in parallel on the task's pool; a single direction's
// projection is split over it by steps. The dnnl engine hands it its GRUs.
#pragma once
#include <memory>

#include "kernels/exec/prepared_kernel.h"

namespace ge::exec {

// nullptr when the request is not supported: no AVX2 + FMA (or a target below x86-64-v3), layout 1, clip,
// activations other than the defaults, non-constant W / R / B, sequence_lens other than a constant equal to seq for
// every batch row, other dtypes or layouts than plain float32, unknown dims, or packed weights (rnn_weights.h) of
// another layout.
std::unique_ptr<PreparedKernel> PrepareGru(const PrepareRequest& request);

}  // namespace ge::exec
