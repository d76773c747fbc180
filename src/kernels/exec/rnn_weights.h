// The constants ge's RNN kernels (exec.lstm, exec.gru) pack at prepare — each direction's input weights as packed
// SGEMM panels, its summed biases and its recurrent weights as matrix-vector panels — stored by the compiler in the
// model as one byte constant in place of the node's R input (packed_weights.h), so that loading maps them instead
// of packing. The layout string names the kernel, its panel geometry and the dims; a model whose string or byte
// count differs from what this build packs fails to load (it was packed by another build).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "kernels/exec/prepared_kernel.h"

namespace ge::exec {

// Floats a kernel packed at prepare (owned) or reads where the model maps them (mapped, not owned: the model's
// constant outlives the kernel).
struct PackedFloats {
  std::vector<float> owned;
  const float* mapped = nullptr;
  const float* data() const { return mapped != nullptr ? mapped : owned.data(); }
};

// One packed block: its floats, where they are read from, and how many there are.
struct PackedBlock {
  const float* data = nullptr;
  int64_t floats = 0;
};

// The prepacked constant of input `input` when the request holds one for this node (packed_weights.h): its bytes,
// and the dims of the weights it stands for in `logical_dims`; nullptr otherwise.
const Tensor* PackedInput(const PrepareRequest& r, int input, Dims* logical_dims);

// The blocks' floats one after another, as PackedConstants stores them.
PackedConstant ConcatPackedBlocks(int input, std::string layout, const std::vector<PackedBlock>& blocks);

// Points `mapped[i]` at block i of `bytes` (block i holding floats[i] floats, in order): false, pointing nothing,
// when the byte count is not their sum or the bytes are not float-aligned.
bool MapPackedBlocks(const Tensor& bytes, const std::vector<int64_t>& floats, const std::vector<const float**>& mapped);

}  // namespace ge::exec
