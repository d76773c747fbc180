#include "runtime/model_manager.h"

#include <algorithm>
#include <string>
#include <utility>

namespace ge::runtime {

namespace internal {

// Member order matters: the loops (whose threads call the model) are destroyed before the model.
struct ModelEntry {
  ModelId id = 0;
  LoadedModel loaded;
  bool collective = false;
  uint64_t uses = 0;       // leases + async requests whose callback has not returned; guarded by mu_
  bool unloading = false;  // guarded by mu_
  std::vector<std::unique_ptr<rt::Event>> stream_runs;  // recorded after ExecuteWithStream runs; guarded by mu_
  // Stopped loops stay until unload: a concurrent Submit may still hold a pointer to one.
  std::vector<std::unique_ptr<RunLoop>> stopped_loops;  // guarded by mu_
  std::unique_ptr<RunLoop> loop;                        // guarded by mu_

  std::string Label() const { return "model " + std::to_string(id) + " '" + loaded.model->name() + "'"; }
};

}  // namespace internal

namespace {

size_t PendingStreamRuns(const internal::ModelEntry& e) {
  return static_cast<size_t>(std::count_if(e.stream_runs.begin(), e.stream_runs.end(),
                                           [](const std::unique_ptr<rt::Event>& ev) { return !ev->Query(); }));
}

rt::Duration Remaining(Clock::time_point deadline) {
  if (deadline == Clock::time_point::max()) return rt::kWaitForever;
  return std::max(rt::Duration::zero(), std::chrono::duration_cast<rt::Duration>(deadline - Clock::now()));
}

}  // namespace

// ---------------------------------------------------------------------------------------------------------------
// ModelSource, ModelLease

ModelSource ModelSource::File(std::string path) {
  ModelSource s;
  s.path = std::move(path);
  return s;
}

ModelSource ModelSource::Memory(const void* data, size_t size, std::shared_ptr<const void> keep_alive) {
  ModelSource s;
  s.data = data;
  s.size = size;
  s.keep_alive = std::move(keep_alive);
  return s;
}

ModelSource ModelSource::Opened(std::shared_ptr<const om::OmReader> reader, std::string label) {
  ModelSource s;
  s.opened = std::move(reader);
  s.label = std::move(label);
  return s;
}

std::string ModelSource::Describe() const {
  if (!label.empty()) return label;
  if (!path.empty()) return path;
  return "<memory: " + std::to_string(size) + " bytes>";
}

ModelLease& ModelLease::operator=(ModelLease&& other) noexcept {
  if (this != &other) {
    Reset();
    manager_ = std::exchange(other.manager_, nullptr);
    entry_ = std::exchange(other.entry_, nullptr);
  }
  return *this;
}

ExecutableModel& ModelLease::model() const { return *entry_->loaded.model; }
ModelId ModelLease::id() const { return entry_->id; }

void ModelLease::Reset() {
  if (entry_ != nullptr) manager_->Release(entry_);
  manager_ = nullptr;
  entry_ = nullptr;
}

// ---------------------------------------------------------------------------------------------------------------
// ModelManager

ModelManager::ModelManager(rt::Device* device, ModelLoader loader) : device_(device), loader_(std::move(loader)) {}

ModelManager::~ModelManager() {
  std::map<ModelId, std::unique_ptr<Entry>> models;
  {
    std::lock_guard<std::mutex> lk(mu_);
    models.swap(models_);
  }
  // Cancelled requests' callbacks call Release() on their entry, which stays alive until the loop has stopped.
  for (auto& [id, e] : models) {
    if (e->loop) e->loop->Stop();
  }
  for (auto& [id, e] : models) {
    // A stream that has not passed a run still holds its event: leak the event rather than leave the stream a
    // dangling pointer (destroying the manager first is the caller's bug, as for rt::Model).
    for (auto& ev : e->stream_runs) {
      if (!ev->Query()) (void)ev.release();
    }
  }
}

ModelManager::Entry* ModelManager::FindLocked(ModelId id) const {
  auto it = models_.find(id);
  return it == models_.end() ? nullptr : it->second.get();
}

Status ModelManager::UsableLocked(ModelId id, Entry** out) const {
  Entry* e = FindLocked(id);
  if (e == nullptr) return NotFound("model " + std::to_string(id) + " is not loaded");
  if (e->unloading) return FailedPrecondition(e->Label() + " is being unloaded");
  *out = e;
  return Status::Ok();
}

StatusOr<ModelId> ModelManager::Load(const ModelSource& source, const ModelLoadOptions& options) {
  if (!loader_) return FailedPrecondition("ModelManager has no model loader");
  if (source.opened == nullptr && source.path.empty() && (source.data == nullptr || source.size == 0)) {
    return InvalidArgument("model source is empty: give a file path or a non-empty memory image");
  }
  StatusOr<LoadedModel> loaded = loader_(source, options, *device_);
  if (!loaded.ok()) return loaded.status().WithContext("loading model from " + source.Describe());
  if (!loaded->model) return Internal("loader returned no model for " + source.Describe());

  auto e = std::make_unique<Entry>();
  e->loaded = std::move(loaded).value();
  e->collective = options.holds_collective_tasks || e->loaded.has_collective_tasks;
  std::lock_guard<std::mutex> lk(mu_);
  if (next_id_ == 0) return ResourceExhausted("model ids exhausted (2^32 - 1 loads)");
  e->id = next_id_++;
  const ModelId id = e->id;
  models_.emplace(id, std::move(e));
  return id;
}

StatusOr<ModelId> ModelManager::LoadFromFile(const std::string& path, const ModelLoadOptions& options) {
  return Load(ModelSource::File(path), options);
}

StatusOr<ModelId> ModelManager::LoadFromMemory(const void* data, size_t size, std::shared_ptr<const void> keep_alive,
                                               const ModelLoadOptions& options) {
  return Load(ModelSource::Memory(data, size, std::move(keep_alive)), options);
}

StatusOr<ModelLease> ModelManager::Acquire(ModelId id) {
  std::lock_guard<std::mutex> lk(mu_);
  Entry* e = nullptr;
  GE_RETURN_IF_ERROR(UsableLocked(id, &e));
  ++e->uses;
  return ModelLease(this, e);
}

void ModelManager::Release(Entry* e) {
  {
    std::lock_guard<std::mutex> lk(mu_);
    --e->uses;
  }
  released_cv_.notify_all();
}

Status ModelManager::Unload(ModelId id, rt::Duration wait) {
  const Clock::time_point deadline = DeadlineAfter(wait);
  std::unique_lock<std::mutex> lk(mu_);
  Entry* e = FindLocked(id);
  if (e == nullptr) return NotFound("model " + std::to_string(id) + " is not loaded");
  if (e->unloading) return FailedPrecondition(e->Label() + " is already being unloaded");
  e->unloading = true;  // from here no new use can start
  auto refuse = [&](uint64_t runs) {
    e->unloading = false;
    std::string msg = e->Label() + " is in use (" + std::to_string(runs) + " run(s) in flight)";
    if (wait > rt::Duration::zero()) msg += " after waiting " + FormatDuration(wait);
    return FailedPrecondition(msg + "; not unloaded");
  };
  while (e->uses > 0) {
    if (deadline == Clock::time_point::max()) {
      released_cv_.wait(lk);
    } else if (released_cv_.wait_until(lk, deadline) == std::cv_status::timeout && e->uses > 0) {
      return refuse(e->uses);
    }
  }
  // Runs enqueued on callers' streams: wait for the stream to pass each (unlocked; no new ones can come).
  std::vector<std::unique_ptr<rt::Event>> runs = std::move(e->stream_runs);
  e->stream_runs.clear();
  lk.unlock();
  for (auto& ev : runs) {
    if (!ev->Query()) ev->Synchronize(Remaining(deadline)).IgnoreError();  // only completion matters here
  }
  lk.lock();
  runs.erase(std::remove_if(runs.begin(), runs.end(), [](const auto& ev) { return ev->Query(); }), runs.end());
  if (!runs.empty()) {
    const uint64_t n = runs.size();
    e->stream_runs = std::move(runs);
    return refuse(n);
  }
  std::unique_ptr<Entry> owned = std::move(models_[id]);
  models_.erase(id);
  lk.unlock();
  if (owned->loop) owned->loop->Stop();  // idle: nothing can be queued
  owned.reset();
  return Status::Ok();
}

Status ModelManager::StartRunLoop(ModelId id, const RunLoopOptions& options) {
  std::lock_guard<std::mutex> lk(mu_);
  Entry* e = nullptr;
  GE_RETURN_IF_ERROR(UsableLocked(id, &e));
  if (e->loop && !e->loop->stopped()) return Status::Ok();
  if (e->loop) e->stopped_loops.push_back(std::move(e->loop));
  GE_ASSIGN_OR_RETURN(e->loop, RunLoop::Start(e->loaded.model.get(), options));
  return Status::Ok();
}

Status ModelManager::StopRunLoop(ModelId id, StopMode mode) {
  RunLoop* loop = nullptr;
  GE_ASSIGN_OR_RETURN(ModelLease lease, Acquire(id));  // keeps the loop alive while it stops
  {
    std::lock_guard<std::mutex> lk(mu_);
    loop = lease.entry_->loop.get();
  }
  if (loop != nullptr) loop->Stop(mode);  // unlocked: cancelled callbacks call Release()
  return Status::Ok();
}

StatusOr<uint64_t> ModelManager::Submit(ModelId id, RunRequest request, rt::Duration push_timeout) {
  Entry* e = nullptr;
  RunLoop* loop = nullptr;
  {
    std::lock_guard<std::mutex> lk(mu_);
    GE_RETURN_IF_ERROR(UsableLocked(id, &e));
    if (!e->loop) {
      GE_ASSIGN_OR_RETURN(e->loop, RunLoop::Start(e->loaded.model.get(), RunLoopOptions{}));
    }
    if (e->loop->stopped()) return FailedPrecondition(e->Label() + ": its Run loop was stopped");
    loop = e->loop.get();
    ++e->uses;  // released after the callback
  }
  RunCallback user = std::move(request.done);
  request.done = [this, e, user = std::move(user)](uint64_t rid, const Status& st,
                                                   const std::vector<DataBuffer>& outputs) {
    if (user) user(rid, st, outputs);
    Release(e);
  };
  StatusOr<uint64_t> rid = loop->Submit(std::move(request), push_timeout);
  if (!rid.ok()) Release(e);  // not queued: its callback will not run
  return rid;
}

Status ModelManager::ExecuteWithStream(ModelId id, const std::vector<DataBuffer>& inputs,
                                       const std::vector<DataBuffer>& outputs, rt::Stream& stream) {
  GE_ASSIGN_OR_RETURN(ModelLease lease, Acquire(id));
  GE_RETURN_IF_ERROR(lease.model().ExecuteAsync(inputs, outputs, stream));
  GE_ASSIGN_OR_RETURN(std::unique_ptr<rt::Event> done, device_->CreateEvent());
  Status st = stream.RecordEvent(*done);
  if (!st.ok()) return st.WithContext("recording the end of a run of model " + std::to_string(id));
  std::lock_guard<std::mutex> lk(mu_);
  auto& runs = lease.entry_->stream_runs;
  runs.erase(std::remove_if(runs.begin(), runs.end(), [](const auto& ev) { return ev->Query(); }), runs.end());
  runs.push_back(std::move(done));
  return Status::Ok();
}

ModelInfo ModelManager::InfoLocked(const Entry& e) {
  ModelInfo info;
  info.id = e.id;
  info.name = e.loaded.model->name();
  info.feature_map_bytes = e.loaded.feature_map_bytes;
  info.weights_bytes = e.loaded.weights_bytes;
  info.holds_collective_tasks = e.collective;
  info.uses = e.uses + PendingStreamRuns(e);
  info.run_loop_running = e.loop && !e.loop->stopped();
  return info;
}

StatusOr<ModelInfo> ModelManager::Info(ModelId id) const {
  std::lock_guard<std::mutex> lk(mu_);
  Entry* e = FindLocked(id);
  if (e == nullptr) return NotFound("model " + std::to_string(id) + " is not loaded");
  return InfoLocked(*e);
}

std::vector<ModelId> ModelManager::ids() const {
  std::lock_guard<std::mutex> lk(mu_);
  std::vector<ModelId> out;
  for (const auto& [id, e] : models_) out.push_back(id);
  return out;
}

ResourceUsage ModelManager::usage() const {
  std::lock_guard<std::mutex> lk(mu_);
  ResourceUsage u;
  for (const auto& [id, e] : models_) {
    ++u.models;
    u.feature_map_bytes += e->loaded.feature_map_bytes;
    u.weights_bytes += e->loaded.weights_bytes;
  }
  return u;
}

}  // namespace ge::runtime
