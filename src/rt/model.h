// Model: GE's rtModel, the "sink". Task lists bound to the model's streams, built once (AddKernel / AddMemcpy /
// AddEvent* / AddEndGraph, then Finalize = GE's BuildEnd) and executed many times by one call, with no host
// scheduling per task (seed 002, "DoTaskSink" / "rtModelExecute"). Created by a Device (Device::CreateModel); on the
// CPU device a flat array of {fn, args} per stream, on a GPU device a captured graph.
//
// Threading: building is single-threaded and must finish before the first execution. One execution at a time
// (a second concurrent launch fails with FailedPrecondition); Abort() is safe from any thread.
// Lifetime: kernel argument blocks are owned by the caller and must outlive the model; destroy the model only
// after the streams that launched it have synchronized.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

#include "base/status.h"
#include "rt/stream.h"
#include "rt/task.h"

namespace ge::rt {

class Model {
 public:
  virtual ~Model() = default;
  virtual const std::string& name() const = 0;
  virtual int num_streams() const = 0;

  // --- building (before Finalize) ---
  // A model-owned event; returns its id. Each event is recorded by exactly one task and waited by any number;
  // a wait is satisfied by the record of the same execution.
  virtual StatusOr<int> AddEvent() = 0;
  // A kernel task: fn(args, ctx).
  virtual Status AddKernel(int stream, TaskFn fn, void* args) = 0;
  virtual Status AddMemcpy(int stream, void* dst, const void* src, size_t bytes) = 0;
  virtual Status AddEventRecord(int stream, int event) = 0;
  virtual Status AddEventWait(int stream, int event) = 0;
  // Marks where the model's outputs are complete; must be the last task of its stream. Finalize adds one to
  // stream 0 when no stream has one.
  virtual Status AddEndGraph(int stream) = 0;
  // Validates (event use, no wait that can never be satisfied) and freezes the task lists.
  virtual Status Finalize() = 0;
  virtual bool finalized() const = 0;

  // --- execution ---
  // Runs the whole model and returns its status when it has finished (GE's synchronous NnExecute).
  virtual Status Execute() = 0;
  // Enqueues one execution on |stream| (of the same device; GE's rtModelExecute): the stream's later work runs
  // after the whole model; a failure or Abort becomes the stream's sticky error.
  virtual Status ExecuteAsync(Stream& stream) = 0;
  // Stops the current execution between tasks (it returns Aborted) and refuses later ones until ResetAbort().
  virtual void Abort() = 0;
  virtual void ResetAbort() = 0;
  // Executions that reached their end-graph task.
  virtual uint64_t executions() const = 0;
};

// GE's spelling of Model::ExecuteAsync.
inline Status ModelExecute(Model& model, Stream& stream) { return model.ExecuteAsync(stream); }

}  // namespace ge::rt
