// SinkModel: a loaded static offline model (GE's DavinciModel; seed 002 §2-3). Load runs the seed's init stages:
//   InitModelMem  - feature-map memory from the device pool, or the caller's (SinkModelOptions::feature_map);
//                   weights stay in the .om mapping (never copied); constants address it directly. FileConstant
//                   outputs (external weights) are mapped from their files first (file_constants.h).
//   InitIoNodes   - resolves every value's placement (feature-map offset, constant in the mapping, graph input or
//                   output index) and the IO descriptions.
//   InitNodes     - prepares one kernel per node (exec::PrepareKernel, after re-checking its descs with the op's
//                   inference); prepared kernels are immutable from then on.
//   DoTaskSink    - per execution context (below): a binding per kernel with its slots filled (a slot that
//                   addresses a graph input or output becomes a zero-copy patch point, re-bound to the caller's
//                   buffer before every execution), and an rt::Model over them: tasks bound to streams, events,
//                   end-graph; Finalize.
// Execute (GE's NnExecute) takes an execution context, patches its zero-copy slots with the caller's buffers and
// runs its whole task list in one call; no per-node host work.
//
// Reentrancy: an execution context is one feature map + the kernels' bindings + the task list that runs them.
// The first is made at load; concurrent Execute calls each take a free one, and a new one is made (lazily, with
// its own feature map) while fewer than max_concurrent_executions exist; beyond that a call waits for one to free.
// ExecuteWithFeatureMap runs on the caller's memory instead of the context's own.
//
// Threading: every method is thread-safe; executions run concurrently up to max_concurrent_executions. Abort may
// be called from any thread and stops every running execution. Lifetime: the SinkModel keeps the OmReader (the
// mapping) alive; the rt::Device must outlive it.
#pragma once
#include <atomic>
#include <chrono>
#include <cstddef>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "var/var_manager.h"
#include "base/status.h"
#include "base/tensor_desc.h"
#include "base/trace_recorder.h"
#include "kernels/builtin_engines.h"
#include "om/om_reader.h"
#include "rt/device.h"
#include "runtime/executable_model.h"

namespace ge::runtime {

struct SinkModelOptions {
  // Caller-provided feature-map memory (GE's "Set*MemoryBase"): at least feature_map_bytes(), 64-byte aligned,
  // valid and unused by others for the model's lifetime. nullptr: the model allocates it from the device pool.
  void* feature_map = nullptr;
  size_t feature_map_size = 0;
  // Caller-provided constant memory (GE's SetGraphConstMemoryBase): at least the .om's WEIGHTS_DATA bytes, 64-byte
  // aligned, valid and unchanged by others for the model's lifetime. The weights are copied there at load and the
  // constants are read from it. nullptr: constants are read where the .om is mapped.
  void* const_memory = nullptr;
  size_t const_memory_size = 0;
  // Time every kernel task (`ge run --profile`): each task runs inside a wrapper that adds its wall time to the
  // node's entry in profile(). Costs two clock reads per task; off by default.
  bool profile = false;
  // Record a timeline (`ge run --trace`): the load phases as slices on trace::kHostTrack, and every kernel task,
  // through the same timing wrapper as |profile|, as a slice on the track of its stream (trace::StreamTrack). Not
  // owned; outlives the model. Null: nothing is recorded and the tasks run unwrapped (unless |profile|).
  trace::TraceRecorder* trace = nullptr;
  // Executions that may run at once, each on its own execution context (feature map, kernel bindings, task list),
  // made when executions first overlap. >= 1; a profiled or traced model runs one at a time.
  int max_concurrent_executions = 4;
  // The engines whose kernels the model's nodes may run on (ir::Node::engine() names them); a node whose engine
  // is not listed runs on ge's fast or reference kernels. ge's own list unless the caller passes another.
  kernels::EngineList engines = kernels::BuiltinEngines();
  // The session's variables (seed 000): VAR_INFO is restored into it and the model's variables resolve to its
  // memory, shared with every other model of the session. Null: the model gets a manager of its own.
  std::shared_ptr<var::VarManager> variables;
  // External weights (ge.externalWeight): the directory relative FileConstant file paths are relative to. Empty:
  // the directory of the .om file (OmReader::path()); a model loaded from memory then needs absolute paths.
  std::string external_weight_dir;
  // GE's ge.exec.value_bins (om/value_bins.h): the file of each FileConstant `file_id`; a relative path is
  // relative to the current directory.
  std::map<std::string, std::string> value_bins;
};

struct SinkModelStats {
  size_t feature_map_bytes = 0;   // per execution context
  int max_concurrent_executions = 1;
  size_t weights_bytes = 0;        // WEIGHTS_DATA, mapped not copied
  int num_streams = 0;
  int num_events = 0;
  size_t num_tasks = 0;            // over all streams
  size_t num_zero_copy_slots = 0;  // kernel argument slots patched per execution
  size_t num_ref_kernels = 0;      // nodes that run the reference-kernel adapter
  size_t no_task_concats = 0;      // Concats that run nothing: their inputs' producers wrote the output
  std::string target;              // the x86-64 level the model was compiled for; "" in older models
  std::map<std::string, int> impls;  // kernel implementation name (PreparedKernel::impl_name) -> nodes
  size_t num_variables = 0;          // Variable nodes, resolved to the session's variable memory
  // External weights: FileConstant outputs mapped from weight files (shared by every model naming a file).
  size_t num_file_constants = 0;
  size_t external_weights_bytes = 0;
  std::vector<std::string> external_weight_files;
};

class SinkModel final : public ExecutableModel {
 public:
  // |om| must hold a compiled (OmModelType::kStandard), static model. |device| must outlive the model.
  static StatusOr<std::unique_ptr<SinkModel>> Load(std::shared_ptr<const om::OmReader> om, rt::Device* device,
                                                   const SinkModelOptions& options = {});
  ~SinkModel() override;
  SinkModel(const SinkModel&) = delete;
  SinkModel& operator=(const SinkModel&) = delete;

  const std::string& name() const override;
  const std::vector<IoDesc>& inputs() const override;
  const std::vector<IoDesc>& outputs() const override;
  const SinkModelStats& stats() const;
  // Per kernel task, in task order; empty unless loaded with SinkModelOptions::profile. Read between executions.
  std::vector<NodeProfile> profile() const override;
  const char* runtime_name() const override { return "sink"; }
  std::string target() const override { return stats().target; }
  std::map<std::string, int> impls() const override { return stats().impls; }

  // NnExecute on the calling thread: checks counts and sizes (InvalidArgument naming the input or output),
  // binds the buffers and runs every task. Aborted when Abort() stops it.
  Status Execute(const std::vector<DataBuffer>& inputs, const std::vector<DataBuffer>& outputs) override;
  // Execute on the caller's feature-map memory (at least stats().feature_map_bytes, 64-byte aligned, used by
  // nothing else during the call) instead of the context's own.
  Status ExecuteWithFeatureMap(const std::vector<DataBuffer>& inputs, const std::vector<DataBuffer>& outputs,
                               void* feature_map, size_t feature_map_size);
  // Execution contexts made so far (1 after load, at most max_concurrent_executions).
  int num_execution_contexts() const;
  // NnExecute on a caller's stream: validates now, enqueues bind + run; the buffers must stay valid until the
  // stream has passed the model (Synchronize). A failure becomes the stream's sticky error.
  Status ExecuteAsync(const std::vector<DataBuffer>& inputs, const std::vector<DataBuffer>& outputs,
                      rt::Stream& stream) override;
  // Stops the running executions between tasks (they return Aborted) and refuses new ones until ResetAbort().
  void Abort() override;
  void ResetAbort() override;

  struct Impl;  // defined in sink_model.cc

 private:
  explicit SinkModel(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace ge::runtime
