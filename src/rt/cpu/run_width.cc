#include "rt/cpu/run_width.h"

#include <algorithm>

namespace ge::rt {

double RunWidthChooser::EstimateNs(bool full_width) const {
  const Times& t = times_[full_width ? 1 : 0];
  const int n = std::min(t.count, kWindow);
  if (n == 0) return 0;
  int64_t sorted[kWindow];
  std::copy(t.ns, t.ns + n, sorted);
  std::sort(sorted, sorted + n);
  // Fewer than a window of times: the fastest, since a slow one may be a preempted run (beside a neighbour a run
  // can wait a scheduler slice); the width then in use fills its window within a few runs.
  if (n < kWindow) return static_cast<double>(sorted[0]);
  return n % 2 == 1 ? static_cast<double>(sorted[n / 2])
                    : 0.5 * (static_cast<double>(sorted[n / 2 - 1]) + static_cast<double>(sorted[n / 2]));
}

int RunWidthChooser::Choose(int full_threads) {
  if (full_threads <= 1) return 1;
  if (cold_left_ > 0 || times_[1].count < kWarmupRuns) return full_threads;
  if (times_[0].count < kWarmupRuns) return 1;
  if (burst_left_ > 0) {
    --burst_left_;
    return explore_width_ > 1 ? full_threads : 1;
  }
  const double one = std::max(EstimateNs(false), 1.0);
  const double full = std::max(EstimateNs(true), 1.0);
  const bool full_is_faster = full < one;
  // Exploring costs the slower width's extra time for a burst once per interval: the interval grows with how much
  // slower it is, so that exploring costs at most about 1/kExploreEvery of an execution on average.
  const double ratio = std::max(one, full) / std::min(one, full);
  const double interval = std::min(kExploreEvery * kExploreBurst * ratio, static_cast<double>(kMaxInterval));
  if (++runs_since_explore_ >= interval) {
    runs_since_explore_ = 0;
    explore_width_ = full_is_faster ? 1 : full_threads;
    burst_left_ = kExploreBurst - 1;
    return explore_width_;
  }
  return full_is_faster ? full_threads : 1;
}

void RunWidthChooser::Record(int threads, int64_t ns) {
  const int w = threads > 1 ? 1 : 0;
  if (cold_left_ > 0) {
    --cold_left_;
    last_ = w;
    return;
  }
  if (w != last_) {  // the first run at a new width paid for the switch
    last_ = w;
    return;
  }
  Times& t = times_[w];
  t.ns[t.count % kWindow] = std::max<int64_t>(ns, 0);
  ++t.count;
}

}  // namespace ge::rt
