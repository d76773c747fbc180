#include "kernels/ref/node_runner.h"

namespace ge::ref {

TensorDesc DescribeValue(const Value& v) {
  TensorDesc d;
  switch (v.kind) {
    case Value::Kind::kTensor:
      d.dtype = v.tensor.dtype();
      d.shape = Shape(v.tensor.dims());
      break;
    case Value::Kind::kSequence:
      d.kind = ValueKind::kSequence;
      d.dtype = v.elem_dtype;
      d.shape = v.sequence.empty() ? Shape::UnknownRank() : Shape(v.sequence[0].dims());
      for (const Tensor& t : v.sequence)
        if (t.dims() != v.sequence[0].dims()) d.shape = Shape::UnknownRank();
      break;
    case Value::Kind::kOptionalNone:
      d.kind = ValueKind::kOptional;
      d.elem_kind = v.optional_of_sequence ? ValueKind::kSequence : ValueKind::kTensor;
      d.dtype = v.elem_dtype;
      break;
    case Value::Kind::kNone:
      d.kind = ValueKind::kUnknown;
      break;
  }
  return d;
}

StatusOr<std::vector<Value>> RunNode(const ops::OpRegistry& ops, const KernelRegistry& kernels, const NodeCall& call) {
  const ops::OpSchema* schema = ops.Find(call.domain, call.op_type);
  if (!schema) {
    return Unimplemented("node '" + call.node_name + "': unknown op '" +
                         (call.domain.empty() ? "" : call.domain + "::") + call.op_type + "'");
  }
  RefKernelFn fn = kernels.Find(call.domain, call.op_type);
  if (!fn) {
    return Unimplemented("node '" + call.node_name + "': no reference kernel for op '" + call.op_type + "'");
  }
  static const ir::AttrMap kNoAttrs;
  const ir::AttrMap* attrs = call.attrs ? call.attrs : &kNoAttrs;

  std::vector<TensorDesc> in_descs(call.inputs.size());
  ops::InferContext ictx;
  ictx.node = call.node;
  ictx.attrs = attrs;
  ictx.opset = call.opset;
  ictx.op_type = call.op_type;
  ictx.node_name = call.node_name;
  for (size_t i = 0; i < call.inputs.size(); ++i) {
    const Value* v = call.inputs[i];
    if (v && v->kind != Value::Kind::kNone) {
      in_descs[i] = DescribeValue(*v);
      ictx.inputs.push_back(&in_descs[i]);
      ictx.input_values.push_back(v->is_tensor() ? &v->tensor : nullptr);
    } else {
      ictx.inputs.push_back(nullptr);
      ictx.input_values.push_back(nullptr);
    }
  }
  ictx.outputs.resize(call.num_outputs);
  GE_RETURN_IF_ERROR(ops::RunInference(*schema, ictx));

  KernelContext kctx;
  kctx.node = call.node;
  kctx.attrs = attrs;
  kctx.opset = call.opset;
  kctx.op_type = call.op_type;
  kctx.node_name = call.node_name;
  kctx.inputs = call.inputs;
  kctx.inferred = std::move(ictx.outputs);
  kctx.outputs.resize(call.num_outputs);
  kctx.runner = call.runner;
  kctx.rng = call.rng;
  kctx.variables = call.variables;
  GE_RETURN_IF_ERROR(fn(kctx));
  return std::move(kctx.outputs);
}

}  // namespace ge::ref
