// ge::ChannelShuffle(X1, ..., Xk) -> (Y1, ..., Ym) {groups = g}: ShuffleNet's channel shuffle with the concat before
// it and the channel split after it, as one op the compiler creates (never in ONNX input):
//   X = Concat(X1..Xk, axis 1), [N, C, spatial...];
//   S[n, j, ...] = X[n, (j % g) * (C / g) + j / g, ...]   (reshape to [N, g, C/g, ...], swap axes 1 and 2, reshape back);
//   Yt = S[:, t*C/m : (t+1)*C/m, ...] for t < m.
// Every Xi has X's dtype, N and spatial dims; C must divide by g and by m. Kernels: ref (plain layouts) and
// exec.channel_shuffle (plain and NHWC, where the shuffle is a per-pixel channel gather).
#pragma once
#include <vector>

#include "ops/op_schema.h"

namespace ge::ops {

Status InferChannelShuffle(InferContext& ctx);

// For output channel j of the shuffled, concatenated tensor: the input it comes from and its channel there.
struct ShuffleSource {
  int input;
  int64_t channel;
};
// The source of every channel of S (C entries), from the inputs' channel counts; empty when g does not divide C.
std::vector<ShuffleSource> ChannelShuffleSources(const std::vector<int64_t>& input_channels, int64_t groups);

}  // namespace ge::ops
