#include "ops/op_schema.h"

namespace ge::ops {

Status InferContext::Error(const std::string& msg) const {
  return InvalidArgument("node '" + node_name + "' (" + op_type + "): " + msg);
}

OpRegistry::OpRegistry() : schemas_(kNumOpIds) {}

void OpRegistry::Add(OpSchema schema) {
  if (IsKnownOp(schema.id)) schemas_[static_cast<int>(schema.id)] = schema;
}

const OpSchema* OpRegistry::Find(OpId id) const {
  if (!IsKnownOp(id)) return nullptr;
  const OpSchema& s = schemas_[static_cast<int>(id)];
  return s.id == id ? &s : nullptr;
}

std::vector<OpId> OpRegistry::Ids() const {
  std::vector<OpId> out;
  for (const OpSchema& s : schemas_) {
    if (IsKnownOp(s.id)) out.push_back(s.id);
  }
  return out;
}

Status RunInference(const OpSchema& schema, InferContext& ctx) {
  int n_in = ctx.num_inputs();
  while (n_in > 0 && ctx.inputs[n_in - 1] == nullptr) --n_in;  // trailing omitted optionals do not count
  if (n_in < schema.min_inputs || ctx.num_inputs() > schema.max_inputs) {
    return ctx.Error("expects " + std::to_string(schema.min_inputs) +
                     (schema.max_inputs == kVariadic ? " or more" : " to " + std::to_string(schema.max_inputs)) +
                     " inputs, got " + std::to_string(ctx.num_inputs()));
  }
  if (ctx.num_outputs() < schema.min_outputs || ctx.num_outputs() > schema.max_outputs) {
    return ctx.Error("expects " + std::to_string(schema.min_outputs) + " to " + std::to_string(schema.max_outputs) +
                     " outputs, got " + std::to_string(ctx.num_outputs()));
  }
  for (int i = 0; i < schema.min_inputs; ++i) {
    if (!ctx.has_input(i)) return ctx.Error("required input " + std::to_string(i) + " is missing");
  }
  if (!schema.infer) return Status::Ok();
  return schema.infer(ctx);
}

}  // namespace ge::ops
