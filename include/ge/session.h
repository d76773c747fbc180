// Public session API (GE's ge_api.h): GEInitialize / GEFinalize, and Session — graphs added by id, compiled once,
// run many times, sharing the session's variables (seed 000). Self-contained header.
//
// Call order (GE's contract): AddGraph → RunGraph / RunGraphAsync (building on first use) or BuildGraph → RunGraph;
// or AddGraph → CompileGraph → [Set*MemoryBase] → LoadGraph → RunGraphWithStreamAsync. After CompileGraph,
// RunGraph / BuildGraph / RunGraphAsync are Unimplemented ("unsupported"); LoadGraph, GetCompiledGraphSummary and
// the memory bases before CompileGraph are FailedPrecondition ("not built"); an unknown graph id is NotFound.
//
// Options use GE's keys. Unknown keys are an error (InvalidArgument naming the key), never ignored:
//   ge.graphRunMode (0 inference, 1 training), ge.exec.variable_acc (1|0), ge.externalWeight (0|1|2),
//   ge.externalWeightDir, ge.exec.value_bins, ge.variableUse1gHugePage (0|1|2), ge.exec.staticMemoryPolicy,
//   ge.featureBaseRefreshable (0|1), ge.constLifecycle (session|graph), ge.exec.precision_mode
//   (fp32|allow_bf16), ge.exec.disableReuseMemory, ge.streamMaxParallelNum, ge.AllowMultiGraphParallelCompile,
//   ge.sessionMemoryBudget (bytes; ge's own), ge.exec.sessionMemoryLimit (feature-map bytes of loaded graphs; idle
//   graphs are evicted, least recently used first, and reloaded by their next run), ge.format.activation, ge.fusion,
//   ge.weights.prepack, ge.engine.<name>.
// ge.exec.value_bins is GE's JSON {"value_bins":[{"value_bin_id":ID,"value_bin_file":PATH},...]}: the files that
// FileConstant nodes naming a `file_id` read (at compile time to plan them, at load to map them). Accepted for
// compatibility with no effect on this CPU runtime: ge.graphRunMode (variables and writes work in either mode),
// ge.constLifecycle (constants live as long as the model that maps them; mapped files are shared process-wide
// anyway), ge.variableUse1gHugePage (the process's device decides its huge-page policy, rt::DeviceOptions) and
// ge.exec.staticMemoryPolicy (static models plan their memory at compile time).
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "ge/api.h"
#include "ge/graph.h"
#include "ge/status.h"
#include "ge/tensor.h"

namespace ge {

using Options = std::map<std::string, std::string>;

// Process-wide runtime (device, thread pools). Idempotent. Options: ge.exec.deviceId (0), ge.intraOpThreads (0 =
// one per core).
GE_API Status GEInitialize(const Options& options = {});
// Releases it; FailedPrecondition while sessions are open.
GE_API Status GEFinalize();

struct TensorInfo {
  std::string name;
  DataType dtype = DataType::kUndefined;
  std::vector<int64_t> dims;
};

struct CompiledGraphSummary {
  bool is_static = true;
  size_t feature_memory_size = 0;  // bytes per execution (UpdateGraphFeatureMemoryBase's minimum)
  size_t const_memory_size = 0;    // weights
  size_t stream_num = 0;
  size_t event_num = 0;
  std::vector<TensorInfo> inputs, outputs;
  std::vector<std::string> variables;  // the session variables the graph uses
};

// Where a graph stands in the session's model executor (GE's ModelExecutor): whether its model is loaded now, how
// often it was loaded and evicted (unloaded to make room under ge.exec.sessionMemoryLimit, reloaded by its next
// run), and the feature-map bytes it holds while loaded.
struct GraphLoadState {
  bool loaded = false;
  uint64_t loads = 0;
  uint64_t evictions = 0;
  size_t feature_memory_bytes = 0;
};

using RunAsyncCallback = std::function<void(Status, std::vector<Tensor>&)>;

// GE's RegisterCallBackFunc callback: called once per successful run of any graph of the session, on the thread
// that ran it, with the graph id and the run's outputs by name (GE passes its summary tensors this way). The
// return value is ignored (GE's convention: 0 for success).
using RunCallBackFunc = std::function<uint32_t(uint32_t graph_id, const std::map<std::string, Tensor>& outputs)>;

// A compiled graph's .om image (GE's ModelBufferData): OfflineModel::LoadFromMemory loads it.
struct ModelBufferData {
  std::shared_ptr<uint8_t> data;
  uint64_t length = 0;
};

// Streams (GE's aclrtStream; `void*` as GE's API takes them): work enqueued on one runs in order on a thread of
// its own, beside the caller; SynchronizeStream waits for it. Created after GEInitialize; one stream serves any
// session. A handle not made by CreateStream (or already destroyed) is InvalidArgument wherever it is passed.
GE_API Status CreateStream(void** stream);
// Waits for the stream's work, then frees it.
GE_API Status DestroyStream(void* stream);
// Waits for every run enqueued so far; returns the first error one of them had (and clears it), else OK.
GE_API Status SynchronizeStream(void* stream);

class GE_API Session {
 public:
  // Check status() before use: a session created before GEInitialize, or with a bad option, is unusable and
  // every call returns that error.
  explicit Session(const Options& options = {});
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  Status status() const;
  uint64_t GetSessionId() const;

  Status AddGraph(uint32_t graph_id, const Graph& graph, const Options& options = {});
  Status AddGraphWithCopy(uint32_t graph_id, const Graph& graph, const Options& options = {});
  Status RemoveGraph(uint32_t graph_id);

  Status BuildGraph(uint32_t graph_id, const std::vector<Tensor>& inputs = {});
  Status RunGraph(uint32_t graph_id, const std::vector<Tensor>& inputs, std::vector<Tensor>& outputs);
  // Runs on the session's worker thread; `callback` gets the status and outputs there.
  Status RunGraphAsync(uint32_t graph_id, const std::vector<Tensor>& inputs, RunAsyncCallback callback);

  Status CompileGraph(uint32_t graph_id);
  Status GetCompiledGraphSummary(uint32_t graph_id, CompiledGraphSummary* summary);
  // FailedPrecondition until the graph is built or compiled.
  Status GetGraphLoadState(uint32_t graph_id, GraphLoadState* state);
  // Caller-provided constant memory (GE's const base), before LoadGraph: at least the summary's const_memory_size,
  // 64-byte aligned. The load copies the weights there and the model reads its constants from it, so it must stay
  // valid until the graph is removed (GE hands the memory over; `const` follows GE's signature). Static graphs.
  Status SetGraphConstMemoryBase(uint32_t graph_id, const void* memory, size_t size);
  // Feature-map memory owned by the caller (GE's fixed / refreshable feature base): at least the summary's
  // feature_memory_size, 64-byte aligned. Fixed: before LoadGraph. Update: before each run (needs
  // ge.featureBaseRefreshable=1).
  Status SetGraphFixedFeatureMemoryBase(uint32_t graph_id, void* memory, size_t size);
  Status UpdateGraphFeatureMemoryBase(uint32_t graph_id, void* memory, size_t size);
  // `stream`: null, or a CreateStream handle (the load itself happens now, on the caller's thread).
  Status LoadGraph(uint32_t graph_id, const Options& options = {}, void* stream = nullptr);
  // A loaded static graph on `stream`: returns once the run is enqueued, with `outputs` allocated at the graph's
  // output shapes; the run writes them, and the inputs must stay unchanged, until SynchronizeStream(stream) has
  // returned (the run holds the tensors' storage, so the caller may drop its handles). Errors of the run itself
  // are the stream's (SynchronizeStream returns them). A null stream runs on the caller's thread before returning.
  Status RunGraphWithStreamAsync(uint32_t graph_id, void* stream, const std::vector<Tensor>& inputs,
                                 std::vector<Tensor>& outputs);
  // Registers (or, with the same key, replaces) a callback every successful run calls once; an empty key or
  // callback is InvalidArgument.
  Status RegisterCallBackFunc(const std::string& key, const RunCallBackFunc& callback);
  // The compiled graph's .om image (after BuildGraph, RunGraph or CompileGraph; FailedPrecondition before).
  Status GetCompiledModel(uint32_t graph_id, ModelBufferData& model_buffer);

  // Copies of the named variables' current values (every variable of the session when names is empty, sorted by
  // name: then `names` is filled too). NotFound for an unknown name.
  Status GetVariables(std::vector<std::string>& names, std::vector<Tensor>& values);
  // Checkpoints (ge's own): every variable of the session with its desc, written atomically / read back.
  Status SaveCheckpoint(const std::string& path);
  Status RestoreCheckpoint(const std::string& path);

  // True when the graph must be built again before it runs: not built yet, or a variable it uses changed its
  // desc since (the cached model would read it wrongly).
  bool IsGraphNeedRebuild(uint32_t graph_id);
  // A new graph id over the same compiled model (weights shared) with its own feature map and execution state.
  Status ForkGraph(uint32_t graph_id, uint32_t new_graph_id);

  // With session option ge.exec.profilingMode=1: the timeline since the session was created (every graph's load
  // phases, one slice per kernel run on a track per stream or executor worker) as a Chrome / Perfetto trace-event
  // JSON file. FailedPrecondition without that option.
  Status WriteTrace(const std::string& path) const;

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace ge
