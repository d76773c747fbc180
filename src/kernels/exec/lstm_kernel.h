// ONNX LSTM at batch 1 ("exec.lstm_batch1"): oneDNN 2.6 runs a batch-1 step as two M = 1 GEMMs, reading the input
// weights again every step. Here the input projection of every step is one packed SGEMM up front (packed_gemm.h,
// X @ W^T + Wb + Rb), and each step is one matrix-vector product with R (packed at prepare into 64-column panels,
// each the four gates of 16 hidden units, read once per step) and the gate math (fast_exp.h sigmoid and tanh). The
// directions of a bidirectional node run in parallel on the task's pool; a single large direction splits each
// step's panels over it. The dnnl engine hands it its batch-1 LSTMs.
#pragma once
#include <memory>

#include "kernels/exec/prepared_kernel.h"

namespace ge::exec {

// nullptr when the request is not supported: batch other than 1, no AVX2 + FMA (or a target below x86-64-v3),
// layout 1, clip, input_forget, activations other than the defaults, non-constant W / R / B / P, sequence_lens
// other than a constant equal to seq, other dtypes or layouts than plain float32, unknown dims.
std::unique_ptr<PreparedKernel> PrepareLstmBatch1(const PrepareRequest& request);

}  // namespace ge::exec
