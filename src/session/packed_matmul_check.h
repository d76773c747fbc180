// Test helper shared by the session tests whose graph 1 is `ones[4,64] @ w` with w a [64,48] variable read through
// a packed MatMul: checks one run of it against scale * w_values (row 3 of the result: the column sums).
#pragma once
#include <gtest/gtest.h>

#include <vector>

#include "ge/session.h"

namespace ge::testing {

inline void ExpectPackedMatMulScaled(Session& s, const std::vector<float>& w_values, float scale) {
  const Tensor ones = Tensor::FromVector<float>(std::vector<float>(4 * 64, 1.0f), {4, 64});
  std::vector<Tensor> out;
  Status st = s.RunGraph(1, {ones}, out);
  ASSERT_TRUE(st.ok()) << st.ToString();
  // Column j of ones @ (scale * w): scale * the sum of column j of w.
  for (int j = 0; j < 48; ++j) {
    float want = 0;
    for (int i = 0; i < 64; ++i) want += w_values[static_cast<size_t>(i * 48 + j)];
    EXPECT_NEAR(out[0].data<float>()[3 * 48 + j], scale * want, 1e-3f) << "column " << j << " scale " << scale;
  }
}

}  // namespace ge::testing
