// One unit of device work, as run by a Stream worker or a Model's task lists (GE's TaskInfo after Distribute).
#pragma once
#include <atomic>
#include <cstdint>

#include "base/status.h"

namespace ge::rt {

class Stream;
class ThreadPool;
struct TaskContext;

// A task body. |args| is the task's resolved argument block (owned by whoever built the task; it must outlive
// every execution). Returning a non-OK Status makes the executing stream's error sticky (see Stream).
using TaskFn = Status (*)(void* args, TaskContext& ctx);

// Plain record, copied by value into queues and model lists; never allocates.
struct Task {
  TaskFn fn = nullptr;
  void* args = nullptr;
  uint64_t imm = 0;  // inline argument for control tasks (an event generation); kernels ignore it
};

// Passed to every task. Valid only during the call.
struct TaskContext {
  ThreadPool* pool = nullptr;   // the device's intra-op pool (may be null: run serially)
  Stream* stream = nullptr;     // the stream whose worker runs the task; null on a caller's thread
  uint64_t imm = 0;             // copy of Task::imm for stream tasks (model tasks do not use it)
  const std::atomic<bool>* cancel = nullptr;         // set when the executing stream is being destroyed
  const std::atomic<uint32_t>* model_stop = nullptr;  // non-zero when the running model must stop
  const Status* stream_error = nullptr;  // the sticky error, for the few tasks that run despite it

  bool Stopped() const {
    return (cancel && cancel->load(std::memory_order_relaxed)) ||
           (model_stop && model_stop->load(std::memory_order_relaxed) != 0);
  }
};

// Something a blocked task waits on that can be woken early (stream destruction, model abort).
class Interruptible {
 public:
  virtual void Interrupt() = 0;

 protected:
  ~Interruptible() = default;
};

}  // namespace ge::rt
