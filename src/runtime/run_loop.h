// RunLoop: GE's DavinciModel::Run() thread (seed 002 §3.2; ModelRunStart / ModelRunStop), the path of
// RunGraphAsync. One loop thread pops requests from a DataInputer, runs each with ExecutableModel::Execute and
// calls its callback; one watchdog thread enforces per-request timeouts.
//
// Timeouts (GE: rtStreamSynchronizeWithTimeout, then abort): when a run outlives its request's timeout the
// watchdog calls model.Abort(); the loop waits for Execute to return, calls model.ResetAbort() and reports
// Timeout ("deadline exceeded", naming the model and the timeout). The watchdog sleeps on a condition variable
// until the running request's deadline; it never polls.
//
// Exactly-once callbacks: every request that Submit accepted gets its callback called exactly once, on the loop
// thread: with the run's status, or Timeout, or Aborted when the loop stopped before running it.
//
// Threading: Submit, Stop, WaitIdle and the accessors are thread-safe. The model must outlive the loop, and no
// one else may Execute it while a request with a timeout runs (Abort would stop theirs too).
#pragma once
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <thread>

#include "base/status.h"
#include "runtime/data_inputer.h"
#include "runtime/executable_model.h"

namespace ge::runtime {

struct RunLoopOptions {
  size_t queue_capacity = 64;  // DataInputer bound: Submit waits (or fails) beyond it
};

enum class StopMode {
  kFinishRunning,  // the running request completes normally; queued ones are cancelled
  kAbortRunning,   // the running request is aborted (its callback gets Aborted); queued ones are cancelled
};

struct RunLoopStats {
  uint64_t accepted = 0;   // requests Submit queued
  uint64_t succeeded = 0;  // callbacks with OK
  uint64_t failed = 0;     // callbacks with the run's own error
  uint64_t timed_out = 0;  // callbacks with Timeout from the watchdog
  uint64_t cancelled = 0;  // callbacks with Aborted because the loop stopped
};

class RunLoop {
 public:
  // Starts the loop and watchdog threads. |model| must outlive the loop.
  static StatusOr<std::unique_ptr<RunLoop>> Start(ExecutableModel* model, const RunLoopOptions& options = {});
  // Stop(kFinishRunning). Must not run on the loop thread (i.e. inside a callback).
  ~RunLoop();
  RunLoop(const RunLoop&) = delete;
  RunLoop& operator=(const RunLoop&) = delete;

  // Checks the buffers against the model (InvalidArgument), assigns an id when request.id is 0 and queues the
  // request, waiting up to |push_timeout| for room (zero: fail fast; ResourceExhausted when full). Returns the
  // id. On error the callback will not be called. Called from a callback, it never waits.
  StatusOr<uint64_t> Submit(RunRequest request, rt::Duration push_timeout = rt::kWaitForever);

  // Stops accepting requests, cancels the queued ones and joins the threads (the running request finishes, or
  // is aborted with kAbortRunning). Idempotent; concurrent calls wait for the first. Called from a callback it
  // only stops the queue; the destructor joins.
  void Stop(StopMode mode = StopMode::kFinishRunning);

  // Waits until no accepted request is queued or running; false on timeout.
  bool WaitIdle(rt::Duration timeout = rt::kWaitForever) const;
  // Accepted requests whose callback has not returned yet.
  uint64_t in_flight() const;
  RunLoopStats stats() const;
  bool stopped() const { return inputer_.stopped(); }
  ExecutableModel& model() const { return *model_; }

 private:
  enum class Fired { kNone, kDeadline, kStop };

  RunLoop(ExecutableModel* model, const RunLoopOptions& options);
  void LoopMain();
  void WatchdogMain();
  void RunOne(RunRequest& request);
  void Finish(RunRequest& request, const Status& status, uint64_t RunLoopStats::*counter);

  ExecutableModel* const model_;
  DataInputer inputer_;
  std::atomic<uint64_t> next_id_{1};
  std::thread loop_thread_;
  std::thread watchdog_thread_;
  std::thread::id loop_id_;  // set in Start before any Submit can run
  std::mutex lifecycle_mu_;  // serializes Stop; guards joined_
  bool joined_ = false;

  // Watchdog state: the running request's deadline. Abort is called with wd_mu_ held, so once the loop has
  // read fired_ after Execute, no late Abort can reach the next run.
  std::mutex wd_mu_;
  std::condition_variable wd_cv_;
  bool running_ = false;                                   // guarded by wd_mu_
  Clock::time_point deadline_ = Clock::time_point::max();  // guarded by wd_mu_
  Fired fired_ = Fired::kNone;                             // guarded by wd_mu_
  bool abort_requested_ = false;                           // Stop(kAbortRunning); guarded by wd_mu_
  bool wd_exit_ = false;                                   // guarded by wd_mu_

  mutable std::mutex stats_mu_;
  mutable std::condition_variable idle_cv_;
  RunLoopStats stats_;      // guarded by stats_mu_
  uint64_t in_flight_ = 0;  // guarded by stats_mu_
};

}  // namespace ge::runtime
