// ONNX LSTM ("exec.lstm"): oneDNN 2.6 runs a batch-1 step as two M = 1 GEMMs, reading the input weights again every
// step, and creating its primitive (and, on first use, JIT-generating its GEMM kernels) costs milliseconds. Here the
// input projection of every step and batch row is one packed SGEMM up front (packed_gemm.h, X @ W^T + Wb + Rb), and
// each step is, per batch row, one matrix-vector product with R (packed into 64-column panels, each the four gates
// of 16 hidden units, read once per step for all rows) and the gate math (fast_math.h sigmoid and tanh lanes), on
// AVX-512 where the model's target and the CPU allow, else AVX2 (the same packed constants). W, the
// biases and R are packed at prepare, or at compile time and mapped from the model (rnn_weights.h). The directions
// of a bidirectional node run in parallel on the task's pool; a single large direction splits each step's panels
// over it. The dnnl engine hands it its LSTMs.
#pragma once
#include <memory>

#include "kernels/exec/prepared_kernel.h"

namespace ge::exec {

// nullptr when the request is not supported: no AVX2 + FMA (or a target below x86-64-v3), layout 1, clip,
// input_forget, activations other than the defaults, non-constant W / R / B / P, sequence_lens other than a
// constant equal to seq for every batch row, other dtypes or layouts than plain float32, unknown dims, or packed
// weights (rnn_weights.h) of another layout.
std::unique_ptr<PreparedKernel> PrepareLstm(const PrepareRequest& request);

}  // namespace ge::exec
