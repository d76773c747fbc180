#include "runtime/v1/sink_model.h"

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <list>
#include <unordered_set>

#include "kernels/engine.h"
#include "kernels/exec/packed_weights.h"
#include "kernels/exec/prepared_kernel.h"
#include "om/ir_proto.h"
#include "ops/op_schema.h"
#include "om/model_def.pb.h"
#include "rt/model.h"

namespace ge::runtime {

namespace {

constexpr int kMaxStreams = 64;
constexpr int kMaxEvents = 1 << 20;

// A kernel argument slot that holds a graph input or output address, re-bound before every execution.
struct PatchPoint {
  void** slot;
  bool output;  // false: graph input
  int io_index;
};

// Where a value lives once loaded.
struct ValueAddress {
  proto::Segment segment = proto::SEG_NONE;
  void* address = nullptr;  // feature map and constants
  int io_index = -1;        // inputs and outputs
  uint64_t size = 0;
};

struct CopyArgs {
  void* dst = nullptr;
  void* src = nullptr;
  size_t bytes = 0;
};

Status CopyTask(void* args, rt::TaskContext&) {
  auto* a = static_cast<CopyArgs*>(args);
  if (a->bytes != 0 && a->dst != a->src) std::memcpy(a->dst, a->src, a->bytes);
  return Status::Ok();
}

StatusOr<uint64_t> TensorBytes(const TensorDesc& d) {
  if (d.kind != ValueKind::kTensor || !d.shape.IsFullyKnown() || d.dtype == DataType::kUndefined ||
      d.dtype == DataType::kString) {
    return DataLoss("MODEL_DEF: value " + d.ToString() + " is not a static tensor");
  }
  GE_ASSIGN_OR_RETURN(int64_t n, StorageNumElements(d.shape.dims(), d.format));
  const uint64_t e = DataTypeSize(d.dtype);
  if (n > 0 && e > (uint64_t{1} << 62) / static_cast<uint64_t>(n)) return DataLoss("MODEL_DEF: tensor too large");
  return static_cast<uint64_t>(n) * e;
}


// The descs in MODEL_DEF are what kernels size their loops by: re-derive them with the op's own inference so a
// corrupted or hand-edited model cannot make a kernel read or write past a buffer.
Status VerifyNodeDescs(const ir::Node& n, int64_t opset, const std::vector<TensorDesc>& in,
                       const std::vector<const Tensor*>& values, const std::vector<TensorDesc>& out) {
  const ops::OpSchema* schema = ops::BuiltinOps().Find(n.domain(), n.op_type());
  if (schema == nullptr) return DataLoss("node '" + n.name() + "': unknown op " + n.op_type());
  ops::InferContext ctx;
  ctx.node = &n;
  ctx.attrs = &n.attrs();
  ctx.opset = opset;
  ctx.op_type = n.op_type();
  ctx.node_name = n.name();
  // Prepacked weights are checked as the logical tensor they hold (their bytes are the engine's to check).
  std::vector<TensorDesc> logical(in);
  std::vector<const Tensor*> logical_values(values);
  logical_values.resize(in.size(), nullptr);
  for (size_t i = 0; i < in.size(); ++i) {
    if (auto d = exec::PackedWeightsLogicalDesc(n, static_cast<int>(i), in[i])) {
      logical[i] = *d;
      logical_values[i] = nullptr;
    }
  }
  for (size_t i = 0; i < in.size(); ++i) ctx.inputs.push_back(n.input(static_cast<int>(i)) ? &logical[i] : nullptr);
  ctx.input_values = logical_values;
  ctx.outputs.assign(out.size(), TensorDesc());
  Status s = ops::RunInference(*schema, ctx);
  if (!s.ok()) return DataLoss("node '" + n.name() + "' does not check: " + s.message());
  for (size_t i = 0; i < out.size(); ++i) {
    if (n.output(static_cast<int>(i)) == nullptr) continue;
    const TensorDesc& got = ctx.outputs[i];
    const TensorDesc& want = out[i];
    bool ok = got.dtype == DataType::kUndefined || got.dtype == want.dtype;
    // Inference names a format only where the op decides it (TransData); then it must be the declared one, up to
    // plain formats (ND, NCHW), which describe the same bytes.
    ok = ok && (got.format == Format::kND || got.format == want.format ||
                (!IsNonPlainLayout(got.format) && !IsNonPlainLayout(want.format)));
    if (ok && !got.shape.unknown_rank()) {
      ok = got.shape.dims().size() == want.shape.dims().size();
      for (size_t k = 0; ok && k < got.shape.dims().size(); ++k) {
        ok = got.shape.dims()[k] < 0 || got.shape.dims()[k] == want.shape.dims()[k];
      }
    }
    if (!ok) {
      return DataLoss("node '" + n.name() + "' output " + std::to_string(i) + " is declared " + want.ToString() +
                      " but its op gives " + got.ToString());
    }
  }
  return Status::Ok();
}

}  // namespace

struct SinkModel::Impl {
  rt::Device* device = nullptr;
  std::shared_ptr<const om::OmReader> om;
  std::string name;
  std::unique_ptr<ir::Model> ir;  // constants borrow the mapping
  std::vector<IoDesc> inputs, outputs;
  SinkModelStats stats;
  IsaLevel target = IsaLevel::kNone;  // MODEL_DEF target_isa: the highest implementation level kernels may use
  kernels::EngineList engines;        // SinkModelOptions::engines

  void* feature_map = nullptr;
  bool owns_feature_map = false;
  std::vector<ValueAddress> addresses;  // by value index
  std::vector<std::unique_ptr<exec::PreparedKernel>> kernels;
  std::list<CopyArgs> copies;  // stable addresses
  bool profile_tasks = false;
  std::vector<NodeProfile> profile;  // one per kernel task when profiling; reserved up front (stable addresses)
  struct ProfiledTask {
    rt::TaskFn fn;
    void* args;
    NodeProfile* entry;
  };
  std::list<ProfiledTask> profiled;  // stable addresses
  std::vector<PatchPoint> patches;
  std::unique_ptr<rt::Model> model;

  std::mutex exec_mu;  // one execution at a time: the feature map and the patched slots are shared
  struct AsyncRun {
    Impl* impl;
    std::vector<DataBuffer> inputs, outputs;
    std::list<AsyncRun>::iterator self;
  };
  std::mutex async_mu;
  std::list<AsyncRun> async_runs;  // guarded by async_mu; a run removes itself when done

  ~Impl() {
    model.reset();
    if (owns_feature_map && feature_map != nullptr) (void)device->Free(rt::MemType::kDevice, feature_map);
  }

  Status InitModelMem(const proto::ModelDefProto& def, const SinkModelOptions& options);
  Status InitIoNodes(const proto::ModelDefProto& def);
  Status InitIoDescs(const proto::ModelDefProto& def);
  Status InitNodes(const proto::ModelDefProto& def, const proto::TaskListProto& tasks);
  Status DoTaskSink(const proto::ModelDefProto& def, const proto::TaskListProto& tasks);
  static Status RunProfiled(void* args, rt::TaskContext& ctx);
  // Records |slot| as a patch point when |value| is a graph input or output, else writes its address.
  Status Resolve(int value, void** slot, const std::string& what);
  void Bind(const std::vector<DataBuffer>& in, const std::vector<DataBuffer>& out) {
    for (const PatchPoint& p : patches) *p.slot = p.output ? out[p.io_index].data : in[p.io_index].data;
  }
  static Status AsyncTask(void* args, rt::TaskContext& ctx);
};

Status SinkModel::Impl::InitModelMem(const proto::ModelDefProto& def, const SinkModelOptions& options) {
  const uint64_t bytes = def.memory().feature_map_bytes();
  stats.feature_map_bytes = bytes;
  if (options.feature_map != nullptr) {
    if (options.feature_map_size < bytes) {
      return InvalidArgument("model " + name + " needs " + std::to_string(bytes) +
                             " bytes of feature-map memory; the caller provided " +
                             std::to_string(options.feature_map_size));
    }
    if (reinterpret_cast<uintptr_t>(options.feature_map) % 64 != 0) {
      return InvalidArgument("caller-provided feature-map memory must be 64-byte aligned");
    }
    feature_map = options.feature_map;
    return Status::Ok();
  }
  if (bytes == 0) return Status::Ok();
  auto mem = device->Malloc(rt::MemType::kDevice, bytes, 4096);
  if (!mem.ok()) return mem.status().WithContext("model " + name + ": feature-map memory");
  feature_map = *mem;
  owns_feature_map = true;
  return Status::Ok();
}

Status SinkModel::Impl::InitIoNodes(const proto::ModelDefProto& def) {
  std::vector<ir::Value*> values = ir->graph->values();
  addresses.assign(values.size(), ValueAddress());
  std::vector<bool> seen(values.size(), false);
  const uint64_t fm_bytes = def.memory().feature_map_bytes();
  for (const proto::PlacementProto& p : def.placements()) {
    if (p.value() < 0 || static_cast<size_t>(p.value()) >= values.size() || seen[p.value()]) {
      return DataLoss("MODEL_DEF: placement of value index " + std::to_string(p.value()) + " is invalid");
    }
    seen[p.value()] = true;
    const ir::Value* v = values[p.value()];
    ValueAddress& a = addresses[p.value()];
    a.segment = p.segment();
    a.size = p.size();
    const std::string what = "MODEL_DEF: value '" + v->name() + "'";
    if (a.segment == proto::SEG_NONE) continue;
    GE_ASSIGN_OR_RETURN(uint64_t bytes, TensorBytes(v->desc()));
    if (bytes != p.size()) return DataLoss(what + " has size " + std::to_string(p.size()) + ", expected " +
                                           std::to_string(bytes));
    switch (a.segment) {
      case proto::SEG_FEATURE_MAP:
        if (p.offset() > fm_bytes || bytes > fm_bytes - p.offset()) {
          return DataLoss(what + " lies outside the feature map");
        }
        a.address = static_cast<char*>(feature_map) + p.offset();
        break;
      case proto::SEG_CONSTANT: {
        const Tensor* t = v->const_value();
        if (t == nullptr) return DataLoss(what + " is placed as a constant but has no value");
        if (t->nbytes() != bytes) return DataLoss(what + ": constant size mismatch");
        // Kernels only read constants; the storage may be a read-only mapping.
        a.address = const_cast<void*>(t->raw_data());
        break;
      }
      case proto::SEG_INPUT:
        if (p.io_index() < 0 || p.io_index() >= def.inputs_size() || def.inputs(p.io_index()).value() != p.value()) {
          return DataLoss(what + ": bad input index");
        }
        a.io_index = p.io_index();
        break;
      case proto::SEG_OUTPUT:
        if (p.io_index() < 0 || p.io_index() >= def.outputs_size() ||
            def.outputs(p.io_index()).value() != p.value()) {
          return DataLoss(what + ": bad output index");
        }
        a.io_index = p.io_index();
        break;
      default:
        return DataLoss(what + ": unknown segment " + std::to_string(a.segment));
    }
  }
  return Status::Ok();
}

Status SinkModel::Impl::InitIoDescs(const proto::ModelDefProto& def) {
  std::vector<ir::Value*> values = ir->graph->values();
  auto load = [&](const google::protobuf::RepeatedPtrField<proto::IoProto>& list, std::vector<IoDesc>* out,
                  const char* what) -> Status {
    for (const proto::IoProto& io : list) {
      if (io.value() < 0 || static_cast<size_t>(io.value()) >= values.size()) {
        return DataLoss(std::string("MODEL_DEF: ") + what + " '" + io.name() + "' has a bad value index");
      }
      const ir::Value* v = values[io.value()];
      GE_ASSIGN_OR_RETURN(uint64_t bytes, TensorBytes(v->desc()));
      if (bytes != io.size()) return DataLoss(std::string("MODEL_DEF: ") + what + " '" + io.name() + "' size");
      out->push_back(IoDesc{io.name(), v->desc(), static_cast<size_t>(bytes)});
    }
    return Status::Ok();
  };
  GE_RETURN_IF_ERROR(load(def.inputs(), &inputs, "input"));
  GE_RETURN_IF_ERROR(load(def.outputs(), &outputs, "output"));
  if (inputs.size() != ir->graph->inputs().size() || outputs.size() != ir->graph->outputs().size()) {
    return DataLoss("MODEL_DEF: IO descriptions do not match the graph");
  }
  return Status::Ok();
}

Status SinkModel::Impl::Resolve(int value, void** slot, const std::string& what) {
  if (value < 0 || static_cast<size_t>(value) >= addresses.size()) return DataLoss(what + ": bad value index");
  const ValueAddress& a = addresses[value];
  switch (a.segment) {
    case proto::SEG_FEATURE_MAP:
    case proto::SEG_CONSTANT:
      *slot = a.address;
      return Status::Ok();
    case proto::SEG_INPUT:
    case proto::SEG_OUTPUT:
      patches.push_back(PatchPoint{slot, a.segment == proto::SEG_OUTPUT, a.io_index});
      *slot = nullptr;
      return Status::Ok();
    default:
      return DataLoss(what + " reads a value with no placement");
  }
}

Status SinkModel::Impl::InitNodes(const proto::ModelDefProto& def, const proto::TaskListProto& tasks) {
  std::vector<ir::Node*> nodes = ir->graph->nodes();
  std::vector<ir::Value*> values = ir->graph->values();
  std::unordered_map<const ir::Value*, int> index_of;
  for (size_t i = 0; i < values.size(); ++i) index_of[values[i]] = static_cast<int>(i);
  std::vector<bool> prepared(nodes.size(), false);
  kernels.resize(nodes.size());
  for (const proto::TaskDefProto& t : tasks.tasks()) {
    if (t.type() != proto::TaskDefProto::KERNEL) continue;
    if (t.node() < 0 || static_cast<size_t>(t.node()) >= nodes.size() || prepared[t.node()]) {
      return DataLoss("TASK_INFO: kernel task for node index " + std::to_string(t.node()) + " is invalid");
    }
    prepared[t.node()] = true;
    const ir::Node* n = nodes[t.node()];
    exec::RequestSettings settings;
    settings.opset = ir->OpsetFor(n->domain());
    settings.seed = def.seed() + static_cast<uint64_t>(t.node());
    settings.intra_op_threads = device->thread_pool().num_threads();
    settings.allow_bf16 = def.precision_mode() == "allow_bf16";
    settings.max_isa = target;
    const exec::PrepareRequest req = exec::MakeRequest(*n, settings);
    GE_RETURN_IF_ERROR(VerifyNodeDescs(*n, req.opset, req.input_descs, req.const_inputs, req.output_descs));
    auto k = exec::PrepareKernel(req, engines);
    if (!k.ok()) return k.status().WithContext("model " + name + ": InitNodes");
    exec::KernelIo& io = (*k)->io();
    io.inputs.assign(n->num_inputs(), nullptr);
    io.outputs.assign(n->num_outputs(), nullptr);
    const std::string what = "node '" + n->name() + "'";
    for (int i = 0; i < n->num_inputs(); ++i) {
      if (n->input(i) != nullptr) GE_RETURN_IF_ERROR(Resolve(index_of.at(n->input(i)), &io.inputs[i], what));
    }
    for (int i = 0; i < n->num_outputs(); ++i) {
      if (n->output(i) == nullptr) continue;
      const ValueAddress& a = addresses[index_of.at(n->output(i))];
      if (a.segment == proto::SEG_CONSTANT || a.segment == proto::SEG_INPUT) {
        return DataLoss(what + " writes a constant or a graph input");
      }
      GE_RETURN_IF_ERROR(Resolve(index_of.at(n->output(i)), &io.outputs[i], what));
    }
    if (std::string((*k)->impl_name()) == "ref") ++stats.num_ref_kernels;
    ++stats.impls[(*k)->impl_name()];
    kernels[t.node()] = std::move(*k);
  }
  for (size_t i = 0; i < nodes.size(); ++i) {
    if (!prepared[i]) return DataLoss("TASK_INFO: node '" + nodes[i]->name() + "' has no kernel task");
  }
  return Status::Ok();
}

// A profiled kernel task: the kernel, timed. Tasks of one node never run concurrently, so the entry needs no lock.
Status SinkModel::Impl::RunProfiled(void* args, rt::TaskContext& ctx) {
  auto* p = static_cast<ProfiledTask*>(args);
  const auto t0 = std::chrono::steady_clock::now();
  Status s = p->fn(p->args, ctx);
  p->entry->seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  ++p->entry->runs;
  return s;
}

Status SinkModel::Impl::DoTaskSink(const proto::ModelDefProto& def, const proto::TaskListProto& tasks) {
  if (profile_tasks) profile.reserve(static_cast<size_t>(tasks.tasks_size()));
  if (def.num_streams() < 1 || def.num_streams() > kMaxStreams) {
    return DataLoss("MODEL_DEF: stream count " + std::to_string(def.num_streams()) + " out of range");
  }
  if (def.num_events() < 0 || def.num_events() > kMaxEvents) return DataLoss("MODEL_DEF: event count out of range");
  GE_ASSIGN_OR_RETURN(model, device->CreateModel(name, def.num_streams()));
  for (int e = 0; e < def.num_events(); ++e) GE_RETURN_IF_ERROR(model->AddEvent().status());
  for (const proto::TaskDefProto& t : tasks.tasks()) {
    const int s = t.stream();
    if (s < 0 || s >= def.num_streams()) return DataLoss("TASK_INFO: task stream out of range");
    switch (t.type()) {
      case proto::TaskDefProto::KERNEL: {
        exec::PreparedKernel* k = kernels[t.node()].get();
        if (profile_tasks) {
          const ir::Node* n = ir->graph->nodes()[t.node()];
          profile.push_back(NodeProfile{n->name(), n->op_type(), k->impl_name(), 0, 0});
          profiled.push_back(ProfiledTask{k->fn(), k->args(), &profile.back()});
          GE_RETURN_IF_ERROR(model->AddKernel(s, RunProfiled, &profiled.back()));
        } else {
          GE_RETURN_IF_ERROR(model->AddKernel(s, k->fn(), k->args()));
        }
        break;
      }
      case proto::TaskDefProto::MEMCPY: {
        if (t.dst_output() < 0 || static_cast<size_t>(t.dst_output()) >= outputs.size()) {
          return DataLoss("TASK_INFO: memcpy to a bad output index");
        }
        CopyArgs& c = copies.emplace_back();
        c.bytes = outputs[t.dst_output()].size_bytes;
        GE_RETURN_IF_ERROR(Resolve(t.src_value(), &c.src, "memcpy task"));
        if (addresses[t.src_value()].size != c.bytes) return DataLoss("TASK_INFO: memcpy size mismatch");
        patches.push_back(PatchPoint{&c.dst, true, t.dst_output()});
        GE_RETURN_IF_ERROR(model->AddKernel(s, CopyTask, &c));
        break;
      }
      case proto::TaskDefProto::EVENT_RECORD:
      case proto::TaskDefProto::EVENT_WAIT:
        if (t.event() < 0 || t.event() >= def.num_events()) return DataLoss("TASK_INFO: event id out of range");
        GE_RETURN_IF_ERROR(t.type() == proto::TaskDefProto::EVENT_RECORD ? model->AddEventRecord(s, t.event())
                                                                          : model->AddEventWait(s, t.event()));
        break;
      case proto::TaskDefProto::END_GRAPH:
        GE_RETURN_IF_ERROR(model->AddEndGraph(s));
        break;
      default:
        return DataLoss("TASK_INFO: unknown task type " + std::to_string(t.type()));
    }
  }
  Status s = model->Finalize();
  if (!s.ok()) return DataLoss("TASK_INFO: " + s.message());
  stats.num_streams = def.num_streams();
  stats.num_events = def.num_events();
  stats.num_tasks = static_cast<size_t>(tasks.tasks_size());
  stats.num_zero_copy_slots = patches.size();
  return Status::Ok();
}

// The model's target ISA (MODEL_DEF target_isa): kernels are prepared with implementations of at most that level,
// as at compile time. A model for a level above what the engines run here (the CPU, or for oneDNN
// ONEDNN_MAX_CPU_ISA) is refused:
// its layouts and weights were planned for kernels this machine cannot run, which could only run as reference
// implementations, many times slower.
static Status CheckTarget(const proto::ModelDefProto& def, const kernels::EngineList& engines, IsaLevel* target) {
  *target = IsaLevel::kNone;
  if (def.target_isa().empty()) return Status::Ok();  // compiled before --target existed: no limit
  if (!ParseIsaLevel(def.target_isa(), target)) {
    return DataLoss("MODEL_DEF: unknown target ISA '" + def.target_isa() + "'");
  }
  const IsaLevel here = kernels::EnginesMaxIsaLevel(engines);
  if (static_cast<int>(*target) > static_cast<int>(here)) {
    const char* cap = std::getenv("ONEDNN_MAX_CPU_ISA");
    const bool capped = cap != nullptr && static_cast<int>(IsaLevelOf(HostIsa().features)) > static_cast<int>(here);
    return FailedPrecondition(std::string("the model was compiled for ") + IsaLevelName(*target) +
                              ", but this machine runs oneDNN kernels only up to " + IsaLevelName(here) +
                              (capped ? std::string(" (ONEDNN_MAX_CPU_ISA=") + cap + ")" : std::string()) +
                              ": recompile it with ge compile --target=" + IsaLevelName(here) +
                              " (or --target=native on this machine)");
  }
  return Status::Ok();
}

StatusOr<std::unique_ptr<SinkModel>> SinkModel::Load(std::shared_ptr<const om::OmReader> om, rt::Device* device,
                                                     const SinkModelOptions& options) {
  if (om == nullptr || device == nullptr) return InvalidArgument("SinkModel::Load: null reader or device");
  if (om->header().model_type != om::OmModelType::kStandard || om->header().dynamic) {
    return FailedPrecondition("the .om is not a compiled static model (model type " +
                              std::to_string(static_cast<int>(om->header().model_type)) + ")");
  }
  auto impl = std::make_unique<Impl>();
  impl->device = device;
  impl->om = om;
  impl->name = om->header().name;
  om::ByteSpan def_bytes = om->partition(om::PartitionType::kModelDef);
  om::ByteSpan task_bytes = om->partition(om::PartitionType::kTaskInfo);
  if (def_bytes.empty() || task_bytes.empty()) return DataLoss("the .om lacks MODEL_DEF or TASK_INFO");
  proto::ModelDefProto def;
  proto::TaskListProto tasks;
  if (def_bytes.size > INT32_MAX || !def.ParseFromArray(def_bytes.data, static_cast<int>(def_bytes.size))) {
    return DataLoss("MODEL_DEF does not parse");
  }
  if (task_bytes.size > INT32_MAX || !tasks.ParseFromArray(task_bytes.data, static_cast<int>(task_bytes.size))) {
    return DataLoss("TASK_INFO does not parse");
  }
  impl->engines = options.engines;
  GE_RETURN_IF_ERROR(CheckTarget(def, impl->engines, &impl->target));
  impl->stats.target = def.target_isa();
  auto weights = om->weights();
  {
    auto m = om::ModelFromProto(def.ir(), weights.get());
    if (!m.ok()) return m.status().WithContext("MODEL_DEF");
    impl->ir = std::move(*m);
  }
  if (impl->ir->graph == nullptr) return DataLoss("MODEL_DEF has no graph");
  impl->stats.weights_bytes = om->partition(om::PartitionType::kWeightsData).size;
  impl->profile_tasks = options.profile;
  GE_RETURN_IF_ERROR(impl->InitModelMem(def, options));
  GE_RETURN_IF_ERROR(impl->InitIoNodes(def));
  GE_RETURN_IF_ERROR(impl->InitIoDescs(def));
  GE_RETURN_IF_ERROR(impl->InitNodes(def, tasks));
  GE_RETURN_IF_ERROR(impl->DoTaskSink(def, tasks));
  return std::unique_ptr<SinkModel>(new SinkModel(std::move(impl)));
}

SinkModel::SinkModel(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
SinkModel::~SinkModel() = default;

const std::string& SinkModel::name() const { return impl_->name; }
const std::vector<IoDesc>& SinkModel::inputs() const { return impl_->inputs; }
const std::vector<IoDesc>& SinkModel::outputs() const { return impl_->outputs; }
const SinkModelStats& SinkModel::stats() const { return impl_->stats; }
std::vector<NodeProfile> SinkModel::profile() const { return impl_->profile; }

Status SinkModel::Execute(const std::vector<DataBuffer>& inputs, const std::vector<DataBuffer>& outputs) {
  GE_RETURN_IF_ERROR(CheckBuffers(impl_->inputs, inputs, "input"));
  GE_RETURN_IF_ERROR(CheckBuffers(impl_->outputs, outputs, "output"));
  std::lock_guard<std::mutex> lk(impl_->exec_mu);
  impl_->Bind(inputs, outputs);
  return impl_->model->Execute();
}

Status SinkModel::Impl::AsyncTask(void* args, rt::TaskContext& ctx) {
  auto* run = static_cast<AsyncRun*>(args);
  Impl* impl = run->impl;
  Status s;
  {
    std::lock_guard<std::mutex> lk(impl->exec_mu);
    impl->Bind(run->inputs, run->outputs);
    s = impl->model->Run(ctx);
  }
  std::lock_guard<std::mutex> lk(impl->async_mu);
  impl->async_runs.erase(run->self);
  return s;
}

Status SinkModel::ExecuteAsync(const std::vector<DataBuffer>& inputs, const std::vector<DataBuffer>& outputs,
                               rt::Stream& stream) {
  GE_RETURN_IF_ERROR(CheckBuffers(impl_->inputs, inputs, "input"));
  GE_RETURN_IF_ERROR(CheckBuffers(impl_->outputs, outputs, "output"));
  Impl::AsyncRun* run;
  {
    std::lock_guard<std::mutex> lk(impl_->async_mu);
    impl_->async_runs.push_back(Impl::AsyncRun{impl_.get(), inputs, outputs, {}});
    impl_->async_runs.back().self = std::prev(impl_->async_runs.end());
    run = &impl_->async_runs.back();
  }
  Status s = stream.Enqueue(rt::Task{Impl::AsyncTask, run});
  if (!s.ok()) {
    std::lock_guard<std::mutex> lk(impl_->async_mu);
    impl_->async_runs.erase(run->self);
  }
  return s;
}

void SinkModel::Abort() { impl_->model->Abort(); }
void SinkModel::ResetAbort() { impl_->model->ResetAbort(); }

}  // namespace ge::runtime
