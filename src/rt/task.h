// One unit of device work, as run by a Stream worker or a Model's task lists (GE's TaskInfo after Distribute).
#pragma once
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "base/status.h"

namespace ge::rt {

class Stream;
struct TaskContext;

// Non-owning reference to a callable void(size_t begin, size_t end); the callable must outlive the call.
class RangeFn {
 public:
  template <typename F, typename = std::enable_if_t<!std::is_same_v<std::decay_t<F>, RangeFn>>>
  RangeFn(F&& f)  // NOLINT: implicit by design
      : obj_(const_cast<void*>(static_cast<const void*>(&f))),
        call_([](void* o, size_t b, size_t e) { (*static_cast<std::remove_reference_t<F>*>(o))(b, e); }) {}
  void operator()(size_t begin, size_t end) const { call_(obj_, begin, end); }

 private:
  void* obj_;
  void (*call_)(void*, size_t, size_t);
};

// Intra-op parallelism a device offers its host kernels (the CPU device's ThreadPool). Thread-safe.
class IntraOpPool {
 public:
  // Threads one ParallelFor may use, the caller's included; what kernels are prepared for.
  virtual int num_threads() const = 0;
  // Threads the next parallel region should really use (<= num_threads()): fewer while another process takes the
  // CPU (rt/cpu/contention_governor.h). Kernels that run their own parallel regions (oneDNN's) ask before each run.
  virtual int active_threads() { return num_threads(); }
  // Calls fn(begin, end) over disjoint ranges covering [0, n), each at least |grain| long (except the last),
  // and returns when all have finished. The caller's thread takes part.
  virtual void ParallelFor(size_t n, RangeFn fn, size_t grain = 1) = 0;

 protected:
  ~IntraOpPool() = default;
};

// A task body. |args| is the task's resolved argument block (owned by whoever built the task; it must outlive
// every execution). Returning a non-OK Status makes the executing stream's error sticky (see Stream).
using TaskFn = Status (*)(void* args, TaskContext& ctx);

// Plain record, copied by value into queues and model lists; never allocates.
struct Task {
  TaskFn fn = nullptr;
  void* args = nullptr;
  uint64_t imm = 0;  // inline argument for control tasks (an event generation); kernels ignore it
  bool always = false;  // runs even after the stream failed (releases what earlier tasks took)
};

// Passed to every task. Valid only during the call.
struct TaskContext {
  IntraOpPool* pool = nullptr;  // the device's intra-op pool (may be null: run serially)
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
