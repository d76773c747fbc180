// Test helpers: random inputs and the oracle — the same op run on the reference kernels (ref::RunNode), with the
// attributes converted here independently of the code under test.
#pragma once
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "base/testing/expect_match.h"
#include "base/value.h"
#include "ge/single_op.h"
#include "kernels/ref/kernel_registry.h"
#include "kernels/ref/node_runner.h"
#include "ops/op_schema.h"

namespace ge::single_op::testing {

// Floats uniform in [-1, 1) from a fixed seed.
inline Tensor RandomFloats(const Dims& dims, uint32_t seed) {
  Tensor t = Tensor::Create(DataType::kFloat, dims).value();
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  for (int64_t i = 0; i < t.numel(); ++i) t.data<float>()[i] = u(rng);
  return t;
}

inline ir::AttrMap ToIrAttrs(const Attrs& attrs) {
  ir::AttrMap m;
  for (const auto& [name, a] : attrs) {
    switch (a.kind()) {
      case AttrValue::Kind::kInt: m.Set(name, ir::AttrValue::Int(a.i())); break;
      case AttrValue::Kind::kFloat: m.Set(name, ir::AttrValue::Float(a.f())); break;
      case AttrValue::Kind::kString: m.Set(name, ir::AttrValue::String(a.s())); break;
      case AttrValue::Kind::kTensor: m.Set(name, ir::AttrValue::TensorValue(a.t())); break;
      case AttrValue::Kind::kInts: m.Set(name, ir::AttrValue::Ints(a.ints())); break;
      case AttrValue::Kind::kFloats: m.Set(name, ir::AttrValue::Floats(a.floats())); break;
      case AttrValue::Kind::kStrings: m.Set(name, ir::AttrValue::Strings(a.strings())); break;
    }
  }
  return m;
}

// The reference kernels' outputs for op(inputs, attrs); an invalid tensor is an omitted input.
inline std::vector<Tensor> RefOutputs(const std::string& op, const std::vector<Tensor>& inputs, const Attrs& attrs,
                                      int num_outputs = 1, int64_t opset = 17) {
  const ir::AttrMap ir_attrs = ToIrAttrs(attrs);
  std::vector<Value> values;
  values.reserve(inputs.size());
  for (const Tensor& t : inputs) values.push_back(t.valid() ? Value(t) : Value());
  ref::NodeCall call;
  call.op_type = op;
  call.node_name = "ref_" + op;
  call.attrs = &ir_attrs;
  call.opset = opset;
  for (const Value& v : values) call.inputs.push_back(v.is_tensor() ? &v : nullptr);
  call.num_outputs = num_outputs;
  auto out = ref::RunNode(ops::BuiltinOps(), ref::RefKernels(), call);
  EXPECT_TRUE(out.ok()) << out.status().ToString();
  std::vector<Tensor> tensors;
  if (out.ok()) {
    for (Value& v : *out) tensors.push_back(v.tensor);
  }
  return tensors;
}

inline std::vector<OpTensorDesc> DescsOf(const std::vector<Tensor>& inputs) {
  std::vector<OpTensorDesc> d;
  for (const Tensor& t : inputs) d.push_back(t.valid() ? OpTensorDesc(t.dtype(), t.dims()) : OpTensorDesc());
  return d;
}

}  // namespace ge::single_op::testing
