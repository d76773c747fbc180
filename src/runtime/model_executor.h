// ModelExecutor: GE's per-session execution coordinator (seed 002 §3.5). It registers the session's compiled
// graphs (each an .om source), loads them into the shared ModelManager on first use, remembers when each was
// last used, and makes room under a feature-map memory budget by unloading the least recently used idle models
// (GE's CheckAndReleaseMemory, §3.5.1): never a model that holds collective tasks, never one in use (a sync
// run, a queued or running async request, a stream run not yet passed). An evicted graph stays registered and
// is reloaded by its next run.
//
// The budget counts the feature-map bytes owned by this executor's loaded models (ModelInfo::feature_map_bytes,
// 0 for models on caller-provided memory); weights are mapped from the .om and are not counted.
//
// Threading: every method is thread-safe. Loading and eviction happen under the executor's lock, so one
// session's loads are serialized; runs themselves happen outside it. The ModelManager must outlive the executor.
#pragma once
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "base/status.h"
#include "rt/stream.h"
#include "runtime/data_inputer.h"
#include "runtime/model_manager.h"

namespace ge::runtime {

using GraphId = uint32_t;

struct ModelExecutorOptions {
  size_t memory_budget_bytes = 0;  // 0: unlimited
};

struct GraphModelOptions {
  ModelLoadOptions load;
  // Feature-map bytes expected before the first load (e.g. compiler::CompileReport::feature_map_bytes), so room
  // can be made before loading; 0: unknown, room is made after. Reloads use the size measured at first load.
  size_t expected_bytes = 0;
};

struct GraphState {
  GraphId graph_id = 0;
  bool loaded = false;
  ModelId model_id = 0;          // valid while loaded
  size_t feature_map_bytes = 0;  // measured at the last load (the expectation before any)
  bool holds_collective_tasks = false;
  uint64_t last_use = 0;  // the executor's use counter at the last run or load; 0: never
  Clock::time_point last_used_at{};
  uint64_t loads = 0;
  uint64_t evictions = 0;
};

class ModelExecutor {
 public:
  ModelExecutor(ModelManager* manager, ModelExecutorOptions options = {});
  // Stops the Run loops of this executor's models (queued requests get Aborted) and unloads them, waiting for
  // runs in progress.
  ~ModelExecutor();
  ModelExecutor(const ModelExecutor&) = delete;
  ModelExecutor& operator=(const ModelExecutor&) = delete;

  // Registers a graph; nothing is loaded yet. FailedPrecondition if |id| is taken.
  Status AddGraph(GraphId id, ModelSource source, GraphModelOptions options = {});
  // Unloads (see ModelManager::Unload for |wait|) and forgets the graph.
  Status RemoveGraph(GraphId id, rt::Duration wait = rt::Duration::zero());
  // Loads now (GE's LoadGraph), evicting idle models as needed. No-op when loaded.
  Status LoadGraph(GraphId id);

  // Each run loads the graph if needed and marks it most recently used.
  Status RunGraph(GraphId id, const std::vector<DataBuffer>& inputs, const std::vector<DataBuffer>& outputs);
  StatusOr<uint64_t> RunGraphAsync(GraphId id, RunRequest request, rt::Duration push_timeout = rt::kWaitForever);
  Status RunGraphWithStream(GraphId id, const std::vector<DataBuffer>& inputs, const std::vector<DataBuffer>& outputs,
                            rt::Stream& stream);

  // Loads the graph if needed, marks it most recently used and pins it for the caller (no eviction while the lease
  // lives): what a caller that runs the model itself (tensors, its own feature map) uses.
  StatusOr<ModelLease> Pin(GraphId id);
  // Evicts least recently used idle models until |bytes_needed| more fits the budget; ResourceExhausted
  // (naming what could not be evicted and why) when it cannot.
  Status ReleaseMemory(size_t bytes_needed);

  StatusOr<GraphState> state(GraphId id) const;
  size_t loaded_bytes() const;  // feature-map bytes of the loaded models
  size_t budget() const { return options_.memory_budget_bytes; }

 private:
  struct Graph {
    GraphState state;
    ModelSource source;
    GraphModelOptions options;
  };
  Graph* FindLocked(GraphId id);
  StatusOr<ModelLease> PinLocked(GraphId id);
  Status EnsureLoadedLocked(Graph& g);
  Status EvictToFitLocked(size_t bytes_needed, const Graph* keep);
  size_t LoadedBytesLocked() const;

  ModelManager* const manager_;
  const ModelExecutorOptions options_;
  mutable std::mutex mu_;
  std::map<GraphId, Graph> graphs_;  // guarded by mu_
  uint64_t use_clock_ = 0;           // guarded by mu_
};

}  // namespace ge::runtime
