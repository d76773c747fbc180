#include "rt/cpu/contention_governor.h"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

namespace ge::rt {
namespace {

constexpr int64_t kMs = 1'000'000;
constexpr int64_t kWindow = ContentionGovernor::kWindowNs;
// Run-queue delay over one window that means contention, and a quiet one (as measured: ~0.1% quiet, 30-50%
// beside a neighbour as wide as the machine).
constexpr int64_t kBusyDelay = kWindow * 3 / 10;
constexpr int64_t kQuietDelay = kWindow / 1000;

// A clock, a run-queue delay and a preemption counter the test moves by hand.
struct FakeProbe {
  int64_t now = 1000;
  int64_t delay = 0;
  uint64_t switches = 0;
  bool has_delay = true;
  int runnable = -1;  // threads runnable on the system; -1: not available (the check is skipped)
  ContentionProbe Probe() {
    ContentionProbe p;
    p.now_ns = [this] { return now; };
    p.run_delay_ns = [this] { return has_delay ? delay : int64_t{-1}; };
    p.involuntary_switches = [this] { return switches; };
    p.runnable_threads = [this] { return runnable; };
    return p;
  }
  // One observation window passes with `d` of run-queue delay.
  void Window(int64_t d) {
    now += kWindow;
    delay += d;
  }
};

TEST(ContentionGovernor, QuietProcessKeepsFullWidth) {
  FakeProbe f;
  ContentionGovernor g(4, ContentionPolicy::kAdaptive, f.Probe());
  g.Threads();
  for (int i = 0; i < 100; ++i) {
    f.Window(kQuietDelay);
    f.switches += 3;  // switch counts are ignored while the run-queue delay is readable
    ASSERT_EQ(g.Threads(), 4) << "window " << i;
  }
  EXPECT_EQ(g.degradations(), 0u);
}

TEST(ContentionGovernor, WhatHappenedBeforeTheFirstRegionDoesNotCount) {
  FakeProbe f;
  ContentionGovernor g(2, ContentionPolicy::kAdaptive, f.Probe());
  f.Window(kBusyDelay);  // model loading on a busy machine
  EXPECT_EQ(g.Threads(), 2);
  f.Window(kQuietDelay);
  EXPECT_EQ(g.Threads(), 2);
}

TEST(ContentionGovernor, RunQueueDelayDropsToOneThreadThenProbesFullWidthAgain) {
  FakeProbe f;
  ContentionGovernor g(2, ContentionPolicy::kAdaptive, f.Probe());
  EXPECT_EQ(g.Threads(), 2);
  f.Window(kBusyDelay);
  EXPECT_EQ(g.Threads(), 2);  // one busy window may be a burst of kernel work
  f.Window(kBusyDelay);
  EXPECT_EQ(g.Threads(), 1);
  EXPECT_EQ(g.degradations(), 1u);
  f.now += ContentionGovernor::kMinHoldNs - kMs;  // still held, whatever the probe says
  f.delay += kBusyDelay;
  EXPECT_EQ(g.Threads(), 1);
  f.now += kMs;
  EXPECT_EQ(g.Threads(), 2);  // hold over: probe full width
  f.Window(kQuietDelay);
  EXPECT_EQ(g.Threads(), 2);  // quiet: stays
}

// While held down, a model may run an execution at the width it measured faster (run_width.h): the scope's width
// applies on its thread only, to this governor only, and the hold itself goes on.
TEST(ContentionGovernor, ScopedWidthOverridesTheHoldOnItsThread) {
  FakeProbe f;
  ContentionGovernor g(4, ContentionPolicy::kAdaptive, f.Probe());
  FakeProbe f_other;
  ContentionGovernor other(4, ContentionPolicy::kAdaptive, f_other.Probe());
  EXPECT_FALSE(g.held_down());
  g.Threads();
  f.Window(kBusyDelay);
  g.Threads();
  f.Window(kBusyDelay);
  EXPECT_EQ(g.Threads(), 1);
  EXPECT_TRUE(g.held_down());
  {
    ContentionGovernor::ScopedWidth scope(g, 4);
    EXPECT_EQ(g.Threads(), 4);
    EXPECT_EQ(other.Threads(), 4);  // not this scope's governor: its own width
    {
      ContentionGovernor::ScopedWidth inner(g, 9);  // clamped to the pool
      EXPECT_EQ(g.Threads(), 4);
    }
    int seen_elsewhere = 0;
    std::thread([&] { seen_elsewhere = g.Threads(); }).join();
    EXPECT_EQ(seen_elsewhere, 1);
    EXPECT_EQ(g.Threads(), 4);
  }
  EXPECT_EQ(g.Threads(), 1);
  EXPECT_TRUE(g.held_down());
  f.now += ContentionGovernor::kMinHoldNs;
  EXPECT_EQ(g.Threads(), 4);  // the hold ends as before
  EXPECT_FALSE(g.held_down());
}

// Run-queue delay while no more threads are runnable than the pool has is the pool's own doing (a woken worker
// placed on the caller's CPU): no other process to give way to.
TEST(ContentionGovernor, DelayWithoutOtherRunnableThreadsIsThePoolsOwn) {
  FakeProbe f;
  ContentionGovernor g(2, ContentionPolicy::kAdaptive, f.Probe());
  g.Threads();
  f.runnable = 2;
  for (int i = 0; i < 10; ++i) {
    f.Window(kBusyDelay);
    ASSERT_EQ(g.Threads(), 2) << "window " << i;
  }
  EXPECT_EQ(g.degradations(), 0u);
  // A neighbour's threads runnable too: the same delay is contention.
  f.runnable = 4;
  f.Window(kBusyDelay);
  g.Threads();
  f.Window(kBusyDelay);
  EXPECT_EQ(g.Threads(), 1);
  EXPECT_EQ(g.degradations(), 1u);
}

TEST(ContentionGovernor, ADelayJustBelowTheShareIsQuiet) {
  FakeProbe f;
  ContentionGovernor g(2, ContentionPolicy::kAdaptive, f.Probe());
  g.Threads();
  const auto share = static_cast<int64_t>(ContentionGovernor::kRunDelayShare * kWindow);
  f.Window(share);
  f.Window(share - 1000);  // a quiet window between two busy ones: no two in a row
  EXPECT_EQ(g.Threads(), 2);
  f.Window(share);
  EXPECT_EQ(g.Threads(), 2);
  f.Window(share);
  EXPECT_EQ(g.Threads(), 1);
}

TEST(ContentionGovernor, ABurstOfOneWindowIsForgiven) {
  FakeProbe f;
  ContentionGovernor g(2, ContentionPolicy::kAdaptive, f.Probe());
  g.Threads();
  for (int i = 0; i < 20; ++i) {
    f.Window(i % 2 == 0 ? kBusyDelay : kQuietDelay);
    ASSERT_EQ(g.Threads(), 2) << "window " << i;
  }
  EXPECT_EQ(g.degradations(), 0u);
}

TEST(ContentionGovernor, PersistentContentionDoublesTheHoldUpToTheCap) {
  FakeProbe f;
  ContentionGovernor g(2, ContentionPolicy::kAdaptive, f.Probe());
  g.Threads();
  int64_t expected_hold = ContentionGovernor::kMinHoldNs;
  f.Window(kBusyDelay);
  ASSERT_EQ(g.Threads(), 2);
  for (int round = 0; round < 8; ++round) {
    f.Window(kBusyDelay);  // the second busy window in a row, then a busy probe after each hold
    ASSERT_EQ(g.Threads(), 1) << "round " << round;
    f.now += expected_hold - kMs;
    ASSERT_EQ(g.Threads(), 1) << "round " << round << ": hold ended early";
    f.now += kMs;
    ASSERT_EQ(g.Threads(), 2) << "round " << round << ": hold did not end";
    expected_hold = std::min(expected_hold * 2, ContentionGovernor::kMaxHoldNs);
  }
  EXPECT_EQ(expected_hold, ContentionGovernor::kMaxHoldNs);
  // A quiet window at full width resets the hold (and the strikes).
  f.Window(kQuietDelay);
  ASSERT_EQ(g.Threads(), 2);
  f.Window(kBusyDelay);
  ASSERT_EQ(g.Threads(), 2);
  f.Window(kBusyDelay);
  ASSERT_EQ(g.Threads(), 1);
  f.now += ContentionGovernor::kMinHoldNs;
  EXPECT_EQ(g.Threads(), 2);
}

TEST(ContentionGovernor, LongIdleGapIsNotContention) {
  FakeProbe f;
  ContentionGovernor g(2, ContentionPolicy::kAdaptive, f.Probe());
  g.Threads();
  f.now += 10'000 * kMs;  // ten seconds without a run; the thread waited a little meanwhile
  f.delay += 20 * kMs;
  EXPECT_EQ(g.Threads(), 2);
  f.Window(kBusyDelay);  // but busy windows right after still count
  EXPECT_EQ(g.Threads(), 2);
  f.Window(kBusyDelay);
  EXPECT_EQ(g.Threads(), 1);
}

TEST(ContentionGovernor, WithoutRunQueueDelayPreemptionsDecide) {
  FakeProbe f;
  f.has_delay = false;
  ContentionGovernor g(2, ContentionPolicy::kAdaptive, f.Probe());
  g.Threads();
  f.Window(0);
  f.switches += ContentionGovernor::kSwitchesPerWindow - 1;
  EXPECT_EQ(g.Threads(), 2);
  for (int i = 0; i < 2; ++i) {
    f.Window(0);
    f.switches += ContentionGovernor::kSwitchesPerWindow;
  }
  EXPECT_EQ(g.Threads(), 2);  // two windows passed between samples: judged as one
  f.Window(0);
  f.switches += ContentionGovernor::kSwitchesPerWindow;
  EXPECT_EQ(g.Threads(), 1);
}

TEST(ContentionGovernor, SamplesOncePerWindow) {
  FakeProbe f;
  int reads = 0;
  ContentionProbe p = f.Probe();
  p.run_delay_ns = [&] {
    ++reads;
    return f.delay;
  };
  ContentionGovernor g(2, ContentionPolicy::kAdaptive, p);
  g.Threads();
  const int opened = reads;
  for (int i = 0; i < 1000; ++i) g.Threads();
  EXPECT_EQ(reads, opened);  // the window has not passed: no read per call
  f.Window(0);
  for (int i = 0; i < 1000; ++i) g.Threads();
  EXPECT_EQ(reads, opened + 2);  // closed (one read) and the next opened (one read)
}

// Run-queue delay is per thread: a window opened by one thread and closed by another is not judged.
TEST(ContentionGovernor, AWindowIsJudgedOnlyByTheThreadThatOpenedIt) {
  FakeProbe f;
  ContentionGovernor g(2, ContentionPolicy::kAdaptive, f.Probe());
  std::thread([&] { g.Threads(); }).join();
  f.Window(kBusyDelay);
  EXPECT_EQ(g.Threads(), 2);  // another thread's window: this thread opens its own
  f.Window(kBusyDelay);
  EXPECT_EQ(g.Threads(), 2);
  f.Window(kBusyDelay);
  EXPECT_EQ(g.Threads(), 1);
}

TEST(ContentionGovernor, FixedPoliciesIgnoreTheProbe) {
  FakeProbe f;
  ContentionGovernor full(3, ContentionPolicy::kFullThreads, f.Probe());
  ContentionGovernor one(3, ContentionPolicy::kOneThread, f.Probe());
  for (int i = 0; i < 10; ++i) {
    f.Window(kWindow);
    EXPECT_EQ(full.Threads(), 3);
    EXPECT_EQ(one.Threads(), 1);
  }
  EXPECT_EQ(full.degradations(), 0u);
}

TEST(ContentionGovernor, OneThreadPoolNeverSamples) {
  FakeProbe f;
  bool read = false;
  ContentionProbe p = f.Probe();
  p.run_delay_ns = [&] {
    read = true;
    return int64_t{0};
  };
  ContentionGovernor g(1, ContentionPolicy::kAdaptive, p);
  g.Threads();
  f.Window(kWindow);
  EXPECT_EQ(g.Threads(), 1);
  EXPECT_FALSE(read);
}

// Many threads asking at once see only the two legal widths and leave the governor consistent.
TEST(ContentionGovernor, ConcurrentCallersSeeOnlyLegalWidths) {
  std::atomic<int64_t> now{1};
  std::atomic<int64_t> delay{0};
  ContentionProbe p;
  p.now_ns = [&] { return now.fetch_add(1000); };
  p.run_delay_ns = [&] { return delay.fetch_add(400); };
  p.involuntary_switches = [] { return uint64_t{0}; };
  ContentionGovernor g(4, ContentionPolicy::kAdaptive, p);
  std::atomic<int> bad{0};
  std::vector<std::thread> ts;
  for (int t = 0; t < 4; ++t) {
    ts.emplace_back([&] {
      for (int i = 0; i < 20000; ++i) {
        const int n = g.Threads();
        if (n != 1 && n != 4) bad.fetch_add(1);
      }
    });
  }
  for (auto& t : ts) t.join();
  EXPECT_EQ(bad.load(), 0);
}

// The real probe: a monotonic clock, and this thread's run-queue delay where the kernel keeps it (Linux with
// schedstats / sched_info), never going backwards.
TEST(ContentionProbe, SystemProbeCountsRunnableThreads) {
  ContentionProbe p = ContentionProbe::System();
  ASSERT_TRUE(p.runnable_threads);
  const int n = p.runnable_threads();
  if (n < 0) GTEST_SKIP() << "no /proc/loadavg";
  EXPECT_GE(n, 1);  // the caller itself is running
}

TEST(ContentionProbe, SystemProbeIsMonotonic) {
  ContentionProbe p = ContentionProbe::System();
  const int64_t t0 = p.now_ns();
  const int64_t d0 = p.run_delay_ns();
  const uint64_t s0 = p.involuntary_switches();
  std::this_thread::sleep_for(std::chrono::milliseconds(2));
  EXPECT_GT(p.now_ns(), t0);
  if (d0 >= 0) EXPECT_GE(p.run_delay_ns(), d0);
  EXPECT_GE(p.involuntary_switches(), s0);
}

}  // namespace
}  // namespace ge::rt
