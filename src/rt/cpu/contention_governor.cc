#include "rt/cpu/contention_governor.h"

#include <sys/resource.h>

#include <algorithm>
#include <chrono>

namespace ge::rt {

ContentionProbe ContentionProbe::System() {
  ContentionProbe p;
  p.now_ns = [] {
    return static_cast<int64_t>(
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
            .count());
  };
  p.involuntary_switches = []() -> uint64_t {
    struct rusage u;
    if (getrusage(RUSAGE_SELF, &u) != 0) return 0;
    return static_cast<uint64_t>(u.ru_nivcsw);
  };
  return p;
}

ContentionGovernor::ContentionGovernor(int full_threads, ContentionPolicy policy, ContentionProbe probe)
    : full_threads_(std::max(1, full_threads)),
      policy_(policy),
      probe_(std::move(probe)),
      threads_(policy == ContentionPolicy::kOneThread ? 1 : std::max(1, full_threads)),
      next_sample_ns_(0) {
  if (policy_ == ContentionPolicy::kAdaptive && full_threads_ > 1) {
    window_start_ns_ = probe_.now_ns();
    window_start_switches_ = probe_.involuntary_switches();
    next_sample_ns_.store(window_start_ns_ + kWindowNs, std::memory_order_relaxed);
  }
}

int ContentionGovernor::Threads() {
  if (policy_ != ContentionPolicy::kAdaptive || full_threads_ == 1) return threads_.load(std::memory_order_relaxed);
  const int64_t now = probe_.now_ns();
  if (now >= next_sample_ns_.load(std::memory_order_relaxed)) {
    std::unique_lock<std::mutex> lk(mu_, std::try_to_lock);
    if (lk.owns_lock()) Sample(now);
  }
  return threads_.load(std::memory_order_relaxed);
}

void ContentionGovernor::Sample(int64_t now) {
  if (now < next_sample_ns_.load(std::memory_order_relaxed)) return;  // another caller sampled first
  const uint64_t switches = probe_.involuntary_switches();
  const uint64_t seen = switches >= window_start_switches_ ? switches - window_start_switches_ : 0;
  const bool full = threads_.load(std::memory_order_relaxed) == full_threads_;
  // A rate, so that a long idle gap between runs does not add up to "contention".
  const int64_t elapsed = std::max<int64_t>(now - window_start_ns_, kWindowNs);
  const bool contended = static_cast<double>(seen) * kWindowNs >= static_cast<double>(kSwitchesPerWindow) * elapsed;
  if (!full) {
    if (now >= degraded_until_ns_) {  // hold over: try full width again
      threads_.store(full_threads_, std::memory_order_relaxed);
      probing_ = true;
    }
  } else if (contended) {
    if (probing_) hold_ns_ = std::min(hold_ns_ * 2, kMaxHoldNs);
    probing_ = false;
    degraded_until_ns_ = now + hold_ns_;
    threads_.store(1, std::memory_order_relaxed);
    degradations_.fetch_add(1, std::memory_order_relaxed);
  } else {
    // A whole quiet window at full width: contention, if it comes back, starts from the shortest hold.
    probing_ = false;
    hold_ns_ = kMinHoldNs;
  }
  window_start_ns_ = now;
  window_start_switches_ = switches;
  const int64_t next = threads_.load(std::memory_order_relaxed) == full_threads_ ? now + kWindowNs : degraded_until_ns_;
  next_sample_ns_.store(next, std::memory_order_relaxed);
}

}  // namespace ge::rt
