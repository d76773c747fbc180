// No-task Concats (GE's continuous-memory Concat): a Concat whose output is its inputs' bytes one after another
// (ops::ConcatJoinsBytes) runs nothing when each input is planned as a slice of the output, so that its producer
// writes straight into the joined tensor.
#pragma once
#include <cstdint>
#include <vector>

#include "base/status.h"
#include "ir/graph.h"

namespace ge::compiler {

struct NoTaskConcat {
  const ir::Node* node = nullptr;
  std::vector<uint64_t> input_offsets;  // bytes from the start of the output, per input
};

// The Concats of |graph| whose inputs can be slices of their output, in topological order. Besides the layout
// rule, the output and every input must be feature maps (no graph input or output, constant or variable), each
// input read once by its Concat and a slice of no other Concat, and no input the output of another chosen Concat:
// a slice has one parent and a parent is no slice.
StatusOr<std::vector<NoTaskConcat>> FindNoTaskConcats(const ir::Graph& graph);

}  // namespace ge::compiler
