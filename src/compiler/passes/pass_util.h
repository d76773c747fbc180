// Helpers shared by the graph passes: what subgraphs read by name, which nodes are deterministic, and safe
// rewiring of node outputs (the IR has no "rename value", so a producer is rebuilt to produce another value).
#pragma once
#include <set>
#include <string>
#include <vector>

#include "base/status.h"
#include "base/tensor.h"
#include "compiler/passes/pass_manager.h"
#include "ir/graph.h"
#include "ops/op_id.h"

namespace ge::compiler {

// Passes name ops by id (ops/op_table.def); nodes they create take the table's domain and name.
using ops::IsOp;
using ops::OpId;

// Names the subgraphs of `n` (any depth) read from enclosing graphs: values a pass must treat as used by `n`.
std::set<std::string> NodeCaptures(const ir::Node& n);
// Union of NodeCaptures over the nodes of `g`.
std::set<std::string> CapturedNames(const ir::Graph& g);

// Dropout that draws a mask: training_mode input known true (opset >= 12) or is_test == 0 (opset < 7). A
// training_mode input that is not a constant counts as training.
bool DropoutIsTraining(const ir::Node& n, int64_t opset);
// Random ops, and Dropout in training mode: never folded, merged or removed as duplicates.
// Also the variable ops: session state is not a compile-time value.
bool IsNondeterministic(const ir::Node& n, const PassContext& ctx);
// Nodes that write session state (Assign, AssignAdd, AssignSub): kept even when no graph output needs them.
bool HasSideEffects(const ir::Node& n);

// Makes `n` produce `v` as output `index` instead of its current output, which loses its producer and every use
// (uses move to `v`). `v` must have no producer. `n` is replaced by a new node with the same name, op, attributes,
// inputs, engine and control edges; returns it. Fails for nodes that own subgraphs.
StatusOr<ir::Node*> RebindOutput(ir::Graph& g, ir::Node* n, int index, ir::Value* v);

// Graph::RemoveDeadValues, except constants that a subgraph reads by name survive. Returns whether any value went.
bool RemoveDeadValuesKeepingCaptured(ir::Graph& g);

// Elements of a numeric tensor as doubles, and back (rounding to the target type).
std::vector<double> ToDoubles(const Tensor& t);
StatusOr<Tensor> FromDoubles(DataType dt, const Dims& dims, const std::vector<double>& values);

// Whether every dim of the desc's shape is known (rank too).
bool FullyKnown(const TensorDesc& d);

}  // namespace ge::compiler
