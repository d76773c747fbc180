// The offline-model API (DESIGN.md §9; GE's aclmdlLoadFromFile / aclmdlExecute / aclmdlExecuteAsync): load a
// compiled .om model, describe its inputs and outputs, run it synchronously on the caller's thread or
// asynchronously through its Run loop, unload it.
//
//   auto m = ge::OfflineModel::LoadFromFile("net.om");            // StatusOr<unique_ptr<OfflineModel>>
//   std::vector<float> x(m.value()->inputs()[0].bytes / 4), y(m.value()->outputs()[0].bytes / 4);
//   ge::Status s = (*m)->Execute({{x.data(), x.size() * 4}}, {{y.data(), y.size() * 4}});
//
// Zero copy: the model reads inputs from and writes outputs to the caller's buffers directly; each buffer must
// be exactly the described size. Sync buffers are used only during the call; async buffers must stay valid
// until the callback has been called.
//
// Threading: every method is thread-safe. One loaded model serves concurrent Execute calls: each runs on its own
// execution context (feature map and kernel state), up to OfflineModelOptions::max_concurrent_executions at once;
// more wait for one to free. Callbacks run on the model's Run-loop thread, one at a time: keep them
// short, and never Unload or destroy the model from one.
//
// Self-contained: needs only include/ on the path (installed with the library; see samples/).
#pragma once
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "ge/api.h"
#include "ge/status.h"
#include "ge/tensor.h"
#include "ge/types.h"

namespace ge {

namespace runtime {
struct OfflineModelAccess;
}  // namespace runtime

// One graph input or output. A dim of -1 (a dynamic model, compiled with symbolic dims) takes any size the model
// accepts; bytes is then 0 and only the tensor form of Execute runs the model.
struct ModelTensorDesc {
  std::string name;
  DataType dtype = DataType::kUndefined;
  std::vector<int64_t> dims;
  // Per dim: the symbol the model names an unknown dim with ("batch", "seq"), "" for a known or unnamed dim.
  std::vector<std::string> dim_names;
  size_t bytes = 0;  // the exact buffer size the buffer form of Execute expects (0: dynamic)
};

struct InputBuffer {
  const void* data = nullptr;
  size_t size = 0;
};

struct OutputBuffer {
  void* data = nullptr;
  size_t size = 0;
};

// How a model's kernels share the CPU with other processes.
enum class ThreadContention {
  kAdaptive,     // intra_op_threads while this process is not being preempted; one thread while it is, so that
                 // no kernel waits on a thread another process took the core from
  kFullThreads,  // always intra_op_threads (a quiet machine; reproducible timings)
  kOneThread,    // always one thread, whatever intra_op_threads the kernels were prepared for
};

// The CPUs this process may use: its affinity mask, capped by its cgroup's CPU quota (what intra_op_threads = 0
// resolves to).
GE_API int UsableCpuCount();

struct OfflineModelOptions {
  // Threads one kernel may use (intra-op), including the running thread; 0: the CPUs this process may use (its
  // affinity mask, capped by its cgroup's CPU quota).
  int intra_op_threads = 0;
  ThreadContention thread_contention = ThreadContention::kAdaptive;
  // Caller-provided feature-map memory (GE's SetFeatureMemoryBase): at least the model's feature-map size,
  // 64-byte aligned, used by nothing else until the model is unloaded. Null: the model allocates its own.
  void* feature_map = nullptr;
  size_t feature_map_size = 0;
  // LoadFromMemory only: false copies the image (the caller may free it at once); true uses it in place, and
  // the caller keeps it valid and unchanged until the model is unloaded (no copy; weights are read from it).
  bool borrow_model_data = false;
  // Requests ExecuteAsync may queue before it waits (or fails, see AsyncRunOptions::queue_wait).
  size_t async_queue_capacity = 64;
  // Time every kernel (`ge run --profile`): Profile() then reports per-node times. Costs two clock reads per
  // kernel; off by default.
  bool profile = false;
  // Record a timeline from the load on (`ge run --trace`): the load phases, and every kernel execution on a track
  // per stream (runtime v2: per executor worker). WriteTrace() writes it. The same per-kernel cost as |profile|
  // (a traced model runs one execution at a time, runtime v2 on its sequential executor); at most 2^20 kernel
  // slices are kept, later ones are counted as dropped.
  bool trace = false;
  // Executions of this model that may run at once (Execute from several threads, either form); each beyond the
  // first gets its own execution context (a static model: a feature map; a dynamic one: runtime v2's lowered graphs,
  // kernel caches and run-time memory), made when executions first overlap. >= 1; a profiled or traced model runs
  // one at a time.
  int max_concurrent_executions = 4;
  // GE's ge.exec.value_bins: the file each FileConstant `file_id` names (file_id → path; a relative path is
  // relative to the current directory). om/value_bins.h parses the option's JSON form.
  std::map<std::string, std::string> value_bins;
  // IR (runtime v2) models only: run on the reference interpreter instead of runtime v2 (`ge run --interpreter`;
  // slow, for checking results). A model with compiled static islands is refused, and so is trace (the interpreter
  // records no timeline).
  bool interpreter = false;
  // Seeds random ops (RandomNormal, Dropout, ...) that have no seed attribute of their own.
  uint64_t seed = 0;
  // Runtime v2's GE option keys (ge.exec.v2Executor, ge.exec.v2KernelCacheCapacity, ge.exec.staticMemoryPolicy,
  // ge.exec.v2StaticIslandMinNodes; `ge options` lists them); a bad value is refused, other keys are ignored.
  std::map<std::string, std::string> runtime_options;
  // IR (runtime v2) models only: cut the graph into this many stages run by a worker each (runtime v2's pipeline,
  // `ge run --pipeline_stages`), so that ExecuteBatch overlaps successive requests. 0: one model. Not with trace.
  size_t pipeline_stages = 0;
};

// Run-time memory of a runtime v2 model (OfflineModel::memory_stats), in bytes unless named otherwise: the caching
// allocator's figures (blocks up to 4 KiB), the arena's (larger blocks: segment bytes mapped and touched, in use,
// peaks), the bytes the single-thread front holds, and the prepared kernels the per-node caches hold.
struct ModelMemoryStats {
  size_t allocator_cap = 0, allocator_cached = 0, allocator_in_use = 0, allocator_peak_total = 0, front_held = 0;
  size_t arena = 0, arena_touched = 0, arena_in_use = 0, arena_peak_in_use = 0, arena_peak = 0;
  size_t arena_segments = 0;
  size_t cached_kernels = 0;
};

// Accumulated kernel time of one node since load (OfflineModelOptions::profile).
struct KernelProfile {
  std::string node, op_type, impl;
  double seconds = 0;
  uint64_t runs = 0;
};

struct AsyncRunOptions {
  // Longest the run may take once started; then it is aborted and the callback gets kTimeout. max() or zero: no
  // limit. The abort stops whatever execution of the model is running: a synchronous Execute from another
  // thread that holds the model at that moment fails with kAborted too.
  std::chrono::nanoseconds timeout = std::chrono::nanoseconds::max();
  // Longest ExecuteAsync waits for room in a full queue; zero fails at once (kResourceExhausted).
  std::chrono::nanoseconds queue_wait = std::chrono::nanoseconds::max();
};

class GE_API OfflineModel {
 public:
  // Called exactly once per accepted ExecuteAsync: OK (outputs written), the run's error, kTimeout, or kAborted
  // when the model was unloaded before the request ran.
  using Callback = std::function<void(const Status& status)>;

  static StatusOr<std::unique_ptr<OfflineModel>> LoadFromFile(const std::string& path,
                                                              const OfflineModelOptions& options = {});
  static StatusOr<std::unique_ptr<OfflineModel>> LoadFromMemory(const void* data, size_t size,
                                                                const OfflineModelOptions& options = {});
  // Unload(), ignoring its status.
  ~OfflineModel();
  OfflineModel(const OfflineModel&) = delete;
  OfflineModel& operator=(const OfflineModel&) = delete;

  const std::string& name() const;
  const std::vector<ModelTensorDesc>& inputs() const;
  const std::vector<ModelTensorDesc>& outputs() const;
  // Device memory the model allocated at load for its feature map (0 with caller-provided memory); each further
  // concurrent execution context allocates as much again.
  size_t feature_map_bytes() const;
  // How the model runs here: the runtime the loader picked ("sink" for a compiled static model, "v2" for an IR or
  // lowered model, "interpreter" for one loaded with OfflineModelOptions::interpreter), the
  // x86-64 level it was compiled for ("" when none), and its kernel implementations counted by name (e.g.
  // "dnnl.conv(jit:avx512_core)": 16; empty for the interpreter).
  const std::string& runtime() const;
  const std::string& target() const;
  const std::map<std::string, int>& kernel_impls() const;
  // Per-node kernel times since load, in task order; empty unless loaded with OfflineModelOptions::profile. Call
  // it between executions.
  std::vector<KernelProfile> Profile() const;
  // The timeline recorded so far (OfflineModelOptions::trace) as a Chrome / Perfetto trace-event JSON file (open
  // it in ui.perfetto.dev or chrome://tracing). Call it between executions, before Unload. kFailedPrecondition
  // when the model was loaded without trace or is unloaded.
  Status WriteTrace(const std::string& path) const;
  // Runtime v2's memory figures (`ge run --json`): false, and *stats untouched, for the other runtimes or once
  // unloaded. Call it between executions.
  bool memory_stats(ModelMemoryStats* stats) const;

  // Whether an input or output has a dim of -1: then only the tensor form of Execute runs the model.
  bool dynamic() const;

  // Runs on the calling thread. kInvalidArgument names a buffer of the wrong count or size; a dynamic model
  // refuses buffers (kFailedPrecondition).
  Status Execute(const std::vector<InputBuffer>& inputs, const std::vector<OutputBuffer>& outputs);
  // The tensor form, for every model (dynamic ones included): inputs of any shape the model accepts (dtypes, ranks
  // and known dims must match; kInvalidArgument or, outside a compiled dim range, kOutOfRange names the input),
  // *outputs at their run-time shapes. A tensor already in *outputs whose storage nobody else holds is written in
  // place when large enough (as std::vector keeps its capacity), so a loop that passes the same vector allocates
  // no outputs once the largest shape was seen.
  Status Execute(const std::vector<Tensor>& inputs, std::vector<Tensor>* outputs);
  // A batch of requests, each a full set of inputs as the tensor form takes; (*outputs)[k] are request k's outputs.
  // One after another, except on a pipelined model (OfflineModelOptions::pipeline_stages), whose stages work on
  // successive requests at once. The first failure is returned.
  Status ExecuteBatch(const std::vector<std::vector<Tensor>>& requests, std::vector<std::vector<Tensor>>* outputs);
  // The stages a pipelined model was cut into; 0 for every other model.
  size_t pipeline_stages() const;
  // Queues a run; on OK |done| will be called exactly once. An error (bad buffers, full queue, unloaded) is
  // returned here and |done| is not called.
  Status ExecuteAsync(const std::vector<InputBuffer>& inputs, const std::vector<OutputBuffer>& outputs, Callback done,
                      const AsyncRunOptions& options = {});

  // Cancels queued async requests (callbacks get kAborted), waits for running executions, frees the model.
  // Idempotent; later calls of Execute/ExecuteAsync fail with kFailedPrecondition.
  Status Unload();
  bool loaded() const;

 private:
  friend struct runtime::OfflineModelAccess;
  struct Impl;
  explicit OfflineModel(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace ge
