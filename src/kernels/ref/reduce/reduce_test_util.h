// Test helpers of the reduce family.
#pragma once
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ir/attribute.h"
#include "kernels/ref/families.h"
#include "kernels/ref/testing/op_tester.h"
#include "ops/families.h"

namespace ge::ref::reduce_test {

inline testing::OpTester MakeTester() { return testing::OpTester(ops::RegisterReduceOps, RegisterReduceRefKernels); }

inline ir::AttrMap Attrs(std::initializer_list<std::pair<std::string, ir::AttrValue>> kv) {
  ir::AttrMap m;
  for (auto& [k, v] : kv) m.Set(k, v);
  return m;
}

inline Tensor F(const std::vector<float>& v, const Dims& d) { return Tensor::FromVector<float>(v, d); }
inline Tensor I64(const std::vector<int64_t>& v, const Dims& d) { return Tensor::FromVector<int64_t>(v, d); }

inline std::vector<double> AsDoubles(const Tensor& t) {
  std::vector<double> out;
  for (int64_t i = 0; i < t.numel(); ++i) out.push_back(t.GetAsDouble(i));
  return out;
}

// Runs inference only, with the given input descs (and no known values).
inline StatusOr<std::vector<TensorDesc>> InferOnly(testing::OpTester& t, const std::string& op,
                                                   const std::vector<TensorDesc>& inputs, const ir::AttrMap& attrs,
                                                   int num_outputs = 1, int64_t opset = 17) {
  const ops::OpSchema* s = t.op_registry().Find("", op);
  if (!s) return NotFound(op);
  ops::InferContext ctx;
  ctx.attrs = &attrs;
  ctx.opset = opset;
  ctx.op_type = op;
  ctx.node_name = "infer_" + op;
  for (const TensorDesc& d : inputs) {
    ctx.inputs.push_back(&d);
    ctx.input_values.push_back(nullptr);
  }
  ctx.outputs.resize(num_outputs);
  GE_RETURN_IF_ERROR(ops::RunInference(*s, ctx));
  return ctx.outputs;
}

#define EXPECT_NEAR_VEC(got, want, tol)                                  \
  do {                                                                   \
    auto g_ = (got);                                                     \
    auto w_ = (want);                                                    \
    ASSERT_EQ(g_.size(), w_.size());                                     \
    for (size_t i_ = 0; i_ < g_.size(); ++i_) EXPECT_NEAR(g_[i_], w_[i_], tol) << "at " << i_; \
  } while (0)

}  // namespace ge::ref::reduce_test
