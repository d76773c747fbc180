// Shared helpers of the index family's unit tests.
#pragma once
#include <gtest/gtest.h>

#include <limits>
#include <string>
#include <vector>

#include "kernels/ref/families.h"
#include "kernels/ref/testing/op_tester.h"
#include "ops/families.h"

namespace ge::ref::index_test {

inline testing::OpTester MakeTester() { return testing::OpTester(ops::RegisterIndexOps, RegisterIndexRefKernels); }

inline ir::AttrMap Attrs(std::initializer_list<std::pair<std::string, int64_t>> ints) {
  ir::AttrMap a;
  for (auto& [k, v] : ints) a.Set(k, ir::AttrValue::Int(v));
  return a;
}

template <typename T>
void ExpectTensor(const Tensor& got, const std::vector<T>& want, const Dims& dims) {
  ASSERT_EQ(got.dtype(), DataTypeOf<T>::value) << DataTypeName(got.dtype());
  ASSERT_EQ(DimsToString(got.dims()), DimsToString(dims));
  ASSERT_EQ(got.numel(), static_cast<int64_t>(want.size()));
  const T* p = got.data<T>();
  for (size_t i = 0; i < want.size(); ++i) {
    if constexpr (std::is_same_v<T, float16> || std::is_same_v<T, bfloat16>) {
      EXPECT_EQ(static_cast<float>(p[i]), static_cast<float>(want[i])) << "element " << i;
    } else if constexpr (std::is_floating_point_v<T>) {
      EXPECT_NEAR(p[i], want[i], 1e-5) << "element " << i;
    } else {
      EXPECT_EQ(p[i], want[i]) << "element " << i;
    }
  }
}

// Runs inference only, on descs (nullptr = omitted input) with optional known values.
inline StatusOr<std::vector<TensorDesc>> InferOnly(const std::string& op, const std::vector<TensorDesc>& descs,
                                                   const ir::AttrMap& attrs = ir::AttrMap(), int num_outputs = 1,
                                                   const std::vector<const Tensor*>& values = {},
                                                   int64_t opset = 17) {
  testing::OpTester t(ops::RegisterIndexOps, RegisterIndexRefKernels);
  return t.InferOnly(op, descs, values, attrs, num_outputs, opset);
}

inline Shape ShapeOf(std::initializer_list<int64_t> dims) { return Shape(Dims(dims)); }

}  // namespace ge::ref::index_test
