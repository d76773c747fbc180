// The width a model's executions run at while the contention governor holds the pool down
// (rt/cpu/contention_governor.h), chosen by timing whole executions at each width.
//
// One thread never waits on a descheduled thread, which is what makes a neighbour expensive for short parallel
// regions; a model whose regions are long still runs faster at full width. Which case a model is depends on its
// work and on the neighbour, so each model times kWarmupRuns executions at each width, then runs at the width whose
// recent times have the lower median (a median: beside a neighbour single runs are sometimes preempted for a whole
// scheduler slice, and one such run must not decide; with fewer than kWindow times, their minimum, for the same
// reason), and times the other again now and then (the neighbour
// changes): every kExploreEvery executions when the two are close, less often the slower the other is (at most
// every kMaxInterval), so exploring costs at most about 1/kExploreEvery of an execution. Whole executions, not
// single tasks, and the first execution after a change of width is not counted: it pays for waking (or parking) the
// team's threads — beside a neighbour a woken thread may wait a scheduler slice for a core — which back-to-back runs
// at one width do not pay. Hence widths are timed in bursts: kWarmupRuns + 1 runs of each at first, kExploreBurst
// runs when exploring. The first kColdRuns executions run at full width untimed: a process's first runs beside a
// neighbour are slow at any width (its threads' first wake-ups), tens of times a warm run.
//
// Not thread-safe: one per model, used by the thread launching its (one at a time) executions.
#pragma once
#include <cstdint>

namespace ge::rt {

class RunWidthChooser {
 public:
  static constexpr int kWarmupRuns = 3;  // of each width before either is preferred
  static constexpr int kWindow = 5;      // recent times kept per width; their median is the width's estimate
  static constexpr int kExploreEvery = 8;
  static constexpr int kMaxInterval = 512;
  static constexpr int kExploreBurst = 3;  // the first one not counted
  static constexpr int kColdRuns = 4;

  // The width of the next execution: 1 or |full_threads|.
  int Choose(int full_threads);
  // The execution at |threads| took |ns| nanoseconds.
  void Record(int threads, int64_t ns);
  // Median of a width's last kWindow times (their minimum while there are fewer), 0 before its first run.
  double EstimateNs(bool full_width) const;

 private:
  struct Times {
    int64_t ns[kWindow] = {};
    int count = 0;  // runs recorded, ever
  };
  Times times_[2];  // [0] one thread, [1] full width
  int runs_since_explore_ = 0;
  int last_ = -1;              // width index of the last recorded-or-skipped run; -1 before the first
  int cold_left_ = kColdRuns;  // first executions, not timed
  int burst_left_ = 0;         // runs still to do at explore_width_
  int explore_width_ = 1;
};

}  // namespace ge::rt
