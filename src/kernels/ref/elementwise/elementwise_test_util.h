// Shared helpers of the elementwise kernel tests.
#pragma once
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "kernels/ref/families.h"
#include "kernels/ref/testing/op_tester.h"
#include "ops/families.h"

namespace ge::ref::elementwise::testing {

inline ge::ref::testing::OpTester MakeTester() {
  return ge::ref::testing::OpTester(ge::ops::RegisterElementwiseOps, ge::ref::RegisterElementwiseRefKernels);
}

template <typename T>
std::vector<T> Values(const Tensor& t) {
  return std::vector<T>(t.data<T>(), t.data<T>() + t.numel());
}

inline std::vector<bool> Bools(const Tensor& t) {
  std::vector<bool> v;
  for (int64_t i = 0; i < t.numel(); ++i) v.push_back(t.data<bool>()[i]);
  return v;
}

inline std::vector<float> AsFloats(const Tensor& t) {
  std::vector<float> v;
  for (int64_t i = 0; i < t.numel(); ++i) v.push_back(static_cast<float>(t.GetAsDouble(i)));
  return v;
}

inline ir::AttrMap Attrs(std::initializer_list<std::pair<std::string, ir::AttrValue>> kv) {
  ir::AttrMap m;
  for (auto& [k, v] : kv) m.Set(k, v);
  return m;
}

template <typename H>
Tensor HalfTensor(const std::vector<float>& v, const Dims& dims) {
  std::vector<H> h;
  for (float f : v) h.push_back(H(f));
  return Tensor::FromVector<H>(h, dims);
}

#define EXPECT_FLOATS_NEAR(got, want, tol)                                            \
  do {                                                                                \
    auto g_ = (got);                                                                  \
    auto w_ = (want);                                                                 \
    ASSERT_EQ(g_.size(), w_.size());                                                  \
    for (size_t i_ = 0; i_ < g_.size(); ++i_) EXPECT_NEAR(g_[i_], w_[i_], tol) << i_; \
  } while (0)

}  // namespace ge::ref::elementwise::testing
