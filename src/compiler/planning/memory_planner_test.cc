#include "compiler/planning/memory_planner.h"

#include <gtest/gtest.h>

#include <chrono>
#include <random>

namespace ge::compiler {
namespace {

constexpr uint64_t kA = 512;  // default alignment

PlanBuffer Fm(int64_t id, uint64_t size, int64_t first, int64_t last, int64_t inplace_source = -1) {
  return PlanBuffer{id, size, first, last, BufferKind::kFeatureMap, inplace_source};
}

MemoryPlan PlanOk(const std::vector<PlanBuffer>& buffers, const MemoryPlanOptions& options = {}) {
  StatusOr<MemoryPlan> plan = PlanMemory(buffers, options);
  EXPECT_TRUE(plan.ok()) << plan.status().ToString();
  if (!plan.ok()) return {};
  Status verified = plan->Verify(buffers);
  EXPECT_TRUE(verified.ok()) << verified.ToString();
  EXPECT_GE(plan->feature_map_bytes, plan->feature_map_lower_bound_bytes);
  return std::move(plan).value();
}

std::vector<PlanStrategy> AllStrategies() {
  return {PlanStrategy::kGreedyBySize, PlanStrategy::kGreedyBySizeFirstFit, PlanStrategy::kGreedyByArea,
          PlanStrategy::kGreedyByBreadth, PlanStrategy::kBlockReuse};
}

TEST(MemoryPlanner, EmptyInput) {
  MemoryPlan plan = PlanOk({});
  EXPECT_EQ(plan.feature_map_bytes, 0u);
  EXPECT_EQ(plan.feature_map_lower_bound_bytes, 0u);
}

TEST(MemoryPlanner, ChainNeedsTwoBuffers) {
  std::vector<PlanBuffer> b = {Fm(0, kA, 0, 1), Fm(1, kA, 1, 2), Fm(2, kA, 2, 3), Fm(3, kA, 3, 4)};
  for (PlanStrategy s : AllStrategies()) {
    MemoryPlanOptions options;
    options.strategies.push_back(s);
    MemoryPlan plan = PlanOk(b, options);
    EXPECT_EQ(plan.feature_map_bytes, 2 * kA) << PlanStrategyName(s);
    EXPECT_EQ(plan.feature_map_lower_bound_bytes, 2 * kA);
    EXPECT_EQ(plan.strategy, PlanStrategyName(s));
  }
}

TEST(MemoryPlanner, DisjointLifetimesShareOffsetZero) {
  std::vector<PlanBuffer> b = {Fm(7, 1000, 0, 0), Fm(8, 3000, 1, 1), Fm(9, 2000, 2, 2)};
  MemoryPlan plan = PlanOk(b);
  EXPECT_EQ(plan.feature_map_bytes, 3072u);
  EXPECT_EQ(plan.feature_map_lower_bound_bytes, 3072u);
  for (uint64_t offset : plan.offsets) EXPECT_EQ(offset, 0u);
}

TEST(MemoryPlanner, SmallBridgeGoesAboveLargeNeighbours) {
  // Large X then Z with disjoint lifetimes, bridged by a small Y overlapping both: optimum 4 units.
  std::vector<PlanBuffer> b = {Fm(0, 3 * kA, 0, 1), Fm(1, kA, 1, 2), Fm(2, 3 * kA, 2, 3)};
  MemoryPlan plan = PlanOk(b);
  EXPECT_EQ(plan.feature_map_bytes, 4 * kA);
  EXPECT_EQ(plan.feature_map_lower_bound_bytes, 4 * kA);
  EXPECT_EQ(plan.offsets[0], plan.offsets[2]);
  ASSERT_EQ(plan.tried.size(), 5u);
}

TEST(MemoryPlanner, MixedLifetimesReachTheBound) {
  std::vector<PlanBuffer> b = {Fm(0, 4 * kA, 0, 9), Fm(1, 2 * kA, 0, 4), Fm(2, 2 * kA, 5, 9), Fm(3, kA, 0, 9),
                               Fm(4, kA, 6, 7)};
  MemoryPlan plan = PlanOk(b);
  EXPECT_EQ(plan.feature_map_bytes, plan.feature_map_lower_bound_bytes);
  EXPECT_EQ(plan.feature_map_bytes, 8 * kA);
}

TEST(MemoryPlanner, AlignmentRoundsSizesUp) {
  std::vector<PlanBuffer> b = {Fm(0, 1, 0, 1), Fm(1, 513, 0, 1), Fm(2, 0, 0, 1)};
  MemoryPlan plan = PlanOk(b);
  EXPECT_EQ(plan.aligned_sizes, (std::vector<uint64_t>{512, 1024, 0}));
  EXPECT_EQ(plan.feature_map_bytes, 1536u);
  MemoryPlanOptions options;
  options.alignment = 64;
  plan = PlanOk(b, options);
  EXPECT_EQ(plan.aligned_sizes, (std::vector<uint64_t>{64, 576, 0}));
  EXPECT_EQ(plan.feature_map_bytes, 640u);
  for (uint64_t offset : plan.offsets) EXPECT_EQ(offset % 64, 0u);
}

TEST(MemoryPlanner, InplaceChainUsesOneBlock) {
  // relu(add(conv)) style: each element-wise op writes over its input, whose last use it is.
  std::vector<PlanBuffer> b = {Fm(10, 4096, 0, 1), Fm(11, 4096, 1, 2, 10), Fm(12, 4096, 2, 3, 11),
                               Fm(13, 4096, 3, 4, 12)};
  MemoryPlan plan = PlanOk(b);
  EXPECT_EQ(plan.feature_map_bytes, 4096u);
  EXPECT_EQ(plan.feature_map_lower_bound_bytes, 4096u);
  EXPECT_EQ(plan.inplace_of, (std::vector<int64_t>{-1, 0, 1, 2}));
  for (uint64_t offset : plan.offsets) EXPECT_EQ(offset, 0u);
}

TEST(MemoryPlanner, UnsafeInplaceIsRefused) {
  std::vector<PlanBuffer> b = {
      Fm(0, kA, 0, 3),          // read again at step 3: not its last use at step 1
      Fm(1, kA, 1, 4, 0),       // wants 0 in place
      Fm(2, kA, 0, 2),          //
      Fm(3, 2 * kA, 2, 4, 2),   // larger than its source
      Fm(4, kA, 0, 5),          //
      Fm(5, kA, 5, 6, 4),       // takes 4
      Fm(6, kA, 5, 6, 4),       // 4 is already taken
  };
  MemoryPlan plan = PlanOk(b);
  EXPECT_EQ(plan.inplace_of, (std::vector<int64_t>{-1, -1, -1, -1, -1, 4, -1}));
  EXPECT_EQ(plan.offsets[5], plan.offsets[4]);
  EXPECT_NE(plan.offsets[6], plan.offsets[4]);
}

TEST(MemoryPlanner, InplacePairCountedOnceInLowerBound) {
  std::vector<PlanBuffer> b = {Fm(0, 2 * kA, 0, 1), Fm(1, kA, 1, 2, 0), Fm(2, kA, 1, 1)};
  MemoryPlan plan = PlanOk(b);
  EXPECT_EQ(plan.feature_map_lower_bound_bytes, 3 * kA);
  EXPECT_EQ(plan.feature_map_bytes, 3 * kA);
}

TEST(MemoryPlanner, GraphIoIsKeptApart) {
  std::vector<PlanBuffer> b = {
      {0, 1000, 0, 0, BufferKind::kGraphInput, -1}, {1, 700, 0, 1, BufferKind::kFeatureMap, -1},
      {2, 1000, 2, 2, BufferKind::kGraphInput, -1}, {3, 700, 1, 2, BufferKind::kFeatureMap, 1},
      {4, 300, 2, 3, BufferKind::kGraphOutput, 3},  {5, 300, 3, 3, BufferKind::kGraphOutput, -1},
  };
  MemoryPlan plan = PlanOk(b);
  EXPECT_EQ(plan.graph_input_bytes, 2048u);
  EXPECT_EQ(plan.graph_output_bytes, 1024u);
  EXPECT_EQ(plan.feature_map_bytes, 1024u);
  EXPECT_EQ(plan.offsets[0], 0u);
  EXPECT_EQ(plan.offsets[2], 1024u);
  EXPECT_EQ(plan.offsets[4], 0u);
  EXPECT_EQ(plan.offsets[5], 512u);
  EXPECT_EQ(plan.inplace_of[4], -1);  // an output never takes over a feature map
  EXPECT_EQ(plan.inplace_of[3], 1);
}

TEST(MemoryPlanner, DisableReuseGivesEveryBufferItsOwnRange) {
  std::vector<PlanBuffer> b = {Fm(0, kA, 0, 1), Fm(1, kA, 1, 2, 0), Fm(2, 100, 5, 6)};
  MemoryPlanOptions options;
  ASSERT_TRUE(ApplyMemoryPlanOption("ge.exec.disableReuseMemory", "1", &options).ok());
  EXPECT_TRUE(options.disable_reuse);
  MemoryPlan plan = PlanOk(b, options);
  EXPECT_EQ(plan.strategy, "no_reuse");
  EXPECT_EQ(plan.feature_map_bytes, 3 * kA);
  EXPECT_EQ(plan.offsets, (std::vector<uint64_t>{0, 512, 1024}));
  EXPECT_EQ(plan.feature_map_lower_bound_bytes, kA);
  ASSERT_TRUE(ApplyMemoryPlanOption("ge.exec.disableReuseMemory", "0", &options).ok());
  EXPECT_FALSE(options.disable_reuse);
  EXPECT_FALSE(ApplyMemoryPlanOption("ge.exec.disableReuseMemory", "yes", &options).ok());
  EXPECT_TRUE(ApplyMemoryPlanOption("ge.exec.other", "x", &options).ok());
}

TEST(MemoryPlanner, RejectsBadInput) {
  EXPECT_EQ(PlanMemory({Fm(1, 8, 0, 1), Fm(1, 8, 2, 3)}).status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(PlanMemory({Fm(1, 8, 3, 2)}).status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(PlanMemory({Fm(1, 8, -1, 2)}).status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(PlanMemory({Fm(1, 8, 0, 2, 5)}).status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(PlanMemory({Fm(1, ~uint64_t{0}, 0, 2)}).status().code(), StatusCode::kInvalidArgument);
  MemoryPlanOptions options;
  options.alignment = 48;
  EXPECT_EQ(PlanMemory({Fm(1, 8, 0, 2)}, options).status().code(), StatusCode::kInvalidArgument);
}

TEST(MemoryPlanner, VerifyCatchesOverlaps) {
  std::vector<PlanBuffer> b = {Fm(0, kA, 0, 2), Fm(1, kA, 1, 3), Fm(2, kA, 3, 4)};
  MemoryPlan plan = PlanOk(b);
  MemoryPlan bad = plan;
  bad.offsets[1] = bad.offsets[0];
  EXPECT_FALSE(bad.Verify(b).ok());
  bad = plan;
  bad.offsets[2] = bad.feature_map_bytes;
  EXPECT_FALSE(bad.Verify(b).ok());
  bad = plan;
  bad.offsets[0] += 256;
  EXPECT_FALSE(bad.Verify(b).ok());
  bad = plan;
  bad.inplace_of[2] = 1;
  EXPECT_FALSE(bad.Verify(b).ok());
  EXPECT_FALSE(plan.Verify({Fm(0, kA, 0, 2)}).ok());
}

TEST(MemoryPlanner, RandomLifetimesAreValid) {
  std::mt19937_64 rng(42);
  for (int round = 0; round < 40; ++round) {
    const int n = 1 + static_cast<int>(rng() % 400);
    const int steps = 1 + static_cast<int>(rng() % 200);
    std::vector<PlanBuffer> b;
    for (int i = 0; i < n; ++i) {
      int64_t first = static_cast<int64_t>(rng() % steps);
      int64_t last = first + static_cast<int64_t>(rng() % (1 + rng() % 30));
      uint64_t size = rng() % 4 == 0 ? rng() % 2000 : rng() % (1 << 20);
      PlanBuffer buf = Fm(1000 + i, size, first, last);
      if (rng() % 10 == 0) buf.kind = rng() % 2 ? BufferKind::kGraphInput : BufferKind::kGraphOutput;
      if (i > 0 && rng() % 3 == 0) buf.inplace_source = 1000 + static_cast<int64_t>(rng() % i);
      b.push_back(buf);
    }
    for (PlanStrategy s : AllStrategies()) {
      MemoryPlanOptions options;
      options.strategies.push_back(s);
      MemoryPlan plan = PlanOk(b, options);
      if (::testing::Test::HasFailure()) return;
    }
    MemoryPlan best = PlanOk(b);
    for (const StrategyResult& r : best.tried) EXPECT_LE(best.feature_map_bytes, r.feature_map_bytes);
    MemoryPlanOptions no_reuse;
    no_reuse.disable_reuse = true;
    PlanOk(b, no_reuse);
  }
}

TEST(MemoryPlanner, TwentyThousandBuffersPlanQuickly) {
  // A deep network: a chain with skip connections, in-place element-wise ops and a few long-lived tensors.
  std::mt19937_64 rng(7);
  std::vector<PlanBuffer> b;
  for (int i = 0; i < 20000; ++i) {
    const int64_t step = i;
    int64_t last = step + 1;
    if (i % 3 == 0) last = step + 4;
    if (i % 997 == 0) last = step + 5000;
    int64_t source = (i % 5 == 1) ? i - 1 : -1;
    b.push_back(Fm(i, 1024 * (1 + rng() % 4096), step, last, source));
  }
  auto start = std::chrono::steady_clock::now();
  MemoryPlan plan = PlanOk(b);
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_LT(seconds, 10.0);
  std::printf("20000 buffers: %.3f s, %s, %.3f x lower bound\n", seconds, plan.strategy.c_str(),
              static_cast<double>(plan.feature_map_bytes) / plan.feature_map_lower_bound_bytes);
}

}  // namespace
}  // namespace ge::compiler
