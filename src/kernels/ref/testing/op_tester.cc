#include "kernels/ref/testing/op_tester.h"

#include <random>

namespace ge::ref::testing {

StatusOr<std::vector<Value>> OpTester::RunValues(const std::string& op, const std::vector<Value>& inputs,
                                                 const ir::AttrMap& attrs, int num_outputs, int64_t opset,
                                                 const std::string& domain) {
  NodeCall call;
  call.op_type = op;
  call.domain = domain;
  call.node_name = "test_" + op;
  call.attrs = &attrs;
  call.opset = opset;
  call.num_outputs = num_outputs;
  for (const Value& v : inputs) call.inputs.push_back(v.kind == Value::Kind::kNone ? nullptr : &v);
  std::mt19937_64 rng(0);
  call.rng = &rng;
  return RunNode(ops_, kernels_, call);
}

StatusOr<std::vector<Value>> OpTester::Run(const std::string& op, const std::vector<Tensor>& inputs,
                                           const ir::AttrMap& attrs, int num_outputs, int64_t opset,
                                           const std::string& domain) {
  std::vector<Value> vals;
  for (const Tensor& t : inputs) vals.push_back(t.valid() ? Value(t) : Value());
  return RunValues(op, vals, attrs, num_outputs, opset, domain);
}

StatusOr<Tensor> OpTester::Run1(const std::string& op, const std::vector<Tensor>& inputs, const ir::AttrMap& attrs,
                                int64_t opset) {
  GE_ASSIGN_OR_RETURN(std::vector<Value> outs, Run(op, inputs, attrs, 1, opset));
  if (outs.empty() || !outs[0].is_tensor()) return Internal("output 0 is not a tensor");
  return outs[0].tensor;
}

StatusOr<std::vector<TensorDesc>> OpTester::InferOnly(const std::string& op, const std::vector<TensorDesc>& descs,
                                                      const std::vector<const Tensor*>& values,
                                                      const ir::AttrMap& attrs, int num_outputs, int64_t opset,
                                                      const std::string& domain) {
  const ops::OpSchema* schema = ops_.Find(domain, op);
  if (!schema) return NotFound("no schema for op " + op);
  ops::InferContext ctx;
  ctx.attrs = &attrs;
  ctx.opset = opset;
  ctx.op_type = op;
  ctx.node_name = "n";
  for (size_t i = 0; i < descs.size(); ++i) {
    ctx.inputs.push_back(&descs[i]);
    ctx.input_values.push_back(i < values.size() ? values[i] : nullptr);
  }
  ctx.outputs.resize(num_outputs);
  GE_RETURN_IF_ERROR(ops::RunInference(*schema, ctx));
  return ctx.outputs;
}

}  // namespace ge::ref::testing
