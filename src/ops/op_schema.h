// Op schemas: arity and shape/dtype inference for every op ge knows. One registry, filled by explicit calls to
// each family's Register*Ops (see builtin_ops.cc); nothing registers itself.
#pragma once
#include <string>
#include <vector>

#include "base/status.h"
#include "base/tensor.h"
#include "base/tensor_desc.h"
#include "ir/attribute.h"
#include "ops/op_id.h"

namespace ge::ir {
class Node;
}

namespace ge::ops {

// What inference sees of one node. Inputs that are absent (omitted optional) are nullptr. input_values[i] is the
// input's tensor when it is known (a constant at compile time; every tensor input at run time), else nullptr.
// Inference fills `outputs` (pre-sized to the node's output count). An output whose dims depend on data that is
// not known gets kUnknownDim dims (or unknown rank); kernels then size it themselves.
struct InferContext {
  const ir::Node* node = nullptr;  // for subgraph access (If/Loop/Scan); may be nullptr in unit tests
  const ir::AttrMap* attrs = nullptr;
  int64_t opset = 17;              // version of the op's domain the model imports
  std::string op_type;
  std::string node_name;
  std::vector<const TensorDesc*> inputs;
  std::vector<const Tensor*> input_values;
  std::vector<TensorDesc> outputs;

  int num_inputs() const { return static_cast<int>(inputs.size()); }
  int num_outputs() const { return static_cast<int>(outputs.size()); }
  bool has_input(int i) const { return i < num_inputs() && inputs[i] != nullptr; }
  const TensorDesc* input(int i) const { return has_input(i) ? inputs[i] : nullptr; }
  const Tensor* input_value(int i) const {
    return i < static_cast<int>(input_values.size()) ? input_values[i] : nullptr;
  }
  TensorDesc& output(int i) { return outputs[i]; }
  const ir::AttrMap& attr() const { return *attrs; }
  // InvalidArgument prefixed with the node's name and op type.
  Status Error(const std::string& msg) const;
};

using InferFn = Status (*)(InferContext& ctx);

constexpr int kVariadic = 1 << 20;

struct OpSchema {
  OpId id = OpId::kUnknown;  // domain and name are the op table's (OpDomain, OpName)
  int min_inputs = 0;
  int max_inputs = kVariadic;
  int min_outputs = 1;
  int max_outputs = 1;
  InferFn infer = nullptr;
};

// Schemas by op id; an id outside the op table is never registered.
class OpRegistry {
 public:
  OpRegistry();
  void Add(OpSchema schema);
  // nullptr when the op has no schema here.
  const OpSchema* Find(OpId id) const;
  // The importer's and interpreter's view: through OpIdOf. Domain "ai.onnx" is treated as "".
  const OpSchema* Find(const std::string& domain, const std::string& name) const { return Find(OpIdOf(domain, name)); }
  // The ops with a schema, in id order.
  std::vector<OpId> Ids() const;

 private:
  std::vector<OpSchema> schemas_;  // indexed by id; id kUnknown where absent
};

// Every built-in op of every family; built once on first use, immutable afterwards (thread-safe to read).
const OpRegistry& BuiltinOps();

// Checks arity against the schema and runs inference; names the node in errors.
Status RunInference(const OpSchema& schema, InferContext& ctx);

}  // namespace ge::ops
