// GoogleTest adapters of base/compare.h for every test in the tree: EXPECT_TRUE(TensorsMatch(got, want, tol))
// fails with the first mismatching index and both values (NaN only matches NaN, an infinity only the same one).
#pragma once
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "base/compare.h"

namespace ge {

inline ::testing::AssertionResult StatusToAssertion(const Status& s) {
  if (s.ok()) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << s.message();
}

inline ::testing::AssertionResult TensorsMatch(const Tensor& got, const Tensor& want, const Tolerance& tol = {}) {
  return StatusToAssertion(CompareTensors(got, want, tol));
}
// Shorthand for an absolute tolerance: |got - want| <= atol element-wise.
inline ::testing::AssertionResult TensorsMatch(const Tensor& got, const Tensor& want, double atol) {
  return TensorsMatch(got, want, Tolerance::Abs(atol));
}

inline ::testing::AssertionResult FloatsMatch(const float* got, const float* want, int64_t n, const Tolerance& tol) {
  return StatusToAssertion(CompareFloats(got, want, n, tol));
}
inline ::testing::AssertionResult FloatsMatch(const std::vector<float>& got, const std::vector<float>& want,
                                              const Tolerance& tol) {
  if (got.size() != want.size()) {
    return ::testing::AssertionFailure() << got.size() << " elements, expected " << want.size();
  }
  return FloatsMatch(got.data(), want.data(), static_cast<int64_t>(want.size()), tol);
}

inline ::testing::AssertionResult RelativeL2Within(const Tensor& got, const Tensor& want, double max_error) {
  return StatusToAssertion(CompareRelativeL2(got, want, max_error));
}

}  // namespace ge
