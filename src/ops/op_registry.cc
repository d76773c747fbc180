#include "ops/op_schema.h"

namespace ge::ops {

Status InferContext::Error(const std::string& msg) const {
  return InvalidArgument("node '" + node_name + "' (" + op_type + "): " + msg);
}

void OpRegistry::Add(OpSchema schema) {
  std::string domain = schema.domain == "ai.onnx" ? "" : schema.domain;
  schemas_[{domain, schema.name}] = std::move(schema);
}

const OpSchema* OpRegistry::Find(const std::string& domain, const std::string& name) const {
  auto it = schemas_.find({domain == "ai.onnx" ? "" : domain, name});
  return it == schemas_.end() ? nullptr : &it->second;
}

std::vector<const OpSchema*> OpRegistry::All() const {
  std::vector<const OpSchema*> out;
  for (auto& [k, s] : schemas_) out.push_back(&s);
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
