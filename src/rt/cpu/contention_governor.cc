#include "rt/cpu/contention_governor.h"

#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>

namespace ge::rt {
namespace {

// The second field of /proc/thread-self/schedstat: nanoseconds this thread has waited on a run queue; -1 where
// the kernel does not provide it.
int64_t ThreadRunDelayNs() {
  const int fd = ::open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  char buf[128];
  const ssize_t n = ::read(fd, buf, sizeof(buf) - 1);
  ::close(fd);
  if (n <= 0) return -1;
  buf[n] = '\0';
  char* end = nullptr;
  std::strtoll(buf, &end, 10);  // time on the CPU
  if (end == buf) return -1;
  char* start = end;
  const long long delay = std::strtoll(start, &end, 10);
  return end == start || delay < 0 ? -1 : static_cast<int64_t>(delay);
}

// The running count of /proc/loadavg ("0.12 0.30 0.25 3/211 4242": 3): threads runnable on the system now,
// the reader included; -1 where it cannot be read.
int SystemRunnableThreads() {
  const int fd = ::open("/proc/loadavg", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  char buf[128];
  const ssize_t n = ::read(fd, buf, sizeof(buf) - 1);
  ::close(fd);
  if (n <= 0) return -1;
  buf[n] = '\0';
  int fields = 0;
  for (char* c = buf; *c != '\0'; ++c) {
    if (*c != ' ') continue;
    if (++fields == 3) {
      char* end = nullptr;
      const long running = std::strtol(c + 1, &end, 10);
      return end == c + 1 || *end != '/' || running < 0 ? -1 : static_cast<int>(running);
    }
  }
  return -1;
}

// The ScopedWidth of the task this thread runs, if any.
thread_local const ContentionGovernor* tls_scope_governor = nullptr;
thread_local int tls_scope_threads = 0;

}  // namespace

ContentionGovernor::ScopedWidth::ScopedWidth(const ContentionGovernor& governor, int threads)
    : saved_governor_(tls_scope_governor), saved_threads_(tls_scope_threads) {
  tls_scope_governor = &governor;
  tls_scope_threads = std::clamp(threads, 1, governor.full_threads());
}

ContentionGovernor::ScopedWidth::~ScopedWidth() {
  tls_scope_governor = saved_governor_;
  tls_scope_threads = saved_threads_;
}

ContentionProbe ContentionProbe::System() {
  ContentionProbe p;
  p.now_ns = [] {
    return static_cast<int64_t>(
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
            .count());
  };
  p.run_delay_ns = ThreadRunDelayNs;
  p.involuntary_switches = []() -> uint64_t {
    struct rusage u;
    if (getrusage(RUSAGE_SELF, &u) != 0) return 0;
    return static_cast<uint64_t>(u.ru_nivcsw);
  };
  p.runnable_threads = SystemRunnableThreads;
  return p;
}

ContentionGovernor::ContentionGovernor(int full_threads, ContentionPolicy policy, ContentionProbe probe)
    : full_threads_(std::max(1, full_threads)),
      policy_(policy),
      probe_(std::move(probe)),
      threads_(policy == ContentionPolicy::kOneThread ? 1 : std::max(1, full_threads)),
      next_sample_ns_(0) {
  // The first window opens at the first region: what happened before (loading the model) says nothing.
}

int ContentionGovernor::Threads() {
  if (policy_ != ContentionPolicy::kAdaptive || full_threads_ == 1) return threads_.load(std::memory_order_relaxed);
  const int64_t now = probe_.now_ns();
  if (now >= next_sample_ns_.load(std::memory_order_relaxed)) {
    std::unique_lock<std::mutex> lk(mu_, std::try_to_lock);
    if (lk.owns_lock()) Sample(now);
  }
  if (tls_scope_governor == this) return tls_scope_threads;
  return threads_.load(std::memory_order_relaxed);
}

void ContentionGovernor::OpenWindow(int64_t now) {
  window_open_ = true;
  window_thread_ = std::this_thread::get_id();
  window_start_ns_ = now;
  window_start_delay_ns_ = probe_.run_delay_ns();
  window_start_switches_ = probe_.involuntary_switches();
}

bool ContentionGovernor::Contended(int64_t now) const {
  // No more runnable threads than the pool has: whatever delayed this thread was the pool's own.
  if (probe_.runnable_threads) {
    const int runnable = probe_.runnable_threads();
    if (runnable >= 0 && runnable <= full_threads_) return false;
  }
  // Rates over the window, so that a long idle gap between runs does not add up to "contention".
  const double elapsed = static_cast<double>(std::max<int64_t>(now - window_start_ns_, kWindowNs));
  if (window_start_delay_ns_ >= 0) {
    const int64_t delay = probe_.run_delay_ns();
    if (delay >= window_start_delay_ns_)
      return static_cast<double>(delay - window_start_delay_ns_) >= kRunDelayShare * elapsed;
  }
  const uint64_t switches = probe_.involuntary_switches();
  const uint64_t seen = switches >= window_start_switches_ ? switches - window_start_switches_ : 0;
  return static_cast<double>(seen) * kWindowNs >= static_cast<double>(kSwitchesPerWindow) * elapsed;
}

void ContentionGovernor::Sample(int64_t now) {
  if (now < next_sample_ns_.load(std::memory_order_relaxed)) return;  // another caller sampled first
  const bool full = threads_.load(std::memory_order_relaxed) == full_threads_;
  if (!full) {
    if (now >= degraded_until_ns_) {  // hold over: try full width again
      threads_.store(full_threads_, std::memory_order_relaxed);
      probing_ = true;
    }
  } else if (!window_open_ || window_thread_ != std::this_thread::get_id()) {
    // No window yet, or another thread opened it: its run-queue delay is not this thread's; start afresh.
  } else if (!Contended(now)) {
    // A whole quiet window at full width: contention, if it comes back, starts from the shortest hold.
    strikes_ = 0;
    probing_ = false;
    hold_ns_ = kMinHoldNs;
  } else if (probing_ || ++strikes_ >= kStrikes) {
    strikes_ = 0;
    if (probing_) hold_ns_ = std::min(hold_ns_ * 2, kMaxHoldNs);
    probing_ = false;
    degraded_until_ns_ = now + hold_ns_;
    threads_.store(1, std::memory_order_relaxed);
    degradations_.fetch_add(1, std::memory_order_relaxed);
  }
  OpenWindow(now);
  const int64_t next = threads_.load(std::memory_order_relaxed) == full_threads_ ? now + kWindowNs : degraded_until_ns_;
  next_sample_ns_.store(next, std::memory_order_relaxed);
}

}  // namespace ge::rt
