// ModelManager: GE's ModelManager (seed 002 §2.3): the registry of loaded models by id, their Run loops
// (ModelRunStart/Stop), and resource accounting. Not a singleton: it lives in a RuntimeContext
// (runtime_context.h) that the session, the offline-model API or a test creates.
//
// Ids are uint32, handed out increasing from 1 and never reused by one manager.
//
// Unload policy: a model is pinned while anyone uses it (a ModelLease from Acquire, a queued or running async
// request, an ExecuteWithStream run the stream has not passed). Unload(id, wait) stops new uses at once, waits
// up to |wait| for the pinned uses to end, then unloads; if they do not end in time it refuses with
// FailedPrecondition and the model stays loaded and usable. The default wait is zero: refuse while in use.
//
// Threading: every method is thread-safe. Loading runs outside the registry lock. The manager must outlive its
// leases; destroying it with a lease held is a bug. Destruction stops every Run loop (queued requests are
// called back with Aborted) and unloads every model.
#pragma once
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "base/status.h"
#include "base/trace_recorder.h"
#include "kernels/engine.h"
#include "rt/device.h"
#include "runtime/data_inputer.h"
#include "runtime/executable_model.h"
#include "runtime/run_loop.h"

namespace ge::om {
class OmReader;
}  // namespace ge::om
namespace ge::var {
class VarManager;
}  // namespace ge::var

namespace ge::runtime {

using ModelId = uint32_t;

// Where a model comes from: a file (path non-empty) or memory.
struct ModelSource {
  std::string path;
  const void* data = nullptr;
  size_t size = 0;
  // Keeps [data, data + size) alive while a model loaded from it lives; null: the caller keeps it alive and
  // unchanged until the model is unloaded.
  std::shared_ptr<const void> keep_alive;
  // An image already opened and verified (a session's compiled graph): loaded without reading it again; `label`
  // names it in messages ("graph 3").
  std::shared_ptr<const om::OmReader> opened;
  std::string label;

  static ModelSource File(std::string path);
  static ModelSource Memory(const void* data, size_t size, std::shared_ptr<const void> keep_alive = nullptr);
  static ModelSource Opened(std::shared_ptr<const om::OmReader> reader, std::string label);
  std::string Describe() const;  // the path, or "<memory: N bytes>"
};

struct ModelLoadOptions {
  // Caller-provided feature-map memory (GE's SetFeatureMemoryBase); null: the model allocates its own.
  void* feature_map = nullptr;
  size_t feature_map_size = 0;
  // Caller-provided constant memory (GE's SetGraphConstMemoryBase; SinkModelOptions::const_memory).
  void* const_memory = nullptr;
  size_t const_memory_size = 0;
  // Time every kernel (`ge run --profile`; SinkModel::profile()).
  bool profile = false;
  // Record the load phases and every kernel execution here (`ge run --trace`; SinkModelOptions::trace,
  // ModelV2Options::trace). Not owned; outlives the model.
  trace::TraceRecorder* trace = nullptr;
  // Executions of the model that may run at once (SinkModelOptions / ModelV2Options::max_concurrent_executions).
  int max_concurrent_executions = 4;
  // The model holds collective (HCCL-like) tasks: ModelExecutor never evicts it (seed 002 §3.5.1).
  bool holds_collective_tasks = false;
  // GE's ge.exec.value_bins: the file of each FileConstant file_id (SinkModelOptions::value_bins).
  std::map<std::string, std::string> value_bins;
  // IR models: the reference interpreter instead of runtime v2 (OfflineModelOptions::interpreter).
  bool interpreter = false;
  uint64_t seed = 0;  // random ops without a seed attribute (IR models)
  // Runtime v2's GE option keys (ModelV2Options::ApplyGeOptions).
  std::map<std::string, std::string> runtime_options;
  // IR models: runtime v2's pipeline of this many partitioned stages (OfflineModelOptions::pipeline_stages).
  size_t pipeline_stages = 0;
  // A session's variables (seed 000): the model's variables resolve to its memory (SinkModelOptions::variables,
  // ModelV2Options::variables). Null: the model's own (an offline model).
  std::shared_ptr<var::VarManager> variables;
};

// What a loader produces.
struct LoadedModel {
  std::unique_ptr<ExecutableModel> model;
  size_t feature_map_bytes = 0;  // device memory the model allocated for its feature map (0 if caller's)
  size_t weights_bytes = 0;
  bool has_collective_tasks = false;
};

// Turns a source into a model on |device|. OmModelLoader() (model_loader.cc) is the real one; tests inject fakes.
// Called without the registry lock, possibly from several threads at once.
using ModelLoader = std::function<StatusOr<LoadedModel>(const ModelSource& source, const ModelLoadOptions& options,
                                                        rt::Device& device)>;

// Loads .om files and images with om::OmReader and the runtime for the model type inside: runtime v1's SinkModel
// for compiled static models (kernels on `engines`, ge's own list by default), the interpreter for IR models.
ModelLoader OmModelLoader(kernels::EngineList engines);
ModelLoader OmModelLoader();

struct ModelInfo {
  ModelId id = 0;
  std::string name;
  size_t feature_map_bytes = 0;
  size_t weights_bytes = 0;
  bool holds_collective_tasks = false;
  uint64_t uses = 0;  // pinned uses now (leases + async requests + stream runs not yet passed)
  bool run_loop_running = false;
};

struct ResourceUsage {
  size_t models = 0;
  size_t feature_map_bytes = 0;
  size_t weights_bytes = 0;
};

class ModelManager;
namespace internal {
struct ModelEntry;  // one registry slot (model_manager.cc)
}  // namespace internal

// Pins one model while held (Unload waits or refuses). Move-only; release by destruction or Reset().
class ModelLease {
 public:
  ModelLease() = default;
  ModelLease(ModelLease&& other) noexcept { *this = std::move(other); }
  ModelLease& operator=(ModelLease&& other) noexcept;
  ~ModelLease() { Reset(); }

  explicit operator bool() const { return entry_ != nullptr; }
  ExecutableModel& model() const;
  ModelId id() const;
  void Reset();

 private:
  friend class ModelManager;
  ModelLease(ModelManager* manager, internal::ModelEntry* entry) : manager_(manager), entry_(entry) {}
  ModelManager* manager_ = nullptr;
  internal::ModelEntry* entry_ = nullptr;
};

class ModelManager {
 public:
  // |device| must outlive the manager; |loader| must be callable.
  ModelManager(rt::Device* device, ModelLoader loader);
  ~ModelManager();
  ModelManager(const ModelManager&) = delete;
  ModelManager& operator=(const ModelManager&) = delete;

  StatusOr<ModelId> Load(const ModelSource& source, const ModelLoadOptions& options = {});
  StatusOr<ModelId> LoadFromFile(const std::string& path, const ModelLoadOptions& options = {});
  StatusOr<ModelId> LoadFromMemory(const void* data, size_t size, std::shared_ptr<const void> keep_alive = nullptr,
                                   const ModelLoadOptions& options = {});

  // GE's GetModel: NotFound for an unknown id, FailedPrecondition while it is being unloaded.
  StatusOr<ModelLease> Acquire(ModelId id);
  // See the unload policy above. NotFound for an unknown id.
  Status Unload(ModelId id, rt::Duration wait = rt::Duration::zero());

  // Run loop (GE's ModelRunStart / ModelRunStop). Start is a no-op when running; Stop cancels queued requests.
  Status StartRunLoop(ModelId id, const RunLoopOptions& options = {});
  Status StopRunLoop(ModelId id, StopMode mode = StopMode::kFinishRunning);
  // Queues |request| on the model's Run loop, starting one with default options if none runs; the model stays
  // pinned until the callback has returned. Errors as RunLoop::Submit (no callback), NotFound, and
  // FailedPrecondition when the loop was stopped.
  StatusOr<uint64_t> Submit(ModelId id, RunRequest request, rt::Duration push_timeout = rt::kWaitForever);
  // NnExecute on |stream| (GE's ExecuteModelWithStreamAsync): the model stays pinned until the stream passes
  // the run (an event recorded after it; a stream destroyed before that keeps the model pinned until the
  // manager is destroyed).
  Status ExecuteWithStream(ModelId id, const std::vector<DataBuffer>& inputs, const std::vector<DataBuffer>& outputs,
                           rt::Stream& stream);

  StatusOr<ModelInfo> Info(ModelId id) const;
  std::vector<ModelId> ids() const;  // loaded models, ascending
  ResourceUsage usage() const;
  rt::Device& device() const { return *device_; }

 private:
  friend class ModelLease;
  using Entry = internal::ModelEntry;
  Entry* FindLocked(ModelId id) const;
  Status UsableLocked(ModelId id, Entry** out) const;
  void Release(Entry* e);
  static ModelInfo InfoLocked(const Entry& e);

  rt::Device* const device_;
  const ModelLoader loader_;
  mutable std::mutex mu_;
  std::condition_variable released_cv_;               // a use ended
  std::map<ModelId, std::unique_ptr<Entry>> models_;  // guarded by mu_
  ModelId next_id_ = 1;                               // guarded by mu_
};

}  // namespace ge::runtime
