#include "runtime/model_executor.h"

#include <algorithm>
#include <string>
#include <utility>

namespace ge::runtime {

namespace {
std::string GraphLabel(GraphId id) { return "graph " + std::to_string(id); }
}  // namespace

ModelExecutor::ModelExecutor(ModelManager* manager, ModelExecutorOptions options)
    : manager_(manager), options_(options) {}

ModelExecutor::~ModelExecutor() {
  std::map<GraphId, Graph> graphs;
  {
    std::lock_guard<std::mutex> lk(mu_);
    graphs.swap(graphs_);  // a callback that runs a graph now gets NotFound instead of reloading it
  }
  // Unlocked: stopping a loop runs the cancelled requests' callbacks.
  for (auto& [id, g] : graphs) {
    if (!g.state.loaded) continue;
    manager_->StopRunLoop(g.state.model_id).IgnoreError();
    manager_->Unload(g.state.model_id, rt::kWaitForever).IgnoreError();
  }
}

ModelExecutor::Graph* ModelExecutor::FindLocked(GraphId id) {
  auto it = graphs_.find(id);
  return it == graphs_.end() ? nullptr : &it->second;
}

Status ModelExecutor::AddGraph(GraphId id, ModelSource source, GraphModelOptions options) {
  std::lock_guard<std::mutex> lk(mu_);
  if (graphs_.count(id) != 0) return FailedPrecondition(GraphLabel(id) + " is already added");
  Graph g;
  g.state.graph_id = id;
  g.state.feature_map_bytes = options.expected_bytes;
  g.state.holds_collective_tasks = options.load.holds_collective_tasks;
  g.source = std::move(source);
  g.options = std::move(options);
  graphs_.emplace(id, std::move(g));
  return Status::Ok();
}

Status ModelExecutor::RemoveGraph(GraphId id, rt::Duration wait) {
  std::lock_guard<std::mutex> lk(mu_);
  Graph* g = FindLocked(id);
  if (g == nullptr) return NotFound(GraphLabel(id) + " was not added");
  if (g->state.loaded) {
    Status st = manager_->Unload(g->state.model_id, wait);
    if (!st.ok() && st.code() != StatusCode::kNotFound) return st.WithContext(GraphLabel(id));
  }
  graphs_.erase(id);
  return Status::Ok();
}

Status ModelExecutor::LoadGraph(GraphId id) {
  std::lock_guard<std::mutex> lk(mu_);
  Graph* g = FindLocked(id);
  if (g == nullptr) return NotFound(GraphLabel(id) + " was not added");
  GE_RETURN_IF_ERROR(EnsureLoadedLocked(*g));
  g->state.last_use = ++use_clock_;
  g->state.last_used_at = Clock::now();
  return Status::Ok();
}

size_t ModelExecutor::LoadedBytesLocked() const {
  size_t total = 0;
  for (const auto& [id, g] : graphs_) {
    if (g.state.loaded) total += g.state.feature_map_bytes;
  }
  return total;
}

Status ModelExecutor::EvictToFitLocked(size_t bytes_needed, const Graph* keep) {
  const size_t budget = options_.memory_budget_bytes;
  if (budget == 0) return Status::Ok();
  if (bytes_needed > budget) {
    return ResourceExhausted("needs " + std::to_string(bytes_needed) + " feature-map bytes, more than the budget of " +
                             std::to_string(budget));
  }
  std::vector<Graph*> lru;
  for (auto& [id, g] : graphs_) {
    if (g.state.loaded && &g != keep) lru.push_back(&g);
  }
  std::sort(lru.begin(), lru.end(),
            [](const Graph* a, const Graph* b) { return a->state.last_use < b->state.last_use; });
  size_t used = LoadedBytesLocked();
  std::string kept;  // why each candidate stayed
  for (Graph* g : lru) {
    if (used + bytes_needed <= budget) break;
    if (g->state.holds_collective_tasks) {
      kept += "; " + GraphLabel(g->state.graph_id) + " holds collective tasks";
      continue;
    }
    Status st = manager_->Unload(g->state.model_id);  // zero wait: refuses while in use
    if (!st.ok() && st.code() != StatusCode::kNotFound) {
      kept += "; " + GraphLabel(g->state.graph_id) + " is in use";
      continue;
    }
    g->state.loaded = false;
    ++g->state.evictions;
    used -= g->state.feature_map_bytes;
  }
  if (used + bytes_needed <= budget) return Status::Ok();
  return ResourceExhausted("needs " + std::to_string(bytes_needed) + " more feature-map bytes; budget " +
                           std::to_string(budget) + ", " + std::to_string(used) +
                           " held by models that cannot be evicted" + kept);
}

Status ModelExecutor::EnsureLoadedLocked(Graph& g) {
  if (g.state.loaded) return Status::Ok();
  const std::string label = GraphLabel(g.state.graph_id);
  GE_RETURN_IF_ERROR(EvictToFitLocked(g.state.feature_map_bytes, &g).WithContext("loading " + label));
  StatusOr<ModelId> loaded = manager_->Load(g.source, g.options.load);
  if (!loaded.ok()) return loaded.status().WithContext(label);
  const ModelId model_id = *loaded;
  StatusOr<ModelInfo> info = manager_->Info(model_id);
  if (!info.ok()) return info.status().WithContext(label);
  g.state.loaded = true;
  g.state.model_id = model_id;
  g.state.feature_map_bytes = info->feature_map_bytes;
  g.state.holds_collective_tasks = info->holds_collective_tasks;
  ++g.state.loads;
  Status fit = EvictToFitLocked(0, &g);
  if (!fit.ok()) {
    // The measured size does not fit: give the memory back and stay unloaded.
    manager_->Unload(model_id).IgnoreError();
    g.state.loaded = false;
    return fit.WithContext("loading " + label + " (" + std::to_string(g.state.feature_map_bytes) + " bytes)");
  }
  return Status::Ok();
}

StatusOr<ModelLease> ModelExecutor::PinLocked(GraphId id) {
  Graph* g = FindLocked(id);
  if (g == nullptr) return NotFound(GraphLabel(id) + " was not added");
  GE_RETURN_IF_ERROR(EnsureLoadedLocked(*g));
  StatusOr<ModelLease> lease = manager_->Acquire(g->state.model_id);
  if (lease.status().code() == StatusCode::kNotFound) {
    // Unloaded behind the executor's back (e.g. through the ModelManager): load it again.
    g->state.loaded = false;
    GE_RETURN_IF_ERROR(EnsureLoadedLocked(*g));
    lease = manager_->Acquire(g->state.model_id);
  }
  if (lease.ok()) {
    g->state.last_use = ++use_clock_;
    g->state.last_used_at = Clock::now();
  }
  return lease;
}

Status ModelExecutor::RunGraph(GraphId id, const std::vector<DataBuffer>& inputs,
                               const std::vector<DataBuffer>& outputs) {
  ModelLease lease;
  {
    std::lock_guard<std::mutex> lk(mu_);
    GE_ASSIGN_OR_RETURN(lease, PinLocked(id));
  }
  return lease.model().Execute(inputs, outputs);
}

StatusOr<uint64_t> ModelExecutor::RunGraphAsync(GraphId id, RunRequest request, rt::Duration push_timeout) {
  ModelLease pin;  // keeps the model loaded until Submit has pinned it for the request
  {
    std::lock_guard<std::mutex> lk(mu_);
    GE_ASSIGN_OR_RETURN(pin, PinLocked(id));
  }
  return manager_->Submit(pin.id(), std::move(request), push_timeout);
}

Status ModelExecutor::RunGraphWithStream(GraphId id, const std::vector<DataBuffer>& inputs,
                                         const std::vector<DataBuffer>& outputs, rt::Stream& stream) {
  ModelLease pin;
  {
    std::lock_guard<std::mutex> lk(mu_);
    GE_ASSIGN_OR_RETURN(pin, PinLocked(id));
  }
  return manager_->ExecuteWithStream(pin.id(), inputs, outputs, stream);
}

StatusOr<ModelLease> ModelExecutor::Pin(GraphId id) {
  std::lock_guard<std::mutex> lk(mu_);
  return PinLocked(id);
}

Status ModelExecutor::ReleaseMemory(size_t bytes_needed) {
  std::lock_guard<std::mutex> lk(mu_);
  return EvictToFitLocked(bytes_needed, nullptr);
}

StatusOr<GraphState> ModelExecutor::state(GraphId id) const {
  std::lock_guard<std::mutex> lk(mu_);
  auto it = graphs_.find(id);
  if (it == graphs_.end()) return NotFound(GraphLabel(id) + " was not added");
  return it->second.state;
}

size_t ModelExecutor::loaded_bytes() const {
  std::lock_guard<std::mutex> lk(mu_);
  return LoadedBytesLocked();
}

}  // namespace ge::runtime
