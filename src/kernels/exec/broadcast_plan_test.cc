#include "kernels/exec/broadcast_plan.h"

#include <gtest/gtest.h>

namespace ge::exec {
namespace {

using Kind = BroadcastPlan::Kind;

BroadcastPlan Plan(const Dims& a, const Dims& b, const Dims& out) {
  auto p = PlanBroadcast(a, b, out);
  EXPECT_TRUE(p.ok()) << p.status().ToString();
  return p.ok() ? *p : BroadcastPlan();
}

TEST(BroadcastPlan, FlatCases) {
  EXPECT_EQ(Plan({2, 3, 4}, {2, 3, 4}, {2, 3, 4}).kind, Kind::kSame);
  EXPECT_EQ(Plan({1, 6}, {6}, {1, 6}).kind, Kind::kSame);  // extent-1 dims do not matter
  EXPECT_EQ(Plan({}, {}, {}).kind, Kind::kSame);
  EXPECT_EQ(Plan({}, {2, 3}, {2, 3}).kind, Kind::kScalarA);
  EXPECT_EQ(Plan({2, 3}, {1, 1}, {2, 3}).kind, Kind::kScalarB);
  EXPECT_EQ(Plan({1, 1, 1}, {1}, {1, 1, 1}).kind, Kind::kSame);
  EXPECT_EQ(Plan({1, 16}, {1, 16}, {1, 16}).numel, 16);
}

TEST(BroadcastPlan, RowBroadcastMergesOuterDims) {
  BroadcastPlan p = Plan({2, 3, 4}, {4}, {2, 3, 4});
  ASSERT_EQ(p.kind, Kind::kGeneral);
  EXPECT_EQ(p.inner, 4);
  EXPECT_EQ(p.step_a, 1);
  EXPECT_EQ(p.step_b, 1);
  ASSERT_EQ(p.outer_rank, 1);
  EXPECT_EQ(p.outer_dims[0], 6);
  EXPECT_EQ(p.stride_a[0], 4);
  EXPECT_EQ(p.stride_b[0], 0);
  EXPECT_EQ(p.rows, 6);
}

TEST(BroadcastPlan, CrossBroadcast) {
  BroadcastPlan p = Plan({2, 1, 4}, {1, 3, 1}, {2, 3, 4});
  ASSERT_EQ(p.kind, Kind::kGeneral);
  EXPECT_EQ(p.inner, 4);
  EXPECT_EQ(p.step_a, 1);
  EXPECT_EQ(p.step_b, 0);
  ASSERT_EQ(p.outer_rank, 2);
  EXPECT_EQ(p.rows, 6);
  int64_t oa, ob;
  p.RowOffsets(4, &oa, &ob);  // row (1, 1)
  EXPECT_EQ(oa, 4);
  EXPECT_EQ(ob, 1);
}

TEST(BroadcastPlan, ChannelBiasRunsOverSpatialDims) {
  BroadcastPlan p = Plan({2, 3, 5, 5}, {3, 1, 1}, {2, 3, 5, 5});
  ASSERT_EQ(p.kind, Kind::kGeneral);
  EXPECT_EQ(p.inner, 25);
  EXPECT_EQ(p.step_b, 0);
  EXPECT_EQ(p.rows, 6);
}

TEST(BroadcastPlan, RejectsMismatches) {
  EXPECT_FALSE(PlanBroadcast({2, 3}, {4}, {2, 3}).ok());
  EXPECT_FALSE(PlanBroadcast({2, 3}, {3}, {3}).ok());
  EXPECT_FALSE(PlanBroadcast({1}, {1}, {5}).ok());
}

}  // namespace
}  // namespace ge::exec
