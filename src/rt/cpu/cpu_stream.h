// CpuStream: an in-order queue of Tasks run by one worker thread (GE's rtStream on the CPU device).
// Thread-safe: any thread may enqueue and synchronize. Errors are sticky: the first failing task's Status is
// kept, later tasks are skipped (event records still fire, carrying the error to waiters), and Synchronize
// reports it until ResetError(). Destroying a stream discards tasks that have not started and interrupts a
// blocked event wait; call Synchronize first to finish them.
#pragma once
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "base/status.h"
#include "rt/cpu/cpu_event.h"
#include "rt/stream.h"
#include "rt/cpu/thread_pool.h"
#include "rt/task.h"

namespace ge::rt {

class CpuStream final : public Stream {
 public:
  // |pool| (may be null) is handed to tasks for intra-op parallelism; it must outlive the stream.
  static StatusOr<std::unique_ptr<CpuStream>> Create(ThreadPool* pool);
  ~CpuStream() override;
  CpuStream(const CpuStream&) = delete;
  CpuStream& operator=(const CpuStream&) = delete;

  // Appends a task; no heap allocation once the queue has grown to the working size. InvalidArgument if
  // task.fn is null.
  Status Enqueue(Task task) override;
  Status EnqueueMemcpy(void* dst, const void* src, size_t bytes, MemcpyKind kind) override;
  // Records |event| at this point of the stream (a new generation).
  Status RecordEvent(Event& event) override;
  // Tasks enqueued after this wait until the latest generation of |event| recorded so far has executed.
  // No-op for an event never recorded.
  Status WaitEvent(Event& event) override;

  // Waits for every task enqueued before the call. Timeout on expiry (the tasks keep running); otherwise the
  // sticky error, or OK.
  Status Synchronize(Duration timeout = kWaitForever) override;
  // True when every enqueued task has finished.
  bool Query() const override;
  Status error() const override;
  void ResetError() override;

  // --- for tasks that block (event waits, model launches) ---
  // The thing the worker is blocked on, interrupted if the stream is destroyed meanwhile; null when done.
  void SetBlockedOn(Interruptible* target);
  ThreadPool* pool() const { return pool_; }

 private:
  explicit CpuStream(ThreadPool* pool) : pool_(pool) {}
  void WorkerLoop();
  void RunBatch(std::vector<Task>& batch, TaskContext& ctx);
  // The `always` tasks of tasks[from..] (the stream is stopping and discards the rest).
  static void RunAlwaysTasks(const std::vector<Task>& tasks, size_t from, TaskContext& ctx);

  ThreadPool* const pool_;
  std::thread worker_;
  std::atomic<bool> stop_{false};
  std::atomic<bool> has_error_{false};  // mirrors !error_.ok() for the worker's hot path

  mutable std::mutex mu_;
  std::condition_variable work_cv_;  // worker waits for tasks
  std::condition_variable done_cv_;  // Synchronize waits for completions
  std::vector<Task> pending_;        // guarded by mu_; swapped with the worker's batch
  uint64_t enqueued_ = 0;            // guarded by mu_
  uint64_t completed_ = 0;           // guarded by mu_
  bool worker_idle_ = false;         // guarded by mu_
  int sync_waiters_ = 0;             // guarded by mu_
  Status error_;                     // guarded by mu_
  Interruptible* blocked_on_ = nullptr;  // guarded by mu_
};

}  // namespace ge::rt
