// DataInputer: GE's data_inputer_ (seed 002 §3.2, "Run 循环模式"): the bounded queue of run requests that a
// model's Run loop pops. Multi-producer, multi-consumer.
//
// Back-pressure: Push blocks while the queue is full, up to its timeout (a zero timeout fails fast); either way a
// request that does not fit is refused with ResourceExhausted and left with the caller. Stop() wakes every
// blocked Push and Pop; afterwards Push and Pop fail with Aborted and Drain() hands back what is still queued.
//
// Threading: every method is thread-safe. Waits sleep on condition variables (no spinning).
#pragma once
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <vector>

#include "base/status.h"
#include "rt/event.h"
#include "runtime/executable_model.h"

namespace ge::runtime {

using Clock = std::chrono::steady_clock;

// Called exactly once per accepted request with the run's status and the request's output buffers (written when
// the status is OK). Runs on the Run loop's thread: it must not block for long, must not Stop or destroy the
// loop that calls it, and may Submit again only with a zero push timeout (the loop cannot pop while it waits).
using RunCallback =
    std::function<void(uint64_t request_id, const Status& status, const std::vector<DataBuffer>& outputs)>;

// One request (GE's RunArgs: InputData + OutputData + callback). The buffers are the caller's: inputs are read
// and outputs written by the run; they must stay valid until |done| has been called (capture owners in |done|
// to tie their lifetime to the request).
struct RunRequest {
  uint64_t id = 0;  // 0: the Run loop assigns the next id
  std::vector<DataBuffer> inputs;
  std::vector<DataBuffer> outputs;
  // Longest the run itself may take once started (queueing time not included); then the model is aborted and
  // |done| gets a Timeout ("deadline exceeded") status. kWaitForever (or zero): no limit.
  rt::Duration timeout = rt::kWaitForever;
  RunCallback done;
};

// now + |d|, saturating at time_point::max() (kWaitForever and other huge durations).
Clock::time_point DeadlineAfter(rt::Duration d);
// "250 ms", "1.5 s", "40 us": for messages.
std::string FormatDuration(rt::Duration d);

class DataInputer {
 public:
  // |capacity| >= 1 (0 is treated as 1).
  explicit DataInputer(size_t capacity);
  DataInputer(const DataInputer&) = delete;
  DataInputer& operator=(const DataInputer&) = delete;

  // Appends |request|, waiting up to |timeout| for room. On success the request is moved from; on failure it is
  // left untouched and its callback will not be called: ResourceExhausted (still full; rt::Duration::zero()
  // never waits), Aborted (stopped).
  Status Push(RunRequest&& request, rt::Duration timeout = rt::kWaitForever);
  // Takes the oldest request, waiting up to |timeout|: Timeout on expiry, Aborted once stopped (even when
  // requests remain: take them with Drain()).
  StatusOr<RunRequest> Pop(rt::Duration timeout = rt::kWaitForever);

  // Refuses later pushes and pops and wakes every waiter. Idempotent.
  void Stop();
  // Removes and returns every queued request, oldest first.
  std::vector<RunRequest> Drain();

  size_t capacity() const { return capacity_; }
  size_t size() const;
  bool stopped() const;

 private:
  const size_t capacity_;
  mutable std::mutex mu_;
  std::condition_variable not_full_;   // Push waits here
  std::condition_variable not_empty_;  // Pop waits here
  std::deque<RunRequest> queue_;       // guarded by mu_
  bool stopped_ = false;               // guarded by mu_
};

}  // namespace ge::runtime
