// Lowering of IR graphs whose node outputs lack a desc: op inference fills in the missing dtypes (so that such
// values still run as plain tensors on compiled kernels), never overriding a declared one.
#include "runtime/v2/lowering/lowering.h"

#include <gtest/gtest.h>

#include "ir/text_parser.h"

namespace ge::runtime::v2 {
namespace {

std::unique_ptr<ir::Model> Parse(const char* text) {
  auto m = ir::ParseModelText(text);
  EXPECT_TRUE(m.ok()) << m.status().ToString();
  return m.ok() ? std::move(*m) : nullptr;
}

TEST(Lowering, InferenceFillsOnlyOutputsWithoutADtype) {
  // Nothing is known of %x, so inference cannot give %v a dtype: the declared one stands, and Relu compiles.
  auto model = Parse(R"(opset "" 17
graph g(%x: ?, %k: int64[1]) {
  t: %v: float32[?], %i = TopK(%x, %k)
  r: %r: float32[?] = Relu(%v)
  n: %n: int64[?] = Neg(%i)
  return %r, %n
})");
  ASSERT_NE(model, nullptr);
  auto lowered = LowerModel(*model, LoweringOptions());
  ASSERT_TRUE(lowered.ok()) << lowered.status().ToString();
  EXPECT_EQ((*lowered)->stats.ref_nodes, 1u);        // TopK, reading a boxed value
  EXPECT_EQ((*lowered)->stats.compute_dynamic, 2u);  // Relu and Neg (%i inferred int64)
}

TEST(Lowering, OmittedOutputsAreSkippedWhenInferenceFillsTheOthers) {
  auto model = Parse(R"(opset "" 17
graph g(%x: float32[1,1,4,4]) {
  p: %y, _ = MaxPool(%x) {kernel_shape = [2, 2]}
  return %y
})");
  ASSERT_NE(model, nullptr);
  auto lowered = LowerModel(*model, LoweringOptions());
  ASSERT_TRUE(lowered.ok()) << lowered.status().ToString();
  EXPECT_EQ((*lowered)->stats.ref_nodes, 0u);
  EXPECT_EQ((*lowered)->stats.compute_static, 1u);
}

}  // namespace
}  // namespace ge::runtime::v2
