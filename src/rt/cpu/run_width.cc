#include "rt/cpu/run_width.h"

#include <algorithm>

namespace ge::rt {

int RunWidthChooser::Choose(int full_threads) {
  if (full_threads <= 1) return 1;
  if (!seen_[1]) return full_threads;
  if (!seen_[0]) return 1;
  const bool full_is_faster = avg_ns_[1] < avg_ns_[0];
  // Exploring costs the slower width's extra time once per interval: the interval grows with how much slower it
  // is, so that exploring costs at most 1/kExploreEvery of an execution on average.
  const double fast = std::max(std::min(avg_ns_[0], avg_ns_[1]), 1.0);
  const double slow = std::max(avg_ns_[0], avg_ns_[1]);
  const double interval = std::min(kExploreEvery * std::max(slow / fast, 1.0), static_cast<double>(kMaxInterval));
  if (++runs_since_explore_ >= interval) {
    runs_since_explore_ = 0;
    return full_is_faster ? 1 : full_threads;
  }
  return full_is_faster ? full_threads : 1;
}

void RunWidthChooser::Record(int threads, int64_t ns) {
  const int i = threads > 1 ? 1 : 0;
  const double t = ns > 0 ? static_cast<double>(ns) : 0.0;
  avg_ns_[i] = seen_[i] ? avg_ns_[i] + kSmoothing * (t - avg_ns_[i]) : t;
  seen_[i] = true;
}

}  // namespace ge::rt
