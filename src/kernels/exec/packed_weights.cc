#include "kernels/exec/packed_weights.h"

#include <vector>

namespace ge::exec {

std::optional<TensorDesc> PackedWeightsLogicalDesc(const ir::Node& node, int input, const TensorDesc& stored) {
  if (stored.format != Format::kFractalZ || stored.dtype != DataType::kUint8) return std::nullopt;
  if (node.attrs().GetInt(kPackedInputAttr, -1) != input) return std::nullopt;
  const std::vector<int64_t> dims = node.attrs().GetInts(kPackedShapeAttr);
  if (dims.empty()) return std::nullopt;
  auto n = CheckedNumElements(dims);
  if (!n.ok() || *n == 0) return std::nullopt;
  return TensorDesc(DataType::kFloat, Shape(dims));
}

}  // namespace ge::exec
