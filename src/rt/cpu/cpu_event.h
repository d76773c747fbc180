// CpuEvent: a point in one stream's work that other streams (CpuStream::WaitEvent) or the host (Synchronize) wait
// for. Each record gets a new generation, so one event is reused across iterations: a wait captures the latest
// generation recorded when it is enqueued and blocks until that generation has executed.
// Thread-safe. Waiters block on a condition variable (no spinning).
#pragma once
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>

#include "base/status.h"
#include "rt/event.h"
#include "rt/task.h"

namespace ge::rt {


class CpuEvent final : public Event, public Interruptible {
 public:
  CpuEvent() = default;
  CpuEvent(const CpuEvent&) = delete;
  CpuEvent& operator=(const CpuEvent&) = delete;

  // Waits until every generation recorded before the call has executed. Timeout on expiry; the error of a
  // failed stream that reached the record point otherwise. OK at once if the event was never recorded.
  Status Synchronize(Duration timeout = kWaitForever) override;
  // True when every generation recorded so far has executed.
  bool Query() const override;

  uint64_t recorded() const { return recorded_.load(std::memory_order_acquire); }
  uint64_t completed() const;

  // --- for CpuStream and CpuModel (device-layer internals) ---
  uint64_t ReserveGeneration() { return recorded_.fetch_add(1, std::memory_order_acq_rel) + 1; }
  // Marks |gen| executed; |error| non-null when the recording stream had failed, so waiters fail too.
  void Complete(uint64_t gen, const Status* error);
  // Blocks the calling worker until |gen| has executed or ctx.Stopped(); Aborted in the latter case.
  Status WaitFor(uint64_t gen, const TaskContext& ctx);
  void Interrupt() override;

 private:
  Status ResultLocked(uint64_t gen) const;

  std::atomic<uint64_t> recorded_{0};
  mutable std::mutex mu_;
  std::condition_variable cv_;
  uint64_t completed_ = 0;   // guarded by mu_
  uint64_t error_gen_ = 0;   // first failed generation since the last successful one; 0 when none
  Status error_;
};

// Task bodies for event records and waits enqueued on a stream: args is the CpuEvent, Task::imm the generation.
Status StreamEventRecordTask(void* args, TaskContext& ctx);
Status StreamEventWaitTask(void* args, TaskContext& ctx);

}  // namespace ge::rt
