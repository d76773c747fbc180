// ge::Session (GE's Session → InnerSession → GraphManager, in one place): the graph table, GE's call-order
// contract, compile (with the session's VarManager, so every graph of the session shares its variables); the
// compiled models go to the session's runtime::ModelExecutor (seed 002 §3.5), which loads them through the
// runtime's one loader (the sink runtime or runtime v2, over the session's variable memory), evicts idle ones
// under ge.exec.sessionMemoryLimit and reloads them on their next run.
#include "ge/session.h"

#include <condition_variable>
#include <cstring>
#include <deque>
#include <mutex>
#include <thread>

#include "compiler/model_compiler.h"
#include "runtime/model_executor.h"
#include "runtime/v1/sink_model.h"
#include "runtime/v2/lowering/execute_plan.h"
#include "runtime/v2/lowering/static_island.h"
#include "om/ir_proto.h"
#include "om/model_def.pb.h"
#include "ops/op_id.h"
#include "session/ge_runtime.h"
#include "session/graph_access.h"
#include "base/trace_json.h"
#include "base/trace_recorder.h"
#include "session/graph_entry.h"
#include "session/graph_model_cache.h"
#include "om/value_bins.h"
#include "session/session_options.h"
#include "session/variable_io.h"

namespace ge {

using session::CompiledGraph;
using session::GraphEntry;

struct Session::Impl {
  Status status = Status::Ok();
  uint64_t id = 0;
  std::shared_ptr<runtime::RuntimeContext> context;
  std::shared_ptr<var::VarManager> variables;
  Options options;
  // ge.exec.profilingMode=1: every graph the session loads records into it (Session::WriteTrace).
  std::unique_ptr<trace::TraceRecorder> trace;

  std::mutex mu;                          // the graph table and each entry's state; never held while a graph executes
  std::map<uint32_t, GraphEntry> graphs;  // guarded by mu
  // The graphs' loaded models, by graph id, in the process's ModelManager; destroyed before the variables.
  std::unique_ptr<runtime::ModelExecutor> executor;

  // RegisterCallBackFunc: called once per successful run.
  std::mutex callbacks_mu;
  std::map<std::string, RunCallBackFunc> callbacks;  // guarded by callbacks_mu

  // Runs enqueued on public streams and not finished; the destructor waits for them (they use the executor).
  std::mutex stream_mu;
  std::condition_variable stream_cv;
  int stream_runs = 0;  // guarded by stream_mu

  // RunGraphAsync: one worker thread, FIFO.
  std::mutex async_mu;
  std::condition_variable async_cv;
  std::deque<std::function<void()>> async_queue;  // guarded by async_mu
  bool async_stop = false;                        // guarded by async_mu
  std::thread async_worker;

  ~Impl();
  StatusOr<GraphEntry*> Find(uint32_t graph_id);
  Status Add(uint32_t graph_id, const Graph& graph, const Options& graph_options);
  StatusOr<std::shared_ptr<const CompiledGraph>> Compile(const GraphEntry& entry);
  StatusOr<std::shared_ptr<const CompiledGraph>> CompileUncached(const GraphEntry& entry);
  // Hands the entry's compiled model to the executor (replacing an earlier one); `load`: load it now, so that a
  // load error is the caller's. Unregister unloads it (waiting for runs in flight) and forgets it.
  Status Register(GraphEntry* entry, bool load);
  void Unregister(GraphEntry* entry);
  bool NeedRebuild(const GraphEntry& entry) const;
  // Whether a variable the compiled graph uses now has another desc in the session (VarMatchInfo).
  bool VariablesChanged(const GraphEntry& entry) const;
  // Built (compiled and registered) for BuildGraph / RunGraph, rebuilt when a variable it uses changed desc;
  // true when the graph is dynamic.
  StatusOr<bool> Built(uint32_t graph_id);
  // A static model: inputs of exactly the declared dims, outputs allocated; `feature_map` (a sink model) runs on
  // caller memory. A dynamic model: inputs of any size the graph accepts, outputs at their run-time shapes.
  // `in_place`: write into *outputs as given (tensors of the output shapes, storage shared with a caller).
  Status Execute(runtime::ExecutableModel& model, bool dynamic, const std::vector<Tensor>& inputs,
                 std::vector<Tensor>* outputs, void* feature_map, size_t feature_map_size, bool in_place = false);
  // The registered callbacks, each once, with the run's outputs by name.
  void NotifyCallbacks(uint32_t graph_id, const runtime::ExecutableModel& model, const std::vector<Tensor>& outputs);
  // A static graph's run on a public stream's thread (RunGraphWithStreamAsync).
  Status RunOnStream(uint32_t graph_id, const std::vector<Tensor>& inputs, std::vector<Tensor>* outputs,
                     void* feature_map, size_t feature_map_size);
  // RunGraph's body; RunGraphAsync's jobs call it on the worker (the Impl outlives them: its destructor drains).
  Status Run(uint32_t graph_id, const std::vector<Tensor>& inputs, std::vector<Tensor>* outputs);
  void AsyncLoop();
};

namespace {

std::string GraphName(uint32_t id) { return "graph " + std::to_string(id); }

bool SameDesc(const TensorDesc& a, const TensorDesc& b) {
  return a.dtype == b.dtype && a.format == b.format && a.shape.dims() == b.shape.dims();
}

// The compiled model's IO as MODEL_DEF describes it (a graph compiled but not loaded has no SinkModel to ask).
StatusOr<std::vector<TensorInfo>> InfoOf(const google::protobuf::RepeatedPtrField<proto::IoProto>& io) {
  std::vector<TensorInfo> out;
  for (const proto::IoProto& p : io) {
    GE_ASSIGN_OR_RETURN(TensorDesc d, om::DescFromProto(p.desc(), "MODEL_DEF io '" + p.name() + "'"));
    out.push_back(TensorInfo{p.name(), d.dtype, d.shape.dims()});
  }
  return out;
}

}  // namespace

Session::Impl::~Impl() {
  {
    std::lock_guard<std::mutex> lk(async_mu);
    async_stop = true;
  }
  async_cv.notify_all();
  if (async_worker.joinable()) async_worker.join();
  {
    std::unique_lock<std::mutex> lk(stream_mu);
    stream_cv.wait(lk, [&] { return stream_runs == 0; });
  }
  executor.reset();  // models before the variables they address
  graphs.clear();
  if (context != nullptr) {
    variables.reset();
    context->variables().Destroy(id);
  }
}

StatusOr<GraphEntry*> Session::Impl::Find(uint32_t graph_id) {
  auto it = graphs.find(graph_id);
  if (it == graphs.end()) return NotFound(GraphName(graph_id) + " does not exist in session " + std::to_string(id));
  return &it->second;
}

Status Session::Impl::Add(uint32_t graph_id, const Graph& graph, const Options& graph_options) {
  GE_RETURN_IF_ERROR(status);
  GE_RETURN_IF_ERROR(graph.status());
  GE_RETURN_IF_ERROR(session::CheckOptions(graph_options, GraphName(graph_id)));
  GE_ASSIGN_OR_RETURN(std::unique_ptr<ir::Model> copy,
                      session::GraphAccess::CloneModel(session::GraphAccess::Model(graph)));
  GE_RETURN_IF_ERROR(copy->graph->Validate());
  std::lock_guard<std::mutex> lk(mu);
  if (graphs.count(graph_id) != 0) return InvalidArgument(GraphName(graph_id) + " was already added");
  GraphEntry& e = graphs[graph_id];
  e.id = graph_id;
  e.model = std::move(copy);
  e.options = session::MergeOptions(options, graph_options);
  return Status::Ok();
}

namespace {

std::vector<TensorInfo> InfoOf(const std::vector<ir::Value*>& values) {
  std::vector<TensorInfo> out;
  for (const ir::Value* v : values) {
    const TensorDesc& d = v->desc();
    out.push_back(TensorInfo{v->name(), d.dtype, d.shape.unknown_rank() ? Dims{} : d.shape.dims()});
  }
  return out;
}

// A graph with dynamic shapes: runs on runtime v2, which reads and writes the session's variables in place.
StatusOr<std::shared_ptr<const CompiledGraph>> CompiledDynamic(const GraphEntry& entry, const ir::Model& work,
                                                               std::vector<uint8_t> bytes,
                                                               const compiler::CompileReport& report,
                                                               const var::VarManager& variables) {
  auto image = std::make_shared<std::vector<uint8_t>>(std::move(bytes));
  auto reader = om::OmReader::FromMemory(image->data(), image->size(), image);
  if (!reader.ok()) return reader.status().WithContext(GraphName(entry.id));
  auto compiled = std::make_shared<CompiledGraph>();
  compiled->om = std::move(*reader);
  compiled->dynamic = true;
  for (const std::string& name : report.variables) {
    GE_ASSIGN_OR_RETURN(compiled->variables[name], variables.GetCurVarDesc(name));
    compiled->summary.variables.push_back(name);
  }
  CompiledGraphSummary& s = compiled->summary;
  s.is_static = false;
  s.inputs = InfoOf(work.graph->inputs());  // unknown dims are -1
  s.outputs = InfoOf(work.graph->outputs());
  return std::shared_ptr<const CompiledGraph>(std::move(compiled));
}

}  // namespace

// ge.graph_compiler_cache_dir (session/graph_model_cache.h): a cached model stands in for the compile.
StatusOr<std::shared_ptr<const CompiledGraph>> Session::Impl::Compile(const GraphEntry& entry) {
  session::GraphModelCache cache(entry, "graph_" + std::to_string(entry.id), context->device().intra_op_threads(),
                                 *variables);
  if (auto hit = cache.Find(entry, variables.get(), &context->device())) return hit;
  GE_ASSIGN_OR_RETURN(std::shared_ptr<const CompiledGraph> compiled, CompileUncached(entry));
  cache.Store(*compiled);
  return compiled;
}

StatusOr<std::shared_ptr<const CompiledGraph>> Session::Impl::CompileUncached(const GraphEntry& entry) {
  GE_ASSIGN_OR_RETURN(std::unique_ptr<ir::Model> work, session::GraphAccess::CloneModel(*entry.model));
  compiler::CompileOptions co;
  co.lower_for_runtime_v2 = runtime::v2::PlanExecuteGraphsForOm;
  co.form_static_islands = runtime::v2::FormStaticIslandsForOm;
  co.ge_options = entry.options;
  co.model_name = "graph_" + std::to_string(entry.id);
  co.variables = variables.get();
  co.threads = context->device().intra_op_threads();
  compiler::CompileReport report;
  auto bytes = compiler::CompileToOm(*work, co, &report);
  if (!bytes.ok()) return bytes.status().WithContext(GraphName(entry.id));
  if (!report.static_model) return CompiledDynamic(entry, *work, std::move(*bytes), report, *variables);
  for (const std::string& name : report.changed_variables) {
    Status s = session::ConvertVariableMemory(variables.get(), &context->device(), name);
    if (!s.ok()) return s.WithContext(GraphName(entry.id));
  }
  auto image = std::make_shared<std::vector<uint8_t>>(std::move(*bytes));
  auto reader = om::OmReader::FromMemory(image->data(), image->size(), image);
  if (!reader.ok()) return reader.status().WithContext(GraphName(entry.id));
  auto compiled = std::make_shared<CompiledGraph>();
  compiled->om = std::move(*reader);
  for (const ir::Node* n : work->graph->nodes()) {
    if (!ops::IsOp(*n, ops::OpId::kGeVariable)) continue;
    GE_ASSIGN_OR_RETURN(compiled->variables[n->name()], variables->GetCurVarDesc(n->name()));
    compiled->summary.variables.push_back(n->name());
  }
  CompiledGraphSummary& s = compiled->summary;
  {
    proto::ModelDefProto def;
    const om::ByteSpan bytes = compiled->om->partition(om::PartitionType::kModelDef);
    if (bytes.size > INT32_MAX || !def.ParseFromArray(bytes.data, static_cast<int>(bytes.size))) {
      return Internal(GraphName(entry.id) + ": the compiled MODEL_DEF does not parse");
    }
    GE_ASSIGN_OR_RETURN(s.inputs, InfoOf(def.inputs()));
    GE_ASSIGN_OR_RETURN(s.outputs, InfoOf(def.outputs()));
  }
  s.is_static = true;
  s.feature_memory_size = report.feature_map_bytes;
  s.const_memory_size = report.weights_bytes;
  s.stream_num = static_cast<size_t>(report.num_streams);
  s.event_num = static_cast<size_t>(report.num_events);
  return std::shared_ptr<const CompiledGraph>(std::move(compiled));
}

Status Session::Impl::Register(GraphEntry* entry, bool load) {
  Unregister(entry);
  runtime::GraphModelOptions o;
  o.load.variables = variables;
  o.load.trace = trace.get();
  o.load.runtime_options = entry->options;  // runtime v2 reads its keys
  if (auto bins = entry->options.find("ge.exec.value_bins"); bins != entry->options.end()) {
    auto parsed = om::ParseValueBins(bins->second);
    if (!parsed.ok()) return parsed.status().WithContext(GraphName(entry->id));
    o.load.value_bins = *parsed;
  }
  o.load.const_memory = entry->const_memory;
  o.load.const_memory_size = entry->const_memory_size;
  o.load.feature_map = entry->fixed_feature_map;
  o.load.feature_map_size = entry->fixed_feature_map_size;
  o.expected_bytes = entry->compiled->summary.feature_memory_size;
  GE_RETURN_IF_ERROR(
      executor->AddGraph(entry->id, runtime::ModelSource::Opened(entry->compiled->om, GraphName(entry->id)), o));
  entry->registered = true;
  if (!load) return Status::Ok();
  Status s = executor->LoadGraph(entry->id);
  if (!s.ok()) Unregister(entry);
  return s;
}

void Session::Impl::Unregister(GraphEntry* entry) {
  if (!entry->registered) return;
  executor->RemoveGraph(entry->id, rt::kWaitForever).IgnoreError();
  entry->registered = false;
  entry->load_requested = false;
}

bool Session::Impl::NeedRebuild(const GraphEntry& entry) const {
  if (entry.compiled == nullptr || !entry.registered) return true;
  return VariablesChanged(entry);
}

bool Session::Impl::VariablesChanged(const GraphEntry& entry) const {
  for (const auto& [name, desc] : entry.compiled->variables) {
    auto now = variables->GetCurVarDesc(name);
    if (!now.ok() || !SameDesc(*now, desc)) return true;
  }
  return false;
}

StatusOr<bool> Session::Impl::Built(uint32_t graph_id) {
  std::lock_guard<std::mutex> lk(mu);
  GE_ASSIGN_OR_RETURN(GraphEntry * e, Find(graph_id));
  if (e->mode == GraphEntry::Mode::kCompiled && e->compiled != nullptr && e->compiled->dynamic) {
    if (VariablesChanged(*e)) {  // another graph changed a shared variable's desc since CompileGraph
      Unregister(e);
      GE_ASSIGN_OR_RETURN(e->compiled, Compile(*e));
    }
    if (!e->registered) GE_RETURN_IF_ERROR(Register(e, true));  // no LoadGraph for dynamic graphs
    return true;
  }
  if (e->mode == GraphEntry::Mode::kCompiled) {
    return Unimplemented(GraphName(graph_id) +
                         " was compiled with CompileGraph: run it with LoadGraph and "
                         "RunGraphWithStreamAsync (RunGraph, BuildGraph and RunGraphAsync are unsupported then)");
  }
  if (NeedRebuild(*e)) {
    Unregister(e);
    GE_ASSIGN_OR_RETURN(e->compiled, Compile(*e));
    GE_RETURN_IF_ERROR(Register(e, true));
    e->mode = GraphEntry::Mode::kBuilt;
  }
  return e->compiled->dynamic;
}

Status Session::Impl::Execute(runtime::ExecutableModel& model, bool dynamic, const std::vector<Tensor>& inputs,
                              std::vector<Tensor>* outputs, void* feature_map, size_t feature_map_size, bool in_place) {
  if (dynamic) return model.ExecuteTensors(inputs, outputs);
  const auto& in_descs = model.inputs();
  if (inputs.size() != in_descs.size()) {
    return InvalidArgument("the graph has " + std::to_string(in_descs.size()) + " inputs, got " +
                           std::to_string(inputs.size()));
  }
  std::vector<runtime::DataBuffer> in, out;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const Tensor& t = inputs[i];
    const runtime::IoDesc& d = in_descs[i];
    if (!t.valid() || t.dtype() != d.desc.dtype || t.dims() != d.desc.shape.dims()) {
      return InvalidArgument(
          "input " + std::to_string(i) + " ('" + d.name + "') must be " + d.desc.ToString() + ", got " +
          (t.valid() ? std::string(DataTypeName(t.dtype())) + DimsToString(t.dims()) : std::string("no tensor")));
    }
    in.push_back(runtime::DataBuffer{const_cast<void*>(t.raw_data()), t.nbytes()});
  }
  if (in_place) {
    if (outputs->size() != model.outputs().size()) return Internal("output tensors do not match the graph");
    for (Tensor& t : *outputs) out.push_back(runtime::DataBuffer{t.raw_data(), t.nbytes()});
  } else {
    outputs->clear();
    for (const runtime::IoDesc& d : model.outputs()) {
      GE_ASSIGN_OR_RETURN(Tensor t, Tensor::Create(d.desc.dtype, d.desc.shape.dims()));
      out.push_back(runtime::DataBuffer{t.raw_data(), t.nbytes()});
      outputs->push_back(std::move(t));
    }
  }
  if (feature_map == nullptr) return model.Execute(in, out);
  auto* sink = dynamic_cast<runtime::SinkModel*>(&model);
  if (sink == nullptr) return Internal("a caller's feature map needs a model on the sink runtime");
  return sink->ExecuteWithFeatureMap(in, out, feature_map, feature_map_size);
}

Status Session::Impl::Run(uint32_t graph_id, const std::vector<Tensor>& inputs, std::vector<Tensor>* outputs) {
  GE_ASSIGN_OR_RETURN(bool dynamic, Built(graph_id));
  // Pinned for the run: the executor may have evicted the model since it was built, and reloads it then.
  StatusOr<runtime::ModelLease> lease = executor->Pin(graph_id);
  if (!lease.ok()) return lease.status().WithContext(GraphName(graph_id));
  Status s = Execute(lease->model(), dynamic, inputs, outputs, nullptr, 0);
  if (!s.ok()) return s.WithContext(GraphName(graph_id));
  NotifyCallbacks(graph_id, lease->model(), *outputs);
  return s;
}

void Session::Impl::NotifyCallbacks(uint32_t graph_id, const runtime::ExecutableModel& model,
                                    const std::vector<Tensor>& outputs) {
  std::vector<RunCallBackFunc> calls;
  {
    std::lock_guard<std::mutex> lk(callbacks_mu);
    for (const auto& [key, fn] : callbacks) calls.push_back(fn);
  }
  if (calls.empty()) return;
  std::map<std::string, Tensor> by_name;
  for (size_t i = 0; i < outputs.size() && i < model.outputs().size(); ++i)
    by_name[model.outputs()[i].name] = outputs[i];
  for (const RunCallBackFunc& fn : calls) fn(graph_id, by_name);
}

Status Session::Impl::RunOnStream(uint32_t graph_id, const std::vector<Tensor>& inputs, std::vector<Tensor>* outputs,
                                  void* feature_map, size_t feature_map_size) {
  StatusOr<runtime::ModelLease> lease = executor->Pin(graph_id);
  if (!lease.ok()) return lease.status().WithContext(GraphName(graph_id));
  Status s = Execute(lease->model(), false, inputs, outputs, feature_map, feature_map_size, /*in_place=*/true);
  if (!s.ok()) return s.WithContext(GraphName(graph_id));
  NotifyCallbacks(graph_id, lease->model(), *outputs);
  return s;
}

void Session::Impl::AsyncLoop() {
  // Jobs queued before the session closes still run (their callbacks are owed an answer).
  for (;;) {
    std::function<void()> job;
    {
      std::unique_lock<std::mutex> lk(async_mu);
      async_cv.wait(lk, [&] { return async_stop || !async_queue.empty(); });
      if (async_queue.empty()) return;  // stopping, nothing left
      job = std::move(async_queue.front());
      async_queue.pop_front();
    }
    job();
  }
}

Session::Session(const Options& options) : impl_(std::make_unique<Impl>()) {
  impl_->status = session::CheckOptions(options, "session");
  if (!impl_->status.ok()) return;
  impl_->options = options;
  if (auto it = options.find("ge.exec.profilingMode"); it != options.end() && it->second == "1") {
    impl_->trace = std::make_unique<trace::TraceRecorder>(trace::TraceRecorder::kDefaultCapacity, "ge session");
  }
  session::GeRuntime& rt = session::ProcessRuntime();
  {
    std::lock_guard<std::mutex> lk(rt.mu);
    if (rt.context == nullptr) {
      impl_->status = FailedPrecondition("ge::Session: call ge::GEInitialize first");
      return;
    }
    impl_->context = rt.context;
    impl_->id = rt.next_session_id++;
    ++rt.open_sessions;
  }
  var::VarManagerOptions vo;
  if (auto it = options.find("ge.sessionMemoryBudget"); it != options.end()) {
    const std::string& v = it->second;
    if (v.empty() || v.size() > 15 || v.find_first_not_of("0123456789") != std::string::npos) {
      impl_->status = InvalidArgument("session option ge.sessionMemoryBudget must be a byte count, got '" + v + "'");
      return;
    }
    vo.memory_budget = std::stoull(v);
  }
  impl_->variables = impl_->context->variables().Instance(impl_->id);
  impl_->status = impl_->variables->Init(vo);
  if (!impl_->status.ok()) return;
  runtime::ModelExecutorOptions eo;
  if (auto it = options.find("ge.exec.sessionMemoryLimit"); it != options.end()) {
    eo.memory_budget_bytes = std::stoull(it->second);  // the option table checked it is a byte count
  }
  impl_->executor = std::make_unique<runtime::ModelExecutor>(&impl_->context->models(), eo);
  impl_->async_worker = std::thread([impl = impl_.get()] { impl->AsyncLoop(); });
}

Session::~Session() {
  const bool counted = impl_->context != nullptr;
  impl_.reset();
  if (counted) {
    session::GeRuntime& rt = session::ProcessRuntime();
    std::lock_guard<std::mutex> lk(rt.mu);
    --rt.open_sessions;
  }
}

Status Session::status() const { return impl_->status; }
uint64_t Session::GetSessionId() const { return impl_->id; }

Status Session::AddGraph(uint32_t graph_id, const Graph& graph, const Options& options) {
  return impl_->Add(graph_id, graph, options);
}

Status Session::AddGraphWithCopy(uint32_t graph_id, const Graph& graph, const Options& options) {
  return impl_->Add(graph_id, graph, options);  // Add always keeps its own copy
}

Status Session::RemoveGraph(uint32_t graph_id) {
  GE_RETURN_IF_ERROR(impl_->status);
  std::lock_guard<std::mutex> lk(impl_->mu);
  GE_ASSIGN_OR_RETURN(GraphEntry * e, impl_->Find(graph_id));
  impl_->Unregister(e);
  impl_->graphs.erase(graph_id);
  return Status::Ok();
}

Status Session::BuildGraph(uint32_t graph_id, const std::vector<Tensor>&) {
  GE_RETURN_IF_ERROR(impl_->status);
  return impl_->Built(graph_id).status();
}

Status Session::RunGraph(uint32_t graph_id, const std::vector<Tensor>& inputs, std::vector<Tensor>& outputs) {
  GE_RETURN_IF_ERROR(impl_->status);
  return impl_->Run(graph_id, inputs, &outputs);
}

Status Session::RunGraphAsync(uint32_t graph_id, const std::vector<Tensor>& inputs, RunAsyncCallback callback) {
  GE_RETURN_IF_ERROR(impl_->status);
  if (!callback) return InvalidArgument("RunGraphAsync: no callback");
  {
    std::lock_guard<std::mutex> lk(impl_->mu);
    GE_ASSIGN_OR_RETURN(GraphEntry * e, impl_->Find(graph_id));
    if (e->mode == GraphEntry::Mode::kCompiled && !e->compiled->dynamic) {
      return Unimplemented(GraphName(graph_id) + " was compiled with CompileGraph: RunGraphAsync is unsupported");
    }
  }
  std::lock_guard<std::mutex> lk(impl_->async_mu);
  impl_->async_queue.push_back([impl = impl_.get(), graph_id, inputs, callback] {
    std::vector<Tensor> outputs;
    Status s = impl->Run(graph_id, inputs, &outputs);
    callback(s, outputs);
  });
  impl_->async_cv.notify_one();
  return Status::Ok();
}

Status Session::CompileGraph(uint32_t graph_id) {
  GE_RETURN_IF_ERROR(impl_->status);
  std::lock_guard<std::mutex> lk(impl_->mu);
  GE_ASSIGN_OR_RETURN(GraphEntry * e, impl_->Find(graph_id));
  if (e->mode == GraphEntry::Mode::kBuilt) {
    return FailedPrecondition(GraphName(graph_id) + " was already built by BuildGraph or RunGraph");
  }
  if (e->compiled != nullptr && !impl_->NeedRebuild(*e)) return Status::Ok();
  impl_->Unregister(e);
  GE_ASSIGN_OR_RETURN(e->compiled, impl_->Compile(*e));
  e->mode = GraphEntry::Mode::kCompiled;
  return Status::Ok();
}

namespace {

// One RunGraphWithStreamAsync request on a public stream: what the run needs, held until it has run.
struct StreamRun {
  Session::Impl* impl;
  uint32_t graph_id;
  std::vector<Tensor> inputs, outputs;  // share storage with the caller's tensors
  void* feature_map;
  size_t feature_map_size;
};

Status RunStreamTask(void* args, rt::TaskContext& ctx);

Status NotCompiled(uint32_t graph_id, const char* call) {
  return FailedPrecondition(std::string(call) + ": " + GraphName(graph_id) + " is not built: call CompileGraph first");
}
// Feature memory bases, LoadGraph and RunGraphWithStreamAsync address a static model's fixed memory plan.
Status DynamicUnsupported(uint32_t graph_id, const char* call) {
  return Unimplemented(std::string(call) + ": " + GraphName(graph_id) +
                       " has dynamic shapes (runtime v2 takes its "
                       "memory per run, there is no fixed feature memory or load step); run it with RunGraph or "
                       "RunGraphAsync");
}
}  // namespace

Status Session::GetCompiledGraphSummary(uint32_t graph_id, CompiledGraphSummary* summary) {
  GE_RETURN_IF_ERROR(impl_->status);
  if (summary == nullptr) return InvalidArgument("GetCompiledGraphSummary: null summary");
  std::lock_guard<std::mutex> lk(impl_->mu);
  GE_ASSIGN_OR_RETURN(GraphEntry * e, impl_->Find(graph_id));
  if (e->compiled == nullptr) return NotCompiled(graph_id, "GetCompiledGraphSummary");
  *summary = e->compiled->summary;
  return Status::Ok();
}

Status Session::GetGraphLoadState(uint32_t graph_id, GraphLoadState* state) {
  GE_RETURN_IF_ERROR(impl_->status);
  if (state == nullptr) return InvalidArgument("GetGraphLoadState: null state");
  std::lock_guard<std::mutex> lk(impl_->mu);
  GE_ASSIGN_OR_RETURN(GraphEntry * e, impl_->Find(graph_id));
  if (!e->registered) return NotCompiled(graph_id, "GetGraphLoadState");
  GE_ASSIGN_OR_RETURN(runtime::GraphState s, impl_->executor->state(graph_id));
  state->loaded = s.loaded;
  state->loads = s.loads;
  state->evictions = s.evictions;
  state->feature_memory_bytes = s.loaded ? s.feature_map_bytes : 0;
  return Status::Ok();
}

Status Session::SetGraphConstMemoryBase(uint32_t graph_id, const void* memory, size_t size) {
  GE_RETURN_IF_ERROR(impl_->status);
  std::lock_guard<std::mutex> lk(impl_->mu);
  GE_ASSIGN_OR_RETURN(GraphEntry * e, impl_->Find(graph_id));
  if (e->mode != GraphEntry::Mode::kCompiled) return NotCompiled(graph_id, "SetGraphConstMemoryBase");
  if (e->compiled->dynamic) return DynamicUnsupported(graph_id, "SetGraphConstMemoryBase");
  if (e->load_requested) {
    return FailedPrecondition("SetGraphConstMemoryBase: " + GraphName(graph_id) + " is already loaded");
  }
  if (memory == nullptr || size < e->compiled->summary.const_memory_size ||
      reinterpret_cast<uintptr_t>(memory) % 64 != 0) {
    return InvalidArgument("SetGraphConstMemoryBase: " + GraphName(graph_id) + " needs " +
                           std::to_string(e->compiled->summary.const_memory_size) + " bytes, 64-byte aligned; got " +
                           std::to_string(size));
  }
  // The model copies its weights there when LoadGraph loads it (and again whenever it is reloaded after an
  // eviction); the memory must stay valid and unchanged by the caller until the graph is removed.
  e->const_memory = const_cast<void*>(memory);
  e->const_memory_size = size;
  return Status::Ok();
}

Status Session::SetGraphFixedFeatureMemoryBase(uint32_t graph_id, void* memory, size_t size) {
  GE_RETURN_IF_ERROR(impl_->status);
  std::lock_guard<std::mutex> lk(impl_->mu);
  GE_ASSIGN_OR_RETURN(GraphEntry * e, impl_->Find(graph_id));
  if (e->mode != GraphEntry::Mode::kCompiled) return NotCompiled(graph_id, "SetGraphFixedFeatureMemoryBase");
  if (e->compiled->dynamic) return DynamicUnsupported(graph_id, "SetGraphFixedFeatureMemoryBase");
  if (e->load_requested) {
    return FailedPrecondition("SetGraphFixedFeatureMemoryBase: " + GraphName(graph_id) + " is already loaded");
  }
  const size_t need = e->compiled->summary.feature_memory_size;
  if (memory == nullptr || size < need || reinterpret_cast<uintptr_t>(memory) % 64 != 0) {
    return InvalidArgument("SetGraphFixedFeatureMemoryBase: " + GraphName(graph_id) + " needs " + std::to_string(need) +
                           " bytes, 64-byte aligned; got " + std::to_string(size));
  }
  e->fixed_feature_map = memory;
  e->fixed_feature_map_size = size;
  return Status::Ok();
}

Status Session::UpdateGraphFeatureMemoryBase(uint32_t graph_id, void* memory, size_t size) {
  GE_RETURN_IF_ERROR(impl_->status);
  std::lock_guard<std::mutex> lk(impl_->mu);
  GE_ASSIGN_OR_RETURN(GraphEntry * e, impl_->Find(graph_id));
  if (e->mode != GraphEntry::Mode::kCompiled) return NotCompiled(graph_id, "UpdateGraphFeatureMemoryBase");
  if (e->compiled->dynamic) return DynamicUnsupported(graph_id, "UpdateGraphFeatureMemoryBase");
  auto refreshable = e->options.find("ge.featureBaseRefreshable");
  if (refreshable == e->options.end() || refreshable->second != "1") {
    return FailedPrecondition("UpdateGraphFeatureMemoryBase: set ge.featureBaseRefreshable=1 for " +
                              GraphName(graph_id));
  }
  const size_t need = e->compiled->summary.feature_memory_size;
  if (memory == nullptr || size < need || reinterpret_cast<uintptr_t>(memory) % 64 != 0) {
    return InvalidArgument("UpdateGraphFeatureMemoryBase: " + GraphName(graph_id) + " needs " + std::to_string(need) +
                           " bytes, 64-byte aligned; got " + std::to_string(size));
  }
  e->refreshed_feature_map = memory;
  e->refreshed_feature_map_size = size;
  return Status::Ok();
}

namespace {

Status RunStreamTask(void* args, rt::TaskContext& ctx) {
  std::unique_ptr<StreamRun> run(static_cast<StreamRun*>(args));
  Session::Impl* impl = run->impl;
  Status s = Status::Ok();
  const bool skip = (ctx.cancel != nullptr && ctx.cancel->load()) ||
                    (ctx.stream_error != nullptr && !ctx.stream_error->ok());  // an earlier run failed
  if (!skip) s = impl->RunOnStream(run->graph_id, run->inputs, &run->outputs, run->feature_map, run->feature_map_size);
  run.reset();  // the tensors go before the session may
  {
    std::lock_guard<std::mutex> lk(impl->stream_mu);
    --impl->stream_runs;
  }
  impl->stream_cv.notify_all();
  return s;
}

}  // namespace

Status Session::LoadGraph(uint32_t graph_id, const Options& options, void* stream) {
  GE_RETURN_IF_ERROR(impl_->status);
  GE_RETURN_IF_ERROR(session::CheckOptions(options, "LoadGraph"));
  if (stream != nullptr) GE_RETURN_IF_ERROR(session::LookUpStream(stream, "LoadGraph").status());
  std::lock_guard<std::mutex> lk(impl_->mu);
  GE_ASSIGN_OR_RETURN(GraphEntry * e, impl_->Find(graph_id));
  if (e->mode != GraphEntry::Mode::kCompiled) return NotCompiled(graph_id, "LoadGraph");
  if (e->compiled->dynamic) return DynamicUnsupported(graph_id, "LoadGraph");
  if (e->load_requested) return Status::Ok();
  GE_RETURN_IF_ERROR(impl_->Register(e, true));
  e->load_requested = true;
  return Status::Ok();
}

Status Session::RunGraphWithStreamAsync(uint32_t graph_id, void* stream, const std::vector<Tensor>& inputs,
                                        std::vector<Tensor>& outputs) {
  GE_RETURN_IF_ERROR(impl_->status);
  std::shared_ptr<session::PublicStream> on;
  if (stream != nullptr) {
    GE_ASSIGN_OR_RETURN(on, session::LookUpStream(stream, "RunGraphWithStreamAsync"));
  }
  void* feature_map = nullptr;
  std::vector<TensorInfo> in_info, out_info;
  size_t feature_map_size = 0;
  {
    std::lock_guard<std::mutex> lk(impl_->mu);
    GE_ASSIGN_OR_RETURN(GraphEntry * e, impl_->Find(graph_id));
    if (e->mode != GraphEntry::Mode::kCompiled) return NotCompiled(graph_id, "RunGraphWithStreamAsync");
    if (e->compiled->dynamic) return DynamicUnsupported(graph_id, "RunGraphWithStreamAsync");
    if (!e->load_requested) {
      return FailedPrecondition("RunGraphWithStreamAsync: " + GraphName(graph_id) + " is not loaded: call LoadGraph");
    }
    if (impl_->NeedRebuild(*e)) {
      return FailedPrecondition("RunGraphWithStreamAsync: a variable of " + GraphName(graph_id) +
                                " changed its desc since CompileGraph; compile it again");
    }
    feature_map = e->refreshed_feature_map;
    feature_map_size = e->refreshed_feature_map_size;
    in_info = e->compiled->summary.inputs;
    out_info = e->compiled->summary.outputs;
  }
  if (on != nullptr) {
    // Checked now, so that a wrong input is the caller's error, not the stream's; outputs allocated for the run
    // to write.
    if (inputs.size() != in_info.size()) {
      return InvalidArgument("RunGraphWithStreamAsync: " + GraphName(graph_id) + " has " +
                             std::to_string(in_info.size()) + " inputs, got " + std::to_string(inputs.size()));
    }
    for (size_t i = 0; i < inputs.size(); ++i) {
      const Tensor& t = inputs[i];
      if (!t.valid() || t.dtype() != in_info[i].dtype || t.dims() != in_info[i].dims) {
        return InvalidArgument("RunGraphWithStreamAsync: " + GraphName(graph_id) + " input " + std::to_string(i) +
                               " ('" + in_info[i].name + "') must be " + DataTypeName(in_info[i].dtype) +
                               DimsToString(in_info[i].dims) + ", got " +
                               (t.valid() ? DataTypeName(t.dtype()) + DimsToString(t.dims()) : std::string("none")));
      }
    }
    outputs.clear();
    for (const TensorInfo& o : out_info) {
      GE_ASSIGN_OR_RETURN(Tensor t, Tensor::Create(o.dtype, o.dims));
      outputs.push_back(std::move(t));
    }
    auto run =
        std::make_unique<StreamRun>(StreamRun{impl_.get(), graph_id, inputs, outputs, feature_map, feature_map_size});
    {
      std::lock_guard<std::mutex> lk(impl_->stream_mu);
      ++impl_->stream_runs;
    }
    rt::Task task{RunStreamTask, run.get()};
    task.always = true;  // runs (and frees its request) even after an earlier run failed
    Status s = on->stream->Enqueue(task);
    if (!s.ok()) {
      std::lock_guard<std::mutex> lk(impl_->stream_mu);
      --impl_->stream_runs;
      return s.WithContext("RunGraphWithStreamAsync: " + GraphName(graph_id));
    }
    run.release();  // the task owns it now
    return Status::Ok();
  }
  StatusOr<runtime::ModelLease> lease = impl_->executor->Pin(graph_id);
  if (!lease.ok()) return lease.status().WithContext(GraphName(graph_id));
  Status s = impl_->Execute(lease->model(), false, inputs, &outputs, feature_map, feature_map_size);
  return s.ok() ? s : s.WithContext(GraphName(graph_id));
}

Status Session::RegisterCallBackFunc(const std::string& key, const RunCallBackFunc& callback) {
  GE_RETURN_IF_ERROR(impl_->status);
  if (key.empty()) return InvalidArgument("RegisterCallBackFunc: the key is empty");
  if (!callback) return InvalidArgument("RegisterCallBackFunc: no callback for key '" + key + "'");
  std::lock_guard<std::mutex> lk(impl_->callbacks_mu);
  impl_->callbacks[key] = callback;
  return Status::Ok();
}

Status Session::GetCompiledModel(uint32_t graph_id, ModelBufferData& model_buffer) {
  GE_RETURN_IF_ERROR(impl_->status);
  std::lock_guard<std::mutex> lk(impl_->mu);
  GE_ASSIGN_OR_RETURN(GraphEntry * e, impl_->Find(graph_id));
  if (e->compiled == nullptr) return NotCompiled(graph_id, "GetCompiledModel");
  const om::ByteSpan image = e->compiled->om->image();
  std::shared_ptr<uint8_t> copy(new uint8_t[image.size], std::default_delete<uint8_t[]>());
  std::memcpy(copy.get(), image.data, image.size);
  model_buffer.data = std::move(copy);
  model_buffer.length = image.size;
  return Status::Ok();
}

Status Session::GetVariables(std::vector<std::string>& names, std::vector<Tensor>& values) {
  GE_RETURN_IF_ERROR(impl_->status);
  return session::ReadVariables(impl_->variables.get(), &impl_->context->device(), &names, &values);
}

Status Session::SaveCheckpoint(const std::string& path) {
  GE_RETURN_IF_ERROR(impl_->status);
  return session::SaveSessionCheckpoint(impl_->variables.get(), &impl_->context->device(), path);
}

Status Session::RestoreCheckpoint(const std::string& path) {
  GE_RETURN_IF_ERROR(impl_->status);
  return session::RestoreSessionCheckpoint(impl_->variables.get(), &impl_->context->device(), path);
}

bool Session::IsGraphNeedRebuild(uint32_t graph_id) {
  if (!impl_->status.ok()) return true;
  std::lock_guard<std::mutex> lk(impl_->mu);
  auto e = impl_->Find(graph_id);
  if (!e.ok()) return true;
  if ((*e)->mode == GraphEntry::Mode::kCompiled) {
    if ((*e)->compiled == nullptr) return true;
    for (const auto& [name, desc] : (*e)->compiled->variables) {
      auto now = impl_->variables->GetCurVarDesc(name);
      if (!now.ok() || !SameDesc(*now, desc)) return true;
    }
    return false;
  }
  return impl_->NeedRebuild(**e);
}

Status Session::WriteTrace(const std::string& path) const {
  GE_RETURN_IF_ERROR(impl_->status);
  if (impl_->trace == nullptr) {
    return FailedPrecondition(
        "Session::WriteTrace: the session records no timeline (session option "
        "ge.exec.profilingMode=1)");
  }
  return trace::WriteTraceFile(*impl_->trace, path);
}

Status Session::ForkGraph(uint32_t graph_id, uint32_t new_graph_id) {
  GE_RETURN_IF_ERROR(impl_->status);
  std::lock_guard<std::mutex> lk(impl_->mu);
  GE_ASSIGN_OR_RETURN(GraphEntry * e, impl_->Find(graph_id));
  if (e->compiled == nullptr) return NotCompiled(graph_id, "ForkGraph");
  if (impl_->graphs.count(new_graph_id) != 0) {
    return InvalidArgument("ForkGraph: " + GraphName(new_graph_id) + " exists");
  }
  GraphEntry fork;
  fork.id = new_graph_id;
  fork.model = e->model;
  fork.options = e->options;
  fork.mode = e->mode;
  fork.compiled = e->compiled;
  GraphEntry& added = impl_->graphs.emplace(new_graph_id, std::move(fork)).first->second;
  if (e->mode == GraphEntry::Mode::kBuilt) {
    Status s = impl_->Register(&added, true);
    if (!s.ok()) {
      impl_->graphs.erase(new_graph_id);
      return s;
    }
  }
  return Status::Ok();
}

}  // namespace ge
