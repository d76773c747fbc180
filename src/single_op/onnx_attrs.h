// What the ONNX schema of an op says about its attributes and outputs: the op table (src/ops) knows arity and
// inference but not attribute names and types, so single ops are checked against the ONNX library's schemas
// (onnx::OpSchemaRegistry), the definition ge's ONNX importer follows.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "base/status.h"
#include "ge/graph.h"
#include "ir/attribute.h"

namespace ge::single_op {

// `attrs` as ir attributes, checked against the ONNX schema of domain::op_type at `opset` (for domain ""; other
// domains at their latest version): every name must be one the op accepts, every value of its type, every
// required attribute present. An int is accepted where a float is wanted, a single value where a list is wanted
// (converted). Ops without an ONNX schema (ge's own, ops newer than the library) are converted unchecked.
// InvalidArgument prefixed with `label` otherwise; Unimplemented for an op that requires subgraphs (If, Loop, Scan).
StatusOr<ir::AttrMap> CheckAttributes(const std::string& label, const std::string& domain, const std::string& op_type,
                                      int64_t opset, const Attrs& attrs);

// The outputs the ONNX schema requires (TopK: 2); 0 where there is no schema.
int RequiredOutputs(const std::string& domain, const std::string& op_type, int64_t opset);

// The names of the first `n` outputs in the ONNX schema ("C"; a variadic output "outputs" gives "outputs0",
// "outputs1", ...), or "output0", "output1", ... where there is no schema.
std::vector<std::string> OutputNames(const std::string& domain, const std::string& op_type, int64_t opset, int n);

}  // namespace ge::single_op
