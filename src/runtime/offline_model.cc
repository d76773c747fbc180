// OfflineModel (include/ge/model.h) over a private RuntimeContext: GraphLoader to load, GraphExecutor to run
// (sync on the caller's thread; async through the model's Run loop).
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <optional>
#include <utility>

#include "ge/model.h"
#include "base/trace_json.h"
#include "base/trace_recorder.h"
#include "runtime/graph_executor.h"
#include "runtime/graph_loader.h"
#include "runtime/offline_model_internal.h"

namespace ge {

using runtime::DataBuffer;

struct OfflineModel::Impl {
  // OfflineModelOptions::trace; declared before ctx so that it outlives the model recording into it.
  std::unique_ptr<trace::TraceRecorder> trace;
  std::unique_ptr<runtime::RuntimeContext> ctx;
  runtime::ModelId id = 0;
  std::string name;
  std::vector<ModelTensorDesc> inputs;
  std::vector<ModelTensorDesc> outputs;
  size_t feature_map_bytes = 0;
  std::string runtime, target;
  std::map<std::string, int> impls;
  size_t pipeline_stages = 0;
  size_t queue_capacity = 64;
  std::atomic<bool> unloaded{false};
  std::mutex unload_mu;  // serializes Unload

  runtime::ModelManager& models() { return ctx->models(); }
  Status Unloaded() const { return FailedPrecondition("model '" + name + "' is unloaded"); }
  // Errors of runs that raced with Unload read as "unloaded".
  Status MapError(Status st) const {
    if (!st.ok() && unloaded.load() &&
        (st.code() == StatusCode::kNotFound || st.code() == StatusCode::kFailedPrecondition)) {
      return Unloaded();
    }
    return st;
  }
};

namespace {

std::vector<ModelTensorDesc> ToPublic(const std::vector<runtime::IoDesc>& descs) {
  std::vector<ModelTensorDesc> out;
  out.reserve(descs.size());
  for (const auto& d : descs) {
    ModelTensorDesc t;
    t.name = d.name;
    t.dtype = d.desc.dtype;
    t.dims = d.desc.shape.dims();
    t.dim_names.resize(t.dims.size());
    for (size_t i = 0; i < t.dims.size(); ++i) {
      if (t.dims[i] < 0) t.dim_names[i] = d.desc.shape.symbol(static_cast<int>(i));
    }
    t.bytes = d.size_bytes;
    out.push_back(std::move(t));
  }
  return out;
}

std::vector<DataBuffer> ToBuffers(const std::vector<InputBuffer>& in) {
  std::vector<DataBuffer> out(in.size());
  // The model only reads inputs (ExecutableModel contract): dropping const here is safe.
  for (size_t i = 0; i < in.size(); ++i) out[i] = DataBuffer{const_cast<void*>(in[i].data), in[i].size};
  return out;
}

std::vector<DataBuffer> ToBuffers(const std::vector<OutputBuffer>& out) {
  std::vector<DataBuffer> r(out.size());
  for (size_t i = 0; i < out.size(); ++i) r[i] = DataBuffer{out[i].data, out[i].size};
  return r;
}

}  // namespace

OfflineModel::OfflineModel(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

OfflineModel::~OfflineModel() { Unload().IgnoreError(); }

const std::string& OfflineModel::name() const { return impl_->name; }
const std::vector<ModelTensorDesc>& OfflineModel::inputs() const { return impl_->inputs; }
const std::vector<ModelTensorDesc>& OfflineModel::outputs() const { return impl_->outputs; }
size_t OfflineModel::feature_map_bytes() const { return impl_->feature_map_bytes; }
bool OfflineModel::loaded() const { return !impl_->unloaded.load(); }
const std::string& OfflineModel::runtime() const { return impl_->runtime; }
const std::string& OfflineModel::target() const { return impl_->target; }
const std::map<std::string, int>& OfflineModel::kernel_impls() const { return impl_->impls; }

std::vector<KernelProfile> OfflineModel::Profile() const {
  std::vector<KernelProfile> out;
  if (impl_->unloaded.load()) return out;
  auto lease = impl_->models().Acquire(impl_->id);
  if (!lease.ok()) return out;
  for (const runtime::NodeProfile& p : lease->model().profile()) {
    out.push_back(KernelProfile{p.node, p.op_type, p.impl, p.seconds, p.runs});
  }
  return out;
}

bool OfflineModel::memory_stats(ModelMemoryStats* stats) const {
  if (stats == nullptr || impl_->unloaded.load()) return false;
  auto lease = impl_->models().Acquire(impl_->id);
  return lease.ok() && lease->model().memory_stats(stats);
}

Status OfflineModel::WriteTrace(const std::string& path) const {
  if (impl_->trace == nullptr) {
    return FailedPrecondition("model '" + impl_->name + "' was loaded without OfflineModelOptions::trace");
  }
  if (impl_->unloaded.load()) return impl_->Unloaded();
  return trace::WriteTraceFile(*impl_->trace, path);
}

Status OfflineModel::Execute(const std::vector<InputBuffer>& inputs, const std::vector<OutputBuffer>& outputs) {
  if (impl_->unloaded.load()) return impl_->Unloaded();
  return impl_->MapError(
      runtime::GraphExecutor::ExecuteGraph(impl_->models(), impl_->id, ToBuffers(inputs), ToBuffers(outputs)));
}

bool OfflineModel::dynamic() const {
  for (const auto* list : {&impl_->inputs, &impl_->outputs}) {
    for (const ModelTensorDesc& d : *list) {
      for (int64_t dim : d.dims) {
        if (dim < 0) return true;
      }
    }
  }
  return false;
}

Status OfflineModel::Execute(const std::vector<Tensor>& inputs, std::vector<Tensor>* outputs) {
  if (impl_->unloaded.load()) return impl_->Unloaded();
  if (outputs == nullptr) return InvalidArgument("model '" + impl_->name + "': Execute needs an output vector");
  auto lease = impl_->models().Acquire(impl_->id);
  if (!lease.ok()) return impl_->MapError(lease.status());
  return impl_->MapError(lease->model().ExecuteTensors(inputs, outputs));
}

Status OfflineModel::ExecuteBatch(const std::vector<std::vector<Tensor>>& requests,
                                  std::vector<std::vector<Tensor>>* outputs) {
  if (impl_->unloaded.load()) return impl_->Unloaded();
  if (outputs == nullptr) return InvalidArgument("model '" + impl_->name + "': ExecuteBatch needs an output vector");
  auto lease = impl_->models().Acquire(impl_->id);
  if (!lease.ok()) return impl_->MapError(lease.status());
  return impl_->MapError(lease->model().ExecuteBatchTensors(requests, outputs));
}

size_t OfflineModel::pipeline_stages() const { return impl_->pipeline_stages; }

Status OfflineModel::ExecuteAsync(const std::vector<InputBuffer>& inputs, const std::vector<OutputBuffer>& outputs,
                                  Callback done, const AsyncRunOptions& options) {
  if (impl_->unloaded.load()) return impl_->Unloaded();
  runtime::RunLoopOptions loop_options;
  loop_options.queue_capacity = impl_->queue_capacity;
  Status st = impl_->models().StartRunLoop(impl_->id, loop_options);  // no-op once running
  if (!st.ok()) return impl_->MapError(st);
  runtime::RunRequest request;
  request.inputs = ToBuffers(inputs);
  request.outputs = ToBuffers(outputs);
  request.timeout = options.timeout;
  request.done = [done = std::move(done)](uint64_t, const Status& status, const std::vector<DataBuffer>&) {
    if (done) done(status);
  };
  return impl_->MapError(
      runtime::GraphExecutor::ExecuteGraphAsync(impl_->models(), impl_->id, std::move(request), options.queue_wait)
          .status());
}

Status OfflineModel::Unload() {
  std::lock_guard<std::mutex> lk(impl_->unload_mu);
  if (impl_->unloaded.exchange(true)) return Status::Ok();
  impl_->models().StopRunLoop(impl_->id).IgnoreError();  // queued requests: callbacks get Aborted
  return runtime::GraphLoader::UnloadModel(impl_->models(), impl_->id, rt::kWaitForever);
}

namespace runtime {

StatusOr<std::unique_ptr<OfflineModel>> OfflineModelAccess::Load(ModelSource source, const OfflineModelOptions& options,
                                                                 ModelLoader loader) {
  if (options.intra_op_threads < 0) return InvalidArgument("OfflineModelOptions.intra_op_threads must be >= 0");
  if (options.max_concurrent_executions < 1) {
    return InvalidArgument("OfflineModelOptions.max_concurrent_executions must be >= 1");
  }
  if ((options.feature_map == nullptr) != (options.feature_map_size == 0)) {
    return InvalidArgument("OfflineModelOptions: feature_map and feature_map_size must be given together");
  }
  RuntimeContextOptions ctx_options;
  ctx_options.device.intra_op_threads = options.intra_op_threads;
  switch (options.thread_contention) {
    case ThreadContention::kAdaptive:
      ctx_options.device.contention_policy = rt::ContentionPolicy::kAdaptive;
      break;
    case ThreadContention::kFullThreads:
      ctx_options.device.contention_policy = rt::ContentionPolicy::kFullThreads;
      break;
    case ThreadContention::kOneThread:
      ctx_options.device.contention_policy = rt::ContentionPolicy::kOneThread;
      break;
    default:
      return InvalidArgument("OfflineModelOptions.thread_contention is not a ThreadContention value");
  }
  ctx_options.loader = std::move(loader);
  auto impl = std::make_unique<OfflineModel::Impl>();
  if (options.trace) {
    impl->trace =
        std::make_unique<trace::TraceRecorder>(trace::TraceRecorder::kDefaultCapacity, "ge: " + source.Describe());
    impl->trace->NameTrack(trace::kHostTrack, "load");
  }
  std::optional<trace::TraceScope> load(std::in_place, impl->trace.get(), "OfflineModel load");
  std::optional<trace::TraceScope> phase(std::in_place, impl->trace.get(), "runtime context: device, thread pool");
  GE_ASSIGN_OR_RETURN(impl->ctx, RuntimeContext::Create(std::move(ctx_options)));
  phase.reset();
  ModelLoadOptions load_options;
  load_options.feature_map = options.feature_map;
  load_options.feature_map_size = options.feature_map_size;
  load_options.profile = options.profile;
  load_options.trace = impl->trace.get();
  load_options.max_concurrent_executions = options.max_concurrent_executions;
  load_options.value_bins = options.value_bins;
  load_options.interpreter = options.interpreter;
  load_options.seed = options.seed;
  load_options.runtime_options = options.runtime_options;
  load_options.pipeline_stages = options.pipeline_stages;
  GE_ASSIGN_OR_RETURN(impl->id, impl->models().Load(source, load_options));
  {
    GE_ASSIGN_OR_RETURN(ModelLease lease, impl->models().Acquire(impl->id));
    impl->runtime = lease.model().runtime_name();
    impl->target = lease.model().target();
    impl->impls = lease.model().impls();
    impl->pipeline_stages = lease.model().pipeline_stages();
  }
  GE_ASSIGN_OR_RETURN(ModelIo io, GraphLoader::GetModelIo(impl->models(), impl->id));
  GE_ASSIGN_OR_RETURN(ModelInfo info, impl->models().Info(impl->id));
  impl->name = io.name;
  impl->inputs = ToPublic(io.inputs);
  impl->outputs = ToPublic(io.outputs);
  impl->feature_map_bytes = info.feature_map_bytes;
  impl->queue_capacity = options.async_queue_capacity;
  load.reset();
  return std::unique_ptr<OfflineModel>(new OfflineModel(std::move(impl)));
}

StatusOr<ModelSource> OfflineModelAccess::MemorySource(const void* data, size_t size,
                                                       const OfflineModelOptions& options) {
  if (data == nullptr || size == 0) return InvalidArgument("LoadFromMemory: the model image is empty");
  if (options.borrow_model_data) return ModelSource::Memory(data, size);
  constexpr size_t kAlign = 4096;
  const size_t rounded = (size + kAlign - 1) / kAlign * kAlign;
  void* copy = std::aligned_alloc(kAlign, rounded);
  if (copy == nullptr)
    return ResourceExhausted("LoadFromMemory: cannot copy a " + std::to_string(size) + "-byte image");
  std::memcpy(copy, data, size);
  std::shared_ptr<const void> owner(copy, [](const void* p) { std::free(const_cast<void*>(p)); });
  return ModelSource::Memory(copy, size, std::move(owner));
}

ModelId OfflineModelAccess::model_id(const OfflineModel& model) { return model.impl_->id; }
RuntimeContext& OfflineModelAccess::context(OfflineModel& model) { return *model.impl_->ctx; }

}  // namespace runtime
}  // namespace ge
