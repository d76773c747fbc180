// Stream: an in-order queue of Tasks run by one worker thread (GE's rtStream on the CPU device).
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
#include "rt/event.h"
#include "rt/task.h"

namespace ge::rt {

class Stream {
 public:
  // |pool| (may be null) is handed to tasks for intra-op parallelism; it must outlive the stream.
  static StatusOr<std::unique_ptr<Stream>> Create(ThreadPool* pool);
  ~Stream();
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;

  // Appends a task; no heap allocation once the queue has grown to the working size. InvalidArgument if
  // task.fn is null.
  Status Enqueue(Task task);
  // Records |event| at this point of the stream (a new generation).
  Status RecordEvent(Event& event);
  // Tasks enqueued after this wait until the latest generation of |event| recorded so far has executed.
  // No-op for an event never recorded.
  Status WaitEvent(Event& event);

  // Waits for every task enqueued before the call. Timeout on expiry (the tasks keep running); otherwise the
  // sticky error, or OK.
  Status Synchronize(Duration timeout = kWaitForever);
  // True when every enqueued task has finished.
  bool Query() const;
  Status error() const;
  void ResetError();

  // --- for tasks that block (event waits, model launches) ---
  // The thing the worker is blocked on, interrupted if the stream is destroyed meanwhile; null when done.
  void SetBlockedOn(Interruptible* target);
  ThreadPool* pool() const { return pool_; }

 private:
  explicit Stream(ThreadPool* pool) : pool_(pool) {}
  void WorkerLoop();
  void RunBatch(std::vector<Task>& batch, TaskContext& ctx);

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
