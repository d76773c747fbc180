// ExecutableModel: what the execution machinery (Run loop, GraphExecutor, ModelExecutor, the public offline model
// API) needs from a loaded model. Runtime v1's SinkModel and the InterpreterModel implement it; tests use fakes.
// Threading: implementations are thread-safe; executions of one model are serialized by the implementation.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "base/status.h"
#include "base/tensor.h"
#include "base/tensor_desc.h"
#include "ge/model.h"
#include "rt/stream.h"

namespace ge::runtime {

// One graph input or output of a loaded model: dtype and rank known; a dim of kUnknownDim (dynamic models) takes
// any size, and size_bytes is then 0 (only the tensor form of Execute runs such a model).
struct IoDesc {
  std::string name;
  TensorDesc desc;
  size_t size_bytes = 0;
};

// A caller's buffer. For inputs the model only reads it; for outputs it writes exactly size_bytes of the IoDesc.
struct DataBuffer {
  void* data = nullptr;
  size_t size = 0;
};

// Accumulated kernel time of one node (loaded with profiling on).
struct NodeProfile {
  std::string node, op_type, impl;
  double seconds = 0;  // over all executions since load
  uint64_t runs = 0;
};

class ExecutableModel {
 public:
  virtual ~ExecutableModel() = default;
  virtual const std::string& name() const = 0;
  virtual const std::vector<IoDesc>& inputs() const = 0;
  virtual const std::vector<IoDesc>& outputs() const = 0;
  // Runs once on the calling thread: checks counts and sizes (InvalidArgument naming the input or output), binds
  // the buffers, runs. Returns Aborted when Abort() stopped it.
  virtual Status Execute(const std::vector<DataBuffer>& inputs, const std::vector<DataBuffer>& outputs) = 0;
  // The tensor form: inputs of any shape the model accepts (dtype, rank and known dims checked); *outputs at their
  // run-time shapes, a tensor already there reused (written in place) when its storage is held nowhere else and is
  // large enough. The default serves models of fixed shapes through Execute(buffers).
  virtual Status ExecuteTensors(const std::vector<Tensor>& inputs, std::vector<Tensor>* outputs);
  // A batch of requests (each a full set of inputs); (*outputs)[k] are request k's outputs. The default runs them
  // one after another; runtime v2's pipeline overlaps them (pipeline_stages() > 0).
  virtual Status ExecuteBatchTensors(const std::vector<std::vector<Tensor>>& requests,
                                     std::vector<std::vector<Tensor>>* outputs);
  // The stages a pipelined model streams requests through; 0 for every other model.
  virtual size_t pipeline_stages() const { return 0; }
  // Validates now, enqueues the run on |stream|; buffers stay valid until the stream has passed it. A failure
  // becomes the stream's sticky error.
  virtual Status ExecuteAsync(const std::vector<DataBuffer>& inputs, const std::vector<DataBuffer>& outputs,
                              rt::Stream& stream) = 0;
  // Stops the running execution between tasks and refuses new ones until ResetAbort(). Any thread.
  virtual void Abort() = 0;
  virtual void ResetAbort() = 0;

  // For inspection: the x86-64 level the model was compiled for ("" when none), its kernel implementations
  // counted by name, and per-node kernel times when loaded with profiling (read between executions).
  virtual const char* runtime_name() const { return "model"; }  // "sink", "interpreter"
  virtual std::string target() const { return ""; }
  virtual std::map<std::string, int> impls() const { return {}; }
  virtual std::vector<NodeProfile> profile() const { return {}; }
  // Run-time memory figures (runtime v2); false when the runtime keeps none.
  virtual bool memory_stats(ModelMemoryStats* /*stats*/) const { return false; }
};

// Checks buffers against descs: counts, non-null data (unless size 0), size == size_bytes.
Status CheckBuffers(const std::vector<IoDesc>& descs, const std::vector<DataBuffer>& buffers, const char* what);

// ExecuteAsync for models that run on the calling thread: checks the buffers against the model's IO now, then
// enqueues one task on |stream| that runs model.Execute (Aborted when the stream was stopped). The model outlives
// the task.
Status EnqueueExecute(ExecutableModel& model, const std::vector<DataBuffer>& inputs,
                      const std::vector<DataBuffer>& outputs, rt::Stream& stream);

}  // namespace ge::runtime
