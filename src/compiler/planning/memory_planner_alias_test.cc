// Aliases (PlanBuffer::alias_of): a no-task Concat's inputs planned as byte ranges of its output.
#include <gtest/gtest.h>

#include "compiler/planning/memory_planner.h"

namespace ge::compiler {
namespace {

PlanBuffer Fm(int64_t id, uint64_t size, int64_t first, int64_t last, int64_t inplace_source = -1) {
  return PlanBuffer{id, size, first, last, BufferKind::kFeatureMap, inplace_source};
}

PlanBuffer Alias(int64_t id, uint64_t size, int64_t first, int64_t last, int64_t parent, uint64_t offset) {
  PlanBuffer b = Fm(id, size, first, last);
  b.alias_of = parent;
  b.alias_offset = offset;
  return b;
}

std::vector<PlanStrategy> AllStrategies() {
  return {PlanStrategy::kGreedyBySize, PlanStrategy::kGreedyBySizeFirstFit, PlanStrategy::kGreedyByArea,
          PlanStrategy::kGreedyByBreadth, PlanStrategy::kBlockReuse};
}

// Three branches (steps 1..3) written into a joined buffer read at step 4; one branch also read at step 5; an
// unrelated buffer before and after.
std::vector<PlanBuffer> Inception() {
  return {Fm(0, 4096, 0, 3),           // the branches' common input
          Alias(1, 1000, 1, 4, 4, 0),  // branch outputs, 1000 + 2004 + 96 bytes
          Alias(2, 2004, 2, 5, 4, 1000),
          Alias(3, 96, 3, 4, 4, 3004),
          Fm(4, 3100, 1, 5),  // the Concat's output, live from the first branch to the last read
          Fm(5, 700, 5, 6)};
}

TEST(MemoryPlannerAlias, AliasesLieInsideTheirParentWithEveryStrategy) {
  const std::vector<PlanBuffer> b = Inception();
  for (bool no_reuse : {false, true}) {
    for (PlanStrategy s : AllStrategies()) {
      MemoryPlanOptions options;
      options.strategies = {s};
      options.disable_reuse = no_reuse;
      StatusOr<MemoryPlan> plan = PlanMemory(b, options);
      ASSERT_TRUE(plan.ok()) << plan.status().ToString();
      Status v = plan->Verify(b);
      EXPECT_TRUE(v.ok()) << PlanStrategyName(s) << ": " << v.ToString();
      EXPECT_EQ(plan->offsets[1], plan->offsets[4]);
      EXPECT_EQ(plan->offsets[2], plan->offsets[4] + 1000);
      EXPECT_EQ(plan->offsets[3], plan->offsets[4] + 3004);
      EXPECT_EQ(plan->aligned_sizes[2], 2004u);
      EXPECT_EQ(plan->offsets[4] % 512, 0u);
      // Aliases take no memory of their own: the input, the joined buffer, then the last buffer reusing the input.
      if (!no_reuse) EXPECT_EQ(plan->feature_map_bytes, 4096u + 3584u) << PlanStrategyName(s);
      if (no_reuse) EXPECT_EQ(plan->feature_map_bytes, 4096u + 3584u + 1024u);
      EXPECT_EQ(plan->feature_map_lower_bound_bytes, 4096u + 3584u);
    }
  }
}

TEST(MemoryPlannerAlias, VerifyRejectsAWrongAlias) {
  const std::vector<PlanBuffer> b = Inception();
  const MemoryPlan good = PlanMemory(b).value();
  ASSERT_TRUE(good.Verify(b).ok());
  {
    MemoryPlan bad = good;
    bad.offsets[2] += 4;  // no longer where it asked, and overlapping its sibling
    EXPECT_FALSE(bad.Verify(b).ok());
  }
  {
    MemoryPlan bad = good;
    bad.offsets[4] += 512;  // the parent moved without its aliases
    bad.feature_map_bytes += 512;
    EXPECT_FALSE(bad.Verify(b).ok());
  }
  {
    std::vector<PlanBuffer> later = b;
    later[2].last_step = 6;  // an alias read after its parent is dead
    EXPECT_FALSE(good.Verify(later).ok());
  }
  {
    std::vector<PlanBuffer> outside = b;
    outside[3].alias_offset = 3100 - 95;  // past the parent's end by one byte
    MemoryPlan bad = good;
    bad.offsets[3] = bad.offsets[4] + outside[3].alias_offset;
    EXPECT_FALSE(bad.Verify(outside).ok());
  }
  {
    std::vector<PlanBuffer> overlap = b;
    overlap[2].alias_offset = 999;  // siblings share a byte
    MemoryPlan bad = good;
    bad.offsets[2] = bad.offsets[4] + 999;
    EXPECT_FALSE(bad.Verify(overlap).ok());
  }
  {
    MemoryPlan bad = good;
    bad.offsets[5] = bad.offsets[4];  // the last buffer over the joined one while an alias still lives
    EXPECT_FALSE(bad.Verify(b).ok());
  }
}

// Two slices only, the overlapping pair being the last one Verify compares.
TEST(MemoryPlannerAlias, VerifyRejectsTheLastTwoSlicesOverlapping) {
  const std::vector<PlanBuffer> b = {Fm(0, 2000, 0, 2), Alias(1, 1000, 0, 2, 0, 0), Alias(2, 1000, 1, 2, 0, 1000)};
  const MemoryPlan good = PlanMemory(b).value();
  ASSERT_TRUE(good.Verify(b).ok());
  std::vector<PlanBuffer> overlap = b;
  overlap[2].alias_offset = 999;
  MemoryPlan bad = good;
  bad.offsets[2] = bad.offsets[0] + 999;
  EXPECT_FALSE(bad.Verify(overlap).ok());
}

TEST(MemoryPlannerAlias, PlanRejectsAliasesThatBreakTheRules) {
  auto rejected = [](std::vector<PlanBuffer> b) { return !PlanMemory(b).ok(); };
  std::vector<PlanBuffer> b = Inception();
  EXPECT_FALSE(rejected(b));
  b = Inception();
  b[3].alias_offset = 3005;  // past the parent's end
  EXPECT_TRUE(rejected(b));
  b = Inception();
  b[2].last_step = 6;  // outlives its parent
  EXPECT_TRUE(rejected(b));
  b = Inception();
  b[1].first_step = 0;  // written before its parent lives
  EXPECT_TRUE(rejected(b));
  b = Inception();
  b[2].alias_offset = 999;  // overlaps its sibling
  EXPECT_TRUE(rejected(b));
  b = Inception();
  b[1].alias_of = 99;  // no such buffer
  EXPECT_TRUE(rejected(b));
  b = Inception();
  b[2].alias_of = 1;  // an alias of an alias
  b[2].alias_offset = 0;
  b[2].size_bytes = 10;
  EXPECT_TRUE(rejected(b));
  b = Inception();
  b[1].inplace_source = 0;  // an alias taking over a buffer in place
  EXPECT_TRUE(rejected(b));
  b = Inception();
  b[5].inplace_source = 2;  // a buffer taking over an alias
  EXPECT_TRUE(rejected(b));
  b = Inception();
  b[4].inplace_source = 0;  // a parent taking over a buffer in place
  EXPECT_TRUE(rejected(b));
  b = Inception();
  b[1].kind = BufferKind::kGraphOutput;
  EXPECT_TRUE(rejected(b));
}

TEST(MemoryPlannerAlias, ParentIsTakenOverInPlaceOnlyAfterItsAliasesLastRead) {
  // Relu(joined) in place at step 5: accepted when no alias is read at step 5, refused when one is (the Relu may
  // read it where it writes).
  std::vector<PlanBuffer> b = {Alias(0, 1024, 0, 4, 2, 0), Alias(1, 1024, 1, 4, 2, 1024), Fm(2, 2048, 0, 5),
                               Fm(3, 2048, 5, 6, /*inplace_source=*/2)};
  MemoryPlan plan = PlanMemory(b).value();
  EXPECT_TRUE(plan.Verify(b).ok());
  EXPECT_EQ(plan.inplace_of[3], 2);
  EXPECT_EQ(plan.offsets[3], plan.offsets[2]);

  b[1].last_step = 5;
  plan = PlanMemory(b).value();
  EXPECT_TRUE(plan.Verify(b).ok());
  EXPECT_EQ(plan.inplace_of[3], -1);
  EXPECT_NE(plan.offsets[3], plan.offsets[2]);
  // A plan claiming the pair anyway is refused.
  MemoryPlan forced = plan;
  forced.inplace_of[3] = 2;
  forced.offsets[3] = forced.offsets[2];
  EXPECT_FALSE(forced.Verify(b).ok());
}

}  // namespace
}  // namespace ge::compiler
