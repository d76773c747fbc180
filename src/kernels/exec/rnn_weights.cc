#include "kernels/exec/rnn_weights.h"

#include <cstring>

#include "kernels/exec/kernel_util.h"
#include "kernels/exec/packed_weights.h"

namespace ge::exec {

const Tensor* PackedInput(const PrepareRequest& r, int input, Dims* logical_dims) {
  if (!InputPresent(r, input)) return nullptr;
  const std::optional<TensorDesc> logical = PackedWeightsLogicalDesc(*r.node, input, r.input_descs[input]);
  const Tensor* t = ConstInput(r, input);
  if (!logical || t == nullptr || t->dtype() != DataType::kUint8) return nullptr;
  *logical_dims = logical->shape.dims();
  return t;
}

PackedConstant ConcatPackedBlocks(int input, std::string layout, const std::vector<PackedBlock>& blocks) {
  PackedConstant c;
  c.input = input;
  c.layout = std::move(layout);
  size_t bytes = 0;
  for (const PackedBlock& b : blocks) bytes += static_cast<size_t>(b.floats) * sizeof(float);
  c.bytes.resize(bytes);
  size_t at = 0;
  for (const PackedBlock& b : blocks) {
    const size_t n = static_cast<size_t>(b.floats) * sizeof(float);
    if (n != 0) std::memcpy(c.bytes.data() + at, b.data, n);
    at += n;
  }
  return c;
}

bool MapPackedBlocks(const Tensor& bytes, const std::vector<int64_t>& floats,
                     const std::vector<const float**>& mapped) {
  if (floats.size() != mapped.size()) return false;
  int64_t total = 0;
  for (int64_t f : floats) total += f;
  const auto* base = static_cast<const uint8_t*>(bytes.raw_data());
  if (static_cast<size_t>(total) * sizeof(float) != bytes.nbytes() || reinterpret_cast<uintptr_t>(base) % 4 != 0) {
    return false;
  }
  const float* at = reinterpret_cast<const float*>(base);
  for (size_t i = 0; i < floats.size(); ++i) {
    *mapped[i] = at;
    at += floats[i];
  }
  return true;
}

}  // namespace ge::exec
