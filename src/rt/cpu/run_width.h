// The width a model's executions run at while the contention governor holds the pool down
// (rt/cpu/contention_governor.h), chosen by timing whole executions at each width.
//
// One thread never waits on a descheduled thread, which is what makes a neighbour expensive for short parallel
// regions; a model whose regions are long still runs faster at full width. Which case a model is depends on its
// work and on the neighbour, so each model keeps a recent time at full width and at one thread, runs at the
// faster, and times the other again now and then (the neighbour changes): every kExploreEvery executions when the
// two are close, less often the slower the other is (at most every kMaxInterval), so exploring costs at most about
// 1/kExploreEvery of an execution. Whole executions, not single
// tasks: a task run at full width after tasks run at one thread pays for waking the team's sleeping threads, a
// cost that a run at full width pays once.
//
// Not thread-safe: one per model, used by the thread launching its (one at a time) executions.
#pragma once
#include <cstdint>

namespace ge::rt {

class RunWidthChooser {
 public:
  static constexpr int kExploreEvery = 8;
  static constexpr int kMaxInterval = 256;
  static constexpr double kSmoothing = 0.25;  // weight of the newest time in a width's running average

  // The width of the next execution: 1 or |full_threads|; each width is timed before either is preferred.
  int Choose(int full_threads);
  // The execution at |threads| took |ns| nanoseconds.
  void Record(int threads, int64_t ns);
  // Smoothed time of a width so far, 0 before its first run (for tests and reports).
  double AverageNs(bool full_width) const { return avg_ns_[full_width ? 1 : 0]; }

 private:
  double avg_ns_[2] = {0, 0};  // [0] one thread, [1] full width
  bool seen_[2] = {false, false};
  int runs_since_explore_ = 0;
};

}  // namespace ge::rt
