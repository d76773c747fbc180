// Keeps intra-op parallelism from collapsing when another process shares the CPU.
//
// A parallel region ends only when its slowest thread does; oneDNN and OpenMP split work statically, so with a
// neighbour taking cores, every region waits for a descheduled thread to be scheduled again and a model's latency
// becomes nodes x scheduler slice. The governor watches how long the sampling thread sat runnable but not running
// (the kernel's run-queue delay, /proc/thread-self/schedstat: about 0.1% of the time on a quiet machine, 30-50% with
// a neighbour as wide as the machine) and, while that exceeds kRunDelayShare of a window, lets kernels run on one
// thread, which never waits on another. A delayed window counts only while more threads are runnable on the system
// than the pool is wide: run-queue delay also comes from the pool's own threads (a woken worker placed on the
// caller's CPU until the scheduler moves one of them), which no other process causes and one thread would not cure.
// While it holds the pool at one thread, a model may time its executions at each width and run at the faster inside
// a ScopedWidth (rt/cpu/run_width.h): for some models full width stays faster beside a neighbour.
// Where the run-queue delay cannot be read it counts the process's
// involuntary context switches instead (a noisier sign: bursts of them occur on quiet machines too). It probes full
// width again after a hold that doubles while contention persists (up to kMaxHold) and resets after a quiet window.
//
// Thread-safe: Threads() may be called from any thread; one caller at a time samples the probe. A window is judged
// only when the thread that opened it closes it (run-queue delay is per thread).
#pragma once
#include <atomic>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>

#include "rt/device.h"

namespace ge::rt {

// Where the governor reads the time and the signs of contention; replaced in tests.
struct ContentionProbe {
  std::function<int64_t()> now_ns;                 // a monotonic clock
  std::function<int64_t()> run_delay_ns;           // cumulative, for the calling thread; < 0: not available
  std::function<uint64_t()> involuntary_switches;  // cumulative, for the whole process (the fallback)
  // Threads runnable on the whole system now, the caller included; < 0 or unset: not available.
  std::function<int()> runnable_threads;
  // steady_clock, /proc/thread-self/schedstat's run_delay, getrusage(RUSAGE_SELF).ru_nivcsw and the running count
  // of /proc/loadavg.
  static ContentionProbe System();
};

class ContentionGovernor {
 public:
  static constexpr int64_t kWindowNs = 10'000'000;   // one observation
  static constexpr double kRunDelayShare = 0.05;     // run-queue delay above this share of a window: contention
  static constexpr uint64_t kSwitchesPerWindow = 4;  // the fallback: this many preemptions in a window
  // Contended windows in a row before dropping to one thread: a burst of kernel work (writeback after another
  // process exits) takes a core for a few milliseconds; a neighbour stays. While probing after a hold, one suffices.
  static constexpr int kStrikes = 2;
  static constexpr int64_t kMinHoldNs = 100'000'000;  // first time at one thread
  static constexpr int64_t kMaxHoldNs = 2'000'000'000;

  ContentionGovernor(int full_threads, ContentionPolicy policy, ContentionProbe probe = ContentionProbe::System());

  // Threads the next parallel region should use: full_threads or 1, or, on a thread inside a ScopedWidth of this
  // governor, that scope's width.
  int Threads();
  // Whether contention holds the pool at one thread now (until the next probe at full width). A task runner may
  // then pick the width of each execution itself (rt/cpu/run_width.h) and run it inside a ScopedWidth.
  bool held_down() const {
    return policy_ == ContentionPolicy::kAdaptive && threads_.load(std::memory_order_relaxed) < full_threads_;
  }

  // While alive, Threads() called on this thread returns |threads| (clamped to [1, full_threads]).
  class ScopedWidth {
   public:
    ScopedWidth(const ContentionGovernor& governor, int threads);
    ~ScopedWidth();
    ScopedWidth(const ScopedWidth&) = delete;
    ScopedWidth& operator=(const ScopedWidth&) = delete;

   private:
    const ContentionGovernor* saved_governor_;
    int saved_threads_;
  };
  int full_threads() const { return full_threads_; }
  // Times the governor has dropped to one thread (for reports and tests).
  uint64_t degradations() const { return degradations_.load(std::memory_order_relaxed); }

 private:
  void Sample(int64_t now);
  void OpenWindow(int64_t now);
  bool Contended(int64_t now) const;

  const int full_threads_;
  const ContentionPolicy policy_;
  const ContentionProbe probe_;
  std::atomic<int> threads_;
  std::atomic<int64_t> next_sample_ns_;
  std::atomic<uint64_t> degradations_{0};
  std::mutex mu_;  // guards the fields below; try-locked by the one caller that samples
  bool window_open_ = false;
  std::thread::id window_thread_;  // the thread whose run-queue delay the open window counts
  int64_t window_start_ns_ = 0;
  int64_t window_start_delay_ns_ = -1;
  uint64_t window_start_switches_ = 0;
  int64_t hold_ns_ = kMinHoldNs;
  int64_t degraded_until_ns_ = 0;
  bool probing_ = false;  // back at full width after a hold; contention now doubles the hold
  int strikes_ = 0;       // contended windows in a row at full width
};

}  // namespace ge::rt
