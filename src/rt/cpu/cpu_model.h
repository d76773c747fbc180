// CpuModel: GE's rtModel. Task lists bound to the model's streams, built once (AddKernel/AddMemcpy/AddEvent*/
// AddEndGraph, then Finalize = GE's BuildEnd) and executed many times by one call, with no host scheduling per
// task (seed 002, "DoTaskSink" / "rtModelExecute").
//
// CpuStream 0's list runs on the launching thread (a stream worker for ModelExecute, the caller for Execute) as a
// tight loop over a flat array of {fn, args}. Lists 1..N-1 run on the model's own worker streams; model events
// order them. The launch returns when every list has finished.
//
// Threading: building is single-threaded and must finish before the first execution. One execution at a time
// (a second concurrent launch fails with FailedPrecondition); Abort() is safe from any thread.
// Lifetime: kernel argument blocks are owned by the caller and must outlive the model; destroy the model only
// after the streams that launched it have synchronized.
#pragma once
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "base/status.h"
#include "rt/cpu/cpu_event.h"
#include "rt/cpu/cpu_stream.h"
#include "rt/cpu/run_width.h"
#include "rt/model.h"
#include "rt/task.h"

namespace ge::rt {

enum class ModelTaskKind : unsigned char { kKernel, kMemcpy, kEventRecord, kEventWait, kEndGraph };

class CpuModel final : public Model, public Interruptible {
 public:
  // |num_streams| >= 1; |pool| (may be null) is handed to kernels and must outlive the model.
  static StatusOr<std::unique_ptr<CpuModel>> Create(std::string name, int num_streams, ThreadPool* pool);
  ~CpuModel() override;
  CpuModel(const CpuModel&) = delete;
  CpuModel& operator=(const CpuModel&) = delete;

  const std::string& name() const override { return name_; }
  int num_streams() const override { return static_cast<int>(lists_.size()); }

  // --- building (before Finalize) ---
  // A model-owned event; returns its id. Each event is recorded by exactly one task and waited by any number;
  // a wait is satisfied by the record of the same execution.
  StatusOr<int> AddEvent() override;
  Status AddKernel(int stream, TaskFn fn, void* args) override;
  Status AddMemcpy(int stream, void* dst, const void* src, size_t bytes) override;
  Status AddEventRecord(int stream, int event) override;
  Status AddEventWait(int stream, int event) override;
  // Marks where the model's outputs are complete; must be the last task of its stream. Finalize adds one to
  // stream 0 when no stream has one.
  Status AddEndGraph(int stream) override;
  // Validates (event use, no wait that can never be satisfied) and freezes the task lists.
  Status Finalize() override;
  bool finalized() const override { return finalized_; }

  // --- execution ---
  // Runs the whole model on the calling thread (stream 0) and the model's workers; returns its status.
  Status Execute() override;
  // Enqueues a launch task on |stream| (a CpuStream): it runs the model on that stream's worker.
  Status ExecuteAsync(Stream& stream) override;
  // Stops the current execution between tasks (it returns Aborted) and refuses later ones until ResetAbort().
  void Abort() override;
  void ResetAbort() override;
  // Executions that reached their end-graph task.
  uint64_t executions() const override { return executions_.load(std::memory_order_relaxed); }
  const std::vector<Task>& tasks(int stream) const { return lists_[stream]; }

  // Runs one execution with |ctx| as the context of stream 0's list (used by ModelExecute's launch task).
  Status Run(const TaskContext& ctx);
  void Interrupt() override;  // cancels the current execution (its launching stream is being destroyed)

 private:
  struct EventSlot {
    CpuEvent event;
    uint64_t gen = 0;  // this execution's generation, set at launch before any list starts
  };
  struct SubRun {
    CpuModel* model;
    int stream;
  };
  struct MemcpyArgs {
    void* dst;
    const void* src;
    size_t bytes;
  };
  struct TaskMeta {
    ModelTaskKind kind;
    int event;
  };
  static constexpr uint32_t kStopAbort = 1;   // Abort(): sticky until ResetAbort()
  static constexpr uint32_t kStopCancel = 2;  // this execution failed somewhere; cleared at each launch

  CpuModel(std::string name, int num_streams, ThreadPool* pool);
  Status CheckBuildable(int stream) const;
  Status Add(int stream, Task task, ModelTaskKind kind, int event);
  Status CheckNoDeadlock() const;
  Status RunList(int stream, const TaskContext& ctx) const;
  Status StopReason() const;
  void Fail(Status s);
  void InterruptEvents();
  static Status EventRecordTask(void* args, TaskContext& ctx);
  static Status EventWaitTask(void* args, TaskContext& ctx);
  static Status MemcpyTask(void* args, TaskContext& ctx);
  static Status EndGraphTask(void* args, TaskContext& ctx);
  static Status SubListTask(void* args, TaskContext& ctx);

  const std::string name_;
  ThreadPool* const pool_;
  std::vector<std::vector<Task>> lists_;     // per stream; frozen by Finalize
  std::vector<std::vector<TaskMeta>> meta_;  // per stream; build-time validation only
  std::vector<std::unique_ptr<EventSlot>> events_;
  std::deque<MemcpyArgs> memcpy_args_;  // stable addresses for memcpy tasks
  std::vector<SubRun> sub_runs_;
  bool finalized_ = false;

  std::atomic<uint32_t> stop_{0};
  std::atomic<bool> running_{false};
  std::atomic<uint64_t> executions_{0};
  // While contention holds the pool down, the width of the current execution's lists (0: the governor's own), set
  // by the launching thread before any list starts; chosen by timing executions.
  int run_width_ = 0;
  RunWidthChooser width_chooser_;
  std::mutex mu_;
  std::condition_variable cv_;
  int pending_lists_ = 0;  // guarded by mu_
  Status first_error_;     // guarded by mu_

  std::vector<std::unique_ptr<CpuStream>> workers_;  // streams 1..N-1; declared last so they stop first
};

}  // namespace ge::rt
