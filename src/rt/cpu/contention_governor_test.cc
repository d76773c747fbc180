#include "rt/cpu/contention_governor.h"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

namespace ge::rt {
namespace {

constexpr int64_t kMs = 1'000'000;

// A clock and a preemption counter the test moves by hand.
struct FakeProbe {
  int64_t now = 0;
  uint64_t switches = 0;
  ContentionProbe Probe() {
    ContentionProbe p;
    p.now_ns = [this] { return now; };
    p.involuntary_switches = [this] { return switches; };
    return p;
  }
  // One observation window passes with |n| preemptions.
  void Window(uint64_t n) {
    now += ContentionGovernor::kWindowNs;
    switches += n;
  }
};

TEST(ContentionGovernor, QuietProcessKeepsFullWidth) {
  FakeProbe f;
  ContentionGovernor g(4, ContentionPolicy::kAdaptive, f.Probe());
  for (int i = 0; i < 100; ++i) {
    f.Window(1);  // below the threshold
    ASSERT_EQ(g.Threads(), 4) << "window " << i;
  }
  EXPECT_EQ(g.degradations(), 0u);
}

TEST(ContentionGovernor, PreemptionDropsToOneThreadThenProbesFullWidthAgain) {
  FakeProbe f;
  ContentionGovernor g(2, ContentionPolicy::kAdaptive, f.Probe());
  EXPECT_EQ(g.Threads(), 2);
  f.Window(ContentionGovernor::kSwitchesPerWindow);
  EXPECT_EQ(g.Threads(), 1);
  EXPECT_EQ(g.degradations(), 1u);
  f.now += ContentionGovernor::kMinHoldNs - kMs;  // still held, whatever the counter says
  EXPECT_EQ(g.Threads(), 1);
  f.now += kMs;
  EXPECT_EQ(g.Threads(), 2);  // hold over: probe full width
  f.Window(0);
  EXPECT_EQ(g.Threads(), 2);  // quiet: stays
}

TEST(ContentionGovernor, PersistentContentionDoublesTheHoldUpToTheCap) {
  FakeProbe f;
  ContentionGovernor g(2, ContentionPolicy::kAdaptive, f.Probe());
  int64_t expected_hold = ContentionGovernor::kMinHoldNs;
  for (int round = 0; round < 8; ++round) {
    f.Window(5);
    ASSERT_EQ(g.Threads(), 1) << "round " << round;
    f.now += expected_hold - kMs;
    ASSERT_EQ(g.Threads(), 1) << "round " << round << ": hold ended early";
    f.now += kMs;
    ASSERT_EQ(g.Threads(), 2) << "round " << round << ": hold did not end";
    expected_hold = std::min(expected_hold * 2, ContentionGovernor::kMaxHoldNs);
  }
  EXPECT_EQ(expected_hold, ContentionGovernor::kMaxHoldNs);
  // A quiet window at full width resets the hold.
  f.Window(0);
  ASSERT_EQ(g.Threads(), 2);
  f.Window(5);
  ASSERT_EQ(g.Threads(), 1);
  f.now += ContentionGovernor::kMinHoldNs;
  EXPECT_EQ(g.Threads(), 2);
}

TEST(ContentionGovernor, LongIdleGapIsNotContention) {
  FakeProbe f;
  ContentionGovernor g(2, ContentionPolicy::kAdaptive, f.Probe());
  f.now += 10'000 * kMs;  // ten seconds without a run, a few preemptions of other threads meanwhile
  f.switches += 10;
  EXPECT_EQ(g.Threads(), 2);
  f.Window(3);  // but a busy window right after still counts
  EXPECT_EQ(g.Threads(), 1);
}

TEST(ContentionGovernor, SamplesOncePerWindow) {
  FakeProbe f;
  int reads = 0;
  ContentionProbe p = f.Probe();
  p.involuntary_switches = [&] {
    ++reads;
    return f.switches;
  };
  ContentionGovernor g(2, ContentionPolicy::kAdaptive, p);
  const int at_start = reads;
  for (int i = 0; i < 1000; ++i) g.Threads();
  EXPECT_EQ(reads, at_start);  // the window has not passed: no syscall per call
  f.Window(0);
  for (int i = 0; i < 1000; ++i) g.Threads();
  EXPECT_EQ(reads, at_start + 1);
}

TEST(ContentionGovernor, FixedPoliciesIgnoreTheProbe) {
  FakeProbe f;
  ContentionGovernor full(3, ContentionPolicy::kFullThreads, f.Probe());
  ContentionGovernor one(3, ContentionPolicy::kOneThread, f.Probe());
  for (int i = 0; i < 10; ++i) {
    f.Window(100);
    EXPECT_EQ(full.Threads(), 3);
    EXPECT_EQ(one.Threads(), 1);
  }
  EXPECT_EQ(full.degradations(), 0u);
}

TEST(ContentionGovernor, OneThreadPoolNeverSamples) {
  FakeProbe f;
  bool read = false;
  ContentionProbe p = f.Probe();
  p.involuntary_switches = [&] {
    read = true;
    return uint64_t{0};
  };
  ContentionGovernor g(1, ContentionPolicy::kAdaptive, p);
  f.Window(100);
  EXPECT_EQ(g.Threads(), 1);
  EXPECT_FALSE(read);
}

// Many threads asking at once see only the two legal widths and leave the governor consistent.
TEST(ContentionGovernor, ConcurrentCallersSeeOnlyLegalWidths) {
  std::atomic<int64_t> now{0};
  std::atomic<uint64_t> switches{0};
  ContentionProbe p;
  p.now_ns = [&] { return now.fetch_add(1000); };
  p.involuntary_switches = [&] { return switches.fetch_add(1); };
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

// The real probe counts this process's preemptions: monotonic, and read without error.
TEST(ContentionProbe, SystemProbeIsMonotonic) {
  ContentionProbe p = ContentionProbe::System();
  const int64_t t0 = p.now_ns();
  const uint64_t s0 = p.involuntary_switches();
  std::this_thread::sleep_for(std::chrono::milliseconds(2));
  EXPECT_GT(p.now_ns(), t0);
  EXPECT_GE(p.involuntary_switches(), s0);
}

}  // namespace
}  // namespace ge::rt
