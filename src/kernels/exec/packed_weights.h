// Prepacked weights (DESIGN.md §3 VariableOpPass, "variable acceleration" applied to constants): the compiler may
// replace a node's constant weights by the same values already in the layout its engine's kernel reads (a oneDNN
// blocked layout). The packed constant is a 1-D uint8 tensor in format FRACTAL_Z; the node says which input it is,
// the layout (engine-specific, hex-encoded), and the weights' logical float32 dims.
#pragma once
#include <optional>

#include "base/tensor_desc.h"
#include "ir/graph.h"

namespace ge::exec {

inline constexpr const char kPackedInputAttr[] = "packed_input";    // int: the input index
inline constexpr const char kPackedLayoutAttr[] = "packed_layout";  // string: the engine's layout description
inline constexpr const char kPackedShapeAttr[] = "packed_shape";    // ints: the logical dims

// The logical desc (float32, packed_shape) of node input `input` when it holds prepacked weights stored as `stored`
// (uint8 [bytes] in FRACTAL_Z); nullopt otherwise, also when the attributes are missing or malformed.
std::optional<TensorDesc> PackedWeightsLogicalDesc(const ir::Node& node, int input, const TensorDesc& stored);

}  // namespace ge::exec
