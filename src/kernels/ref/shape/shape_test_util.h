// Helpers for the shape family's unit tests: attribute maps, tensor comparison and inference-only runs.
#pragma once
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "kernels/ref/families.h"
#include "kernels/ref/testing/op_tester.h"
#include "ops/families.h"

namespace ge::ref::shape_family::testing {

using ge::ref::testing::OpTester;

inline OpTester MakeTester() { return OpTester(ops::RegisterShapeOps, RegisterShapeRefKernels); }

inline ir::AttrMap Attrs(std::vector<std::pair<std::string, ir::AttrValue>> kv) {
  ir::AttrMap m;
  for (auto& [k, v] : kv) m.Set(k, v);
  return m;
}

template <typename T>
Tensor T1(std::vector<T> v) {
  return Tensor::FromVector<T>(v, {static_cast<int64_t>(v.size())});
}

inline Tensor I64(std::vector<int64_t> v) { return T1<int64_t>(v); }

// Shapes with unknown dims: -1 entries are unknown.
inline TensorDesc Desc(DataType dt, std::vector<int64_t> dims) { return TensorDesc(dt, Shape(dims)); }

// Runs only inference of `op`; values[i] may be nullptr (unknown at compile time).
inline StatusOr<std::vector<TensorDesc>> Infer(const std::string& op, const std::vector<TensorDesc>& inputs,
                                               const std::vector<const Tensor*>& values,
                                               const ir::AttrMap& attrs = ir::AttrMap(), int num_outputs = 1,
                                               int64_t opset = 17) {
  testing::OpTester t(ops::RegisterShapeOps, RegisterShapeRefKernels);
  return t.InferOnly(op, inputs, values, attrs, num_outputs, opset);
}

#define EXPECT_TENSOR_EQ(got, want) \
  EXPECT_TRUE(TensorsMatch((got), (want), 0.0)) << (got).DebugString(32) << " vs " << (want).DebugString(32)
#define EXPECT_TENSOR_NEAR(got, want, tol) \
  EXPECT_TRUE(TensorsMatch((got), (want), (tol))) << (got).DebugString(32) << " vs " << (want).DebugString(32)

}  // namespace ge::ref::shape_family::testing
