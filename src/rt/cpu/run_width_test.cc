#include "rt/cpu/run_width.h"

#include <gtest/gtest.h>

namespace ge::rt {
namespace {

TEST(RunWidthChooser, MeasuresBothWidthsFirst) {
  RunWidthChooser c;
  EXPECT_EQ(c.Choose(4), 4);
  c.Record(4, 1000);
  EXPECT_EQ(c.Choose(4), 1);
  c.Record(1, 3000);
  EXPECT_EQ(c.Choose(4), 4);  // full width was faster
}

TEST(RunWidthChooser, OneThreadPoolAlwaysOne) {
  RunWidthChooser c;
  for (int i = 0; i < 20; ++i) EXPECT_EQ(c.Choose(1), 1);
}

TEST(RunWidthChooser, PrefersTheFasterAndExploresTheOther) {
  RunWidthChooser c;
  c.Record(2, 2000);  // full width waits on a descheduled thread
  c.Record(1, 1000);
  int full_runs = 0;
  const int interval = 2 * RunWidthChooser::kExploreEvery;  // the other width is twice as slow
  for (int i = 0; i < 10 * interval; ++i) {
    const int w = c.Choose(2);
    if (w == 2) ++full_runs;
    c.Record(w, w == 2 ? 2000 : 1000);
  }
  EXPECT_EQ(full_runs, 10);
}

TEST(RunWidthChooser, ExploresAMuchSlowerWidthRarely) {
  RunWidthChooser c;
  c.Record(2, 100'000'000);  // full width beside a neighbour that takes every core
  c.Record(1, 1'000'000);
  int full_runs = 0;
  for (int i = 0; i < 4 * RunWidthChooser::kMaxInterval; ++i) {
    const int w = c.Choose(2);
    if (w == 2) ++full_runs;
    c.Record(w, w == 2 ? 100'000'000 : 1'000'000);
  }
  EXPECT_EQ(full_runs, 4);
}

TEST(RunWidthChooser, FollowsAChangeInTheNeighbour) {
  RunWidthChooser c;
  c.Record(2, 5000);
  c.Record(1, 1000);
  // The neighbour leaves: full width now takes 400 ns and one thread 1000 ns; the exploring runs notice.
  int full_runs_at_end = 0;
  for (int i = 0; i < 400; ++i) {
    const int w = c.Choose(2);
    c.Record(w, w == 2 ? 400 : 1000);
    if (i >= 400 - 2 * RunWidthChooser::kExploreEvery && w == 2) ++full_runs_at_end;
  }
  EXPECT_GE(full_runs_at_end, 2 * RunWidthChooser::kExploreEvery - 1);
  EXPECT_LT(c.AverageNs(true), c.AverageNs(false));
}

TEST(RunWidthChooser, SmoothsOneOutlier) {
  RunWidthChooser c;
  c.Record(2, 1000);
  c.Record(1, 3000);
  c.Record(2, 5000);  // one preempted run
  EXPECT_DOUBLE_EQ(c.AverageNs(true), 1000 + RunWidthChooser::kSmoothing * 4000);
  EXPECT_EQ(c.Choose(2), 2);  // still faster than one thread
}

}  // namespace
}  // namespace ge::rt
