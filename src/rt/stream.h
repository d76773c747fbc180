// Stream: an in-order queue of device work (GE's rtStream). Created by a Device. Thread-safe: any thread may
// enqueue and synchronize. Errors are sticky: the first failing task's Status is kept, later work is skipped
// (event records still fire, carrying the error to waiters; tasks marked `always` still run), and Synchronize
// reports it until ResetError(). Destroying a stream discards work that has not started, except tasks marked
// `always`, which run with TaskContext::cancel set; Synchronize first.
#pragma once
#include "base/status.h"
#include <cstddef>

#include "rt/event.h"
#include "rt/mem_type.h"
#include "rt/task.h"

namespace ge::rt {

class Stream {
 public:
  virtual ~Stream() = default;
  // Appends a host task, run in stream order (on a GPU: a host function between the stream's kernels).
  // InvalidArgument if task.fn is null.
  virtual Status Enqueue(Task task) = 0;
  // Appends a copy (cudaMemcpyAsync on a GPU); the addresses must stay valid until it has run.
  virtual Status EnqueueMemcpy(void* dst, const void* src, size_t bytes, MemcpyKind kind) = 0;
  // Records |event| (of the same device) at this point of the stream: a new generation.
  virtual Status RecordEvent(Event& event) = 0;
  // Work enqueued after this waits until the latest generation of |event| recorded so far has executed.
  virtual Status WaitEvent(Event& event) = 0;
  // Waits for all work enqueued before the call. Timeout on expiry (the work keeps running); otherwise the
  // sticky error, or OK.
  virtual Status Synchronize(Duration timeout = kWaitForever) = 0;
  // True when every enqueued task has finished.
  virtual bool Query() const = 0;
  virtual Status error() const = 0;
  virtual void ResetError() = 0;
};

}  // namespace ge::rt
