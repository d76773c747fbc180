#include <gtest/gtest.h>

#include "ops/inplace.h"
#include "ops/op_id.h"
#include "ops/op_schema.h"

namespace ge::ops {
namespace {

// The traits column says what the rest of the code assumes about an op; each trait must fit the op's schema.
TEST(OpTraits, FitTheSchemas) {
  const OpRegistry& registry = BuiltinOps();
  int unary = 0, binary = 0, views = 0, random = 0, host = 0, heavy = 0, stateful = 0;
  for (int i = 0; i < kNumOpIds; ++i) {
    const OpId id = static_cast<OpId>(i);
    const uint32_t t = TraitsOf(id);
    const OpSchema* s = registry.Find(id);
    if (t == 0) continue;
    ASSERT_NE(s, nullptr) << OpLabel(id) << " has traits but no schema";
    if (t & OpTrait::kUnaryElementwise) {
      ++unary;
      EXPECT_EQ(FamilyOf(id), OpFamily::kElementwise) << OpLabel(id);
      EXPECT_EQ(s->min_inputs, 1) << OpLabel(id);
      EXPECT_EQ(s->max_outputs, 1) << OpLabel(id);
    }
    if (t & OpTrait::kBinaryElementwise) {
      ++binary;
      EXPECT_EQ(FamilyOf(id), OpFamily::kElementwise) << OpLabel(id);
      EXPECT_LE(s->min_inputs, 2) << OpLabel(id);
      EXPECT_GE(s->max_inputs, 2) << OpLabel(id);
    }
    if (t & OpTrait::kDataView) {
      ++views;
      EXPECT_GE(s->min_inputs, 1) << OpLabel(id);
    }
    if (t & OpTrait::kRandom) ++random;
    if (t & OpTrait::kHostOnly) {
      ++host;
      EXPECT_EQ(FamilyOf(id), OpFamily::kControl) << OpLabel(id);
    }
    if (t & OpTrait::kStateful) {
      ++stateful;
      EXPECT_EQ(FamilyOf(id), OpFamily::kVariable) << OpLabel(id);
    }
    if (t & OpTrait::kComputeHeavy) ++heavy;
    // An op is at most one kind of element-wise op, and a view computes nothing.
    EXPECT_FALSE((t & OpTrait::kUnaryElementwise) && (t & OpTrait::kBinaryElementwise)) << OpLabel(id);
    EXPECT_FALSE((t & OpTrait::kDataView) && (t & OpTrait::kComputeHeavy)) << OpLabel(id);
  }
  EXPECT_EQ(unary, 21);
  EXPECT_EQ(binary, 6);
  EXPECT_EQ(views, 6);
  EXPECT_EQ(random, 6);
  EXPECT_EQ(host, 15);
  EXPECT_EQ(stateful, 5);
  EXPECT_EQ(heavy, 10);
}

TEST(OpTraits, InplaceQueriesReadTheTable) {
  EXPECT_TRUE(IsInplaceUnary(OpId::kRelu));
  EXPECT_TRUE(IsInplaceUnary(OpId::kClip));
  EXPECT_FALSE(IsInplaceUnary(OpId::kAdd));
  EXPECT_TRUE(IsInplaceBinary(OpId::kMin));
  EXPECT_FALSE(IsInplaceBinary(OpId::kPow));
  EXPECT_TRUE(IsDataView(OpId::kDropout));
  EXPECT_FALSE(IsDataView(OpId::kTranspose));
  EXPECT_EQ(TraitsOf(OpId::kUnknown), 0u);
  EXPECT_TRUE(HasTrait(OpId::kIf, OpTrait::kHostOnly));
  EXPECT_TRUE(HasTrait(OpId::kGeFusedConv, OpTrait::kComputeHeavy));
  EXPECT_FALSE(HasTrait(OpId::kRelu, OpTrait::kRandom | OpTrait::kStateful));
}

}  // namespace
}  // namespace ge::ops
