#include "rt/cpu/run_width.h"

#include <gtest/gtest.h>

namespace ge::rt {
namespace {

// Feeds the chooser runs that take full_ns at full width and one_ns at one thread; returns the full-width runs.
int Feed(RunWidthChooser& c, int runs, int64_t full_ns, int64_t one_ns) {
  int full_runs = 0;
  for (int i = 0; i < runs; ++i) {
    const int w = c.Choose(2);
    if (w == 2) ++full_runs;
    c.Record(w, w == 2 ? full_ns : one_ns);
  }
  return full_runs;
}

constexpr int kWarmup = 2 * (RunWidthChooser::kWarmupRuns + 1);  // each width's first run is not counted

// A chooser past its untimed first runs (at full width).
RunWidthChooser Warm() {
  RunWidthChooser c;
  for (int i = 0; i < RunWidthChooser::kColdRuns; ++i) {
    EXPECT_EQ(c.Choose(2), 2);
    c.Record(2, 24'000'000);
  }
  EXPECT_DOUBLE_EQ(c.EstimateNs(true), 0);  // none of them timed
  return c;
}

TEST(RunWidthChooser, TimesEachWidthInARunThenPrefersTheFaster) {
  RunWidthChooser c = Warm();
  for (int i = 0; i < RunWidthChooser::kWarmupRuns; ++i) {  // the cold runs were at full width: no switch
    ASSERT_EQ(c.Choose(4), 4);
    c.Record(4, 3000);
  }
  for (int i = 0; i < RunWidthChooser::kWarmupRuns + 1; ++i) {
    ASSERT_EQ(c.Choose(4), 1);
    c.Record(1, 1000);
  }
  EXPECT_EQ(c.Choose(4), 1);  // one thread was faster
  EXPECT_DOUBLE_EQ(c.EstimateNs(true), 3000);
  EXPECT_DOUBLE_EQ(c.EstimateNs(false), 1000);
}

TEST(RunWidthChooser, TheRunAfterASwitchIsNotCounted) {
  RunWidthChooser c = Warm();
  c.Record(1, 5000);  // parked the team
  c.Record(1, 1500);
  c.Record(2, 900'000);  // woke it: a scheduler slice
  c.Record(2, 1000);
  EXPECT_DOUBLE_EQ(c.EstimateNs(true), 1000);
  EXPECT_DOUBLE_EQ(c.EstimateNs(false), 1500);
}

TEST(RunWidthChooser, AProcesssFirstRunsAreNotTimed) {
  RunWidthChooser c;
  for (int i = 0; i < RunWidthChooser::kColdRuns; ++i) {
    EXPECT_EQ(c.Choose(2), 2);
    c.Record(i % 2 == 0 ? 2 : 1, 24'000'000);
  }
  EXPECT_DOUBLE_EQ(c.EstimateNs(true), 0);
  EXPECT_DOUBLE_EQ(c.EstimateNs(false), 0);
  EXPECT_EQ(c.Choose(2), 2);  // warm-up starts at full width
}

TEST(RunWidthChooser, OneThreadPoolAlwaysOne) {
  RunWidthChooser c = Warm();
  for (int i = 0; i < 20; ++i) EXPECT_EQ(c.Choose(1), 1);
}

TEST(RunWidthChooser, PrefersTheFasterAndExploresTheOtherInBursts) {
  RunWidthChooser c = Warm();
  Feed(c, kWarmup, 2000, 1000);  // full width waits on a descheduled thread
  // Twice as slow: one burst per interval of decisions; the burst's later runs come on top.
  const int cycle =
      RunWidthChooser::kExploreEvery * RunWidthChooser::kExploreBurst * 2 + RunWidthChooser::kExploreBurst - 1;
  EXPECT_EQ(Feed(c, 10 * cycle, 2000, 1000), 10 * RunWidthChooser::kExploreBurst);
}

TEST(RunWidthChooser, ExploresAMuchSlowerWidthRarely) {
  RunWidthChooser c = Warm();
  Feed(c, kWarmup, 100'000'000, 1'000'000);  // beside a neighbour on every core
  const int cycle = RunWidthChooser::kMaxInterval + RunWidthChooser::kExploreBurst - 1;
  EXPECT_EQ(Feed(c, 4 * cycle, 100'000'000, 1'000'000), 4 * RunWidthChooser::kExploreBurst);
}

TEST(RunWidthChooser, OnePreemptedRunDoesNotDecide) {
  RunWidthChooser c = Warm();
  for (int64_t full : {int64_t{1000}, int64_t{50'000}, int64_t{1000}}) {  // one waited a slice
    ASSERT_EQ(c.Choose(2), 2);
    c.Record(2, full);
  }
  Feed(c, RunWidthChooser::kWarmupRuns + 1, 1000, 1500);
  EXPECT_DOUBLE_EQ(c.EstimateNs(true), 1000);
  EXPECT_EQ(c.Choose(2), 2);
}

// Full width's runs preempted in bursts (most of them wait a slice, the model itself is faster at full width when
// not preempted): with few times the fastest decides; once the width in use has a window of times, its median.
TEST(RunWidthChooser, FewTimesDecideByTheFastestThenAWindowByItsMedian) {
  RunWidthChooser c = Warm();
  for (int64_t full : {int64_t{23'000}, int64_t{200}, int64_t{23'000}}) {
    ASSERT_EQ(c.Choose(2), 2);
    c.Record(2, full);
  }
  Feed(c, RunWidthChooser::kWarmupRuns + 1, 0, 380);
  EXPECT_DOUBLE_EQ(c.EstimateNs(true), 200);
  EXPECT_EQ(c.Choose(2), 2);
  // Full width keeps waiting a slice: once it has a window of times, one thread wins.
  Feed(c, RunWidthChooser::kWindow, 23'000, 380);
  EXPECT_EQ(c.Choose(2), 1);
}

TEST(RunWidthChooser, FollowsAChangeInTheNeighbour) {
  RunWidthChooser c = Warm();
  Feed(c, kWarmup, 5000, 1000);
  // The neighbour leaves: full width now takes 400 ns and one thread 1000 ns; the exploring bursts notice.
  Feed(c, 600, 400, 1000);
  EXPECT_LT(c.EstimateNs(true), c.EstimateNs(false));
  EXPECT_GE(Feed(c, 20, 400, 1000), 20 - RunWidthChooser::kExploreBurst);
}

}  // namespace
}  // namespace ge::rt
