// The reference-kernel interface: a kernel is a plain function `Status Fn(KernelContext&)` that reads inputs and
// attributes and produces outputs. Reference kernels favour obviously-right code over speed: they are the oracle
// every fast kernel and the constant folder rely on.
#pragma once
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "base/status.h"
#include "base/tensor_desc.h"
#include "base/value.h"
#include "ir/attribute.h"

namespace ge::ir {
class Graph;
class Node;
}  // namespace ge::ir

namespace ge::ref {

// Runs a subgraph (If/Loop/Scan bodies, SequenceMap) in the scope of the node that calls it, so the body can
// read enclosing values by name. Implemented by the interpreter.
class SubgraphRunner {
 public:
  virtual ~SubgraphRunner() = default;
  // inputs bind to graph.inputs() in order; outputs receive graph.outputs() in order.
  virtual Status Run(const ir::Graph& graph, const std::vector<Value>& inputs, std::vector<Value>* outputs) = 0;
};

// A session's variables as the reference kernels see them (ge::Variable, Assign/AssignAdd/AssignSub,
// VarIsInitializedOp). Implemented by whoever owns the variables (the interpreter's caller, a session); shared by
// every run that uses it, so implementations synchronize their own tables. The memory itself is not guarded:
// runs that update the same variable at once race, as in GE.
class VariableStore {
 public:
  virtual ~VariableStore() = default;
  // The variable's memory as a tensor that aliases it: writes through it update the variable. `desc` is what the
  // reading node declares (static dims); the first use creates the variable (zeros, or `init_value` when given);
  // a later use with another dtype or shape is an error naming both.
  virtual StatusOr<Tensor> Variable(const std::string& name, const TensorDesc& desc, const Tensor* init_value) = 0;
  virtual bool IsInitialized(const std::string& name) const = 0;
  // After every write of the variable (Assign/AssignAdd/AssignSub): it now holds a value.
  virtual void Written(const std::string& name) = 0;
};

struct KernelContext {
  const ir::Node* node = nullptr;  // may be nullptr in unit tests (no subgraphs then)
  const ir::AttrMap* attrs = nullptr;
  int64_t opset = 17;
  std::string op_type;
  std::string node_name;
  std::vector<const Value*> inputs;    // nullptr = omitted optional input
  std::vector<TensorDesc> inferred;    // per output, from inference run with every input value known
  std::vector<Value> outputs;          // the kernel fills these (pre-sized to the node's output count)
  // Optional, per output: memory the caller wants the output in (a loaded model's planned buffer). AllocateOutput
  // hands it out (zero-filled) when dtype and dims match; otherwise it allocates as usual. Never aliases an input.
  std::vector<Tensor> preallocated;
  SubgraphRunner* runner = nullptr;    // for control flow; nullptr when no subgraph can run
  std::mt19937_64* rng = nullptr;      // for random ops; owned by the caller
  VariableStore* variables = nullptr;  // for variable ops; owned by the caller; nullptr when there are none

  const ir::AttrMap& attr() const { return *attrs; }
  int num_inputs() const { return static_cast<int>(inputs.size()); }
  int num_outputs() const { return static_cast<int>(outputs.size()); }
  bool has_input(int i) const { return i < num_inputs() && inputs[i] != nullptr && !inputs[i]->is_none(); }
  // The input as a tensor; nullptr when absent or not a tensor.
  const Tensor* input(int i) const {
    return has_input(i) && inputs[i]->is_tensor() ? &inputs[i]->tensor : nullptr;
  }
  const Value* input_value(int i) const { return i < num_inputs() ? inputs[i] : nullptr; }

  // Allocates output i with the given dims and dtype (zero-filled) and returns it.
  StatusOr<Tensor*> AllocateOutput(int i, const Dims& dims, DataType dtype);
  // Allocates output i with the inferred dtype and dims; fails when inference left any dim unknown.
  StatusOr<Tensor*> AllocateOutput(int i);
  void SetOutput(int i, Tensor t) { outputs[i] = Value(std::move(t)); }
  void SetOutputValue(int i, Value v) { outputs[i] = std::move(v); }

  // InvalidArgument / Unimplemented prefixed with the node's name and op type.
  Status Error(const std::string& msg) const;
  Status Unsupported(const std::string& msg) const;
};

using RefKernelFn = Status (*)(KernelContext& ctx);

}  // namespace ge::ref
