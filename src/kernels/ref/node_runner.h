// Runs one node on the reference kernels: inference with every input value known, then the kernel.
// Used by the interpreter, the constant folder and the kernel unit tests.
#pragma once
#include <random>
#include <string>
#include <vector>

#include "base/value.h"
#include "kernels/ref/kernel_context.h"
#include "kernels/ref/kernel_registry.h"
#include "ops/op_schema.h"

namespace ge::ref {

struct NodeCall {
  std::string op_type;
  std::string domain;  // "" = ai.onnx
  std::string node_name;
  const ir::AttrMap* attrs = nullptr;
  int64_t opset = 17;
  const ir::Node* node = nullptr;     // optional (subgraph access)
  std::vector<const Value*> inputs;   // nullptr = omitted optional input
  int num_outputs = 1;
  SubgraphRunner* runner = nullptr;
  std::mt19937_64* rng = nullptr;
  VariableStore* variables = nullptr;
};

// The TensorDesc describing a run-time value (used as an inference input).
TensorDesc DescribeValue(const Value& v);

StatusOr<std::vector<Value>> RunNode(const ops::OpRegistry& ops, const KernelRegistry& kernels, const NodeCall& call);

}  // namespace ge::ref
