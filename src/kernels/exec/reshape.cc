#include "kernels/exec/reshape.h"

#include "kernels/exec/kernel_util.h"
#include "ops/op_schema.h"

namespace ge::exec {

KernelSpec MakeSpec(const ir::Node& node, const RequestSettings& settings) {
  KernelSpec spec;
  spec.node = &node;
  spec.settings = settings;
  for (const ir::Value* v : node.inputs()) {
    spec.const_inputs.push_back(v != nullptr && v->is_constant() ? v->const_value() : nullptr);
  }
  return spec;
}

StatusOr<std::unique_ptr<PreparedKernel>> Reshape(const KernelSpec& spec, const std::vector<TensorDesc>& input_descs,
                                                  const kernels::EngineList& engines,
                                                  std::vector<TensorDesc>* output_descs) {
  if (spec.node == nullptr) return InvalidArgument("Reshape: the spec has no node");
  const ir::Node& n = *spec.node;
  if (input_descs.size() != static_cast<size_t>(n.num_inputs()) || spec.const_inputs.size() != input_descs.size()) {
    return InvalidArgument(NodeLabel(n) + ": Reshape got " + std::to_string(input_descs.size()) +
                           " input descs for " + std::to_string(n.num_inputs()) + " inputs");
  }
  const ops::OpSchema* schema = ops::BuiltinOps().Find(n.domain(), n.op_type());
  if (schema == nullptr) return InvalidArgument(NodeLabel(n) + ": unknown op");
  ops::InferContext ctx;
  ctx.node = &n;
  ctx.attrs = &n.attrs();
  ctx.opset = spec.settings.opset;
  ctx.op_type = n.op_type();
  ctx.node_name = n.name();
  for (size_t i = 0; i < input_descs.size(); ++i) ctx.inputs.push_back(n.input(static_cast<int>(i)) ? &input_descs[i] : nullptr);
  ctx.input_values = spec.const_inputs;
  ctx.outputs.assign(static_cast<size_t>(n.num_outputs()), TensorDesc());
  Status s = ops::RunInference(*schema, ctx);
  if (!s.ok()) return InvalidArgument(NodeLabel(n) + ": cannot reshape: " + s.message());
  PrepareRequest r = MakeRequest(n, spec.settings);
  r.input_descs = input_descs;
  r.const_inputs = spec.const_inputs;
  for (int i = 0; i < n.num_outputs(); ++i) {
    if (n.output(i) == nullptr) continue;
    TensorDesc d = ctx.outputs[static_cast<size_t>(i)];
    d.format = r.output_descs[static_cast<size_t>(i)].format;  // the layout the graph planned
    if (!IsStaticTensor(d)) {
      return InvalidArgument(NodeLabel(n) + ": output " + std::to_string(i) + " is " + d.ToString() +
                             " for these inputs, not a static tensor");
    }
    r.output_descs[static_cast<size_t>(i)] = d;
  }
  if (output_descs != nullptr) *output_descs = r.output_descs;
  return PrepareKernel(r, engines);
}

}  // namespace ge::exec
