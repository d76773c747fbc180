#include "runtime/v1/sink_model.h"

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <condition_variable>
#include <list>
#include <optional>
#include <unordered_set>

#include "kernels/engine.h"
#include "kernels/exec/packed_weights.h"
#include "om/weights.h"
#include "kernels/exec/prepared_kernel.h"
#include "om/ir_proto.h"
#include "ops/concat_bytes.h"
#include "ops/op_schema.h"
#include "om/model_def.pb.h"
#include "rt/model.h"
#include "ops/variable/variable_ref.h"
#include "runtime/v1/file_constants.h"
#include "runtime/v1/kernel_trace_label.h"
#include "runtime/v1/prepare_kernels.h"
#include "var/var_info.h"

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
  void* address = nullptr;  // constants
  uint64_t offset = 0;      // feature map
  int io_index = -1;        // inputs and outputs
  uint64_t size = 0;
};

// A Concat the compiler elided (no kernel task): valid when its output is its inputs' bytes one after another
// (ops::ConcatJoinsBytes) and every input lies in the feature map at the output's offset plus the bytes of the
// inputs before it, so that their producers wrote the output.
bool IsNoTaskConcat(const ir::Node& n, const std::vector<ValueAddress>& addresses,
                    const std::unordered_map<const ir::Value*, int>& index_of) {
  if (!ops::ConcatJoinsBytes(n)) return false;
  const ValueAddress& out = addresses[index_of.at(n.output(0))];
  if (out.segment != proto::SEG_FEATURE_MAP) return false;
  uint64_t offset = out.offset;
  for (int i = 0; i < n.num_inputs(); ++i) {
    const ValueAddress& in = addresses[index_of.at(n.input(i))];
    if (in.segment != proto::SEG_FEATURE_MAP || in.offset != offset) return false;
    offset += in.size;
  }
  return offset == out.offset + out.size;
}

// A kernel argument slot that holds a feature-map address: re-based when a context runs on other memory.
struct FeatureMapSlot {
  void** slot;
  uint64_t offset;
};

struct CopyArgs {
  void* dst = nullptr;
  void* src = nullptr;
  size_t bytes = 0;
};

// After a task that writes a session variable: its write version moves (kernels holding a converted copy of the
// variable convert again on their next run).
Status BumpVersionTask(void* args, rt::TaskContext&) {
  static_cast<std::atomic<uint64_t>*>(args)->fetch_add(1, std::memory_order_acq_rel);
  return Status::Ok();
}

Status CopyTask(void* args, rt::TaskContext&) {
  auto* a = static_cast<CopyArgs*>(args);
  if (a->bytes != 0 && a->dst != a->src) std::memcpy(a->dst, a->src, a->bytes);
  return Status::Ok();
}

bool IsConstant(proto::Segment s) { return s == proto::SEG_CONSTANT || s == proto::SEG_FILE_CONSTANT; }

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

namespace {

// Caller-provided feature-map memory must hold the model's plan and be 64-byte aligned.
Status CheckFeatureMapMemory(const std::string& model, uint64_t needed, void* memory, size_t size) {
  if (size < needed) {
    return InvalidArgument("model " + model + " needs " + std::to_string(needed) +
                           " bytes of feature-map memory; the caller provided " + std::to_string(size));
  }
  if (reinterpret_cast<uintptr_t>(memory) % 64 != 0) {
    return InvalidArgument("caller-provided feature-map memory must be 64-byte aligned");
  }
  return Status::Ok();
}

// One execution context (issue 10, reentrant models): what a single execution mutates. Its own kernel bindings
// (slots and state), copy-task arguments, zero-copy patch points and rt::Model over the shared prepared kernels,
// and the feature-map memory its slots currently address. One execution at a time per context.
struct ExecContext {
  void* own_feature_map = nullptr;      // device memory this context allocated (lazily), freed with it
  void* default_feature_map = nullptr;  // what it runs on unless a caller gives memory: own, or the load's
  void* feature_map = nullptr;          // the base its feature-map slots address now
  std::vector<std::unique_ptr<exec::KernelBinding>> bindings;  // by node index
  std::list<CopyArgs> copies;                                  // stable addresses
  struct ProfiledTask {
    rt::TaskFn fn;
    void* args;
    NodeProfile* entry;
    trace::TraceRecorder* trace;  // null: timed for the profile only
    int track;                    // trace::StreamTrack of the task's stream
    trace::TraceLabel label;
  };
  std::list<ProfiledTask> profiled;  // stable addresses
  std::vector<PatchPoint> patches;
  std::vector<FeatureMapSlot> fm_slots;
  // Where the host cannot dereference device memory (Device::HostAccessible): per graph input and output, a
  // device buffer the kernels address; the caller's bytes are copied in before and out after each execution.
  std::vector<void*> staged_inputs, staged_outputs;
  // Per stream: the scratch its kernels share (their tasks run one at a time); device memory of `device`, freed
  // by the destructor (after `model`, declared later, is gone).
  rt::Device* device = nullptr;
  std::vector<void*> stream_scratch;
  ~ExecContext() {
    model.reset();
    for (void* b : stream_scratch) {
      if (b != nullptr) (void)device->Free(rt::MemType::kDevice, b);
    }
  }
  std::unique_ptr<rt::Model> model;  // last: destroyed first (its workers run the tasks above)

  bool staged() const { return !staged_inputs.empty() || !staged_outputs.empty(); }
  void Bind(const std::vector<DataBuffer>& in, const std::vector<DataBuffer>& out) {
    if (staged()) return;  // the slots address the staging buffers for good
    for (const PatchPoint& p : patches) *p.slot = p.output ? out[p.io_index].data : in[p.io_index].data;
  }
  void Rebase(void* base) {
    if (base == feature_map) return;
    for (const FeatureMapSlot& f : fm_slots) *f.slot = static_cast<char*>(base) + f.offset;
    feature_map = base;
  }
};

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
  proto::TaskListProto tasks;         // TASK_INFO, validated by the first context's DoTaskSink
  int num_streams = 1, num_events = 0;
  uint64_t feature_map_bytes = 0;

  void* load_feature_map = nullptr;  // SinkModelOptions::feature_map: the first context's memory
  bool stage_io = false;             // device memory is not host-accessible: IO through staging buffers
  void* device_constants = nullptr;  // constants uploaded to device memory (same condition); freed with the model
  std::shared_ptr<var::VarManager> variables;  // the session's (SinkModelOptions::variables) or the model's own
  // By node index: the write version of the variable the node writes (Assign/AssignAdd/AssignSub), else null.
  std::vector<std::atomic<uint64_t>*> write_versions;
  std::vector<ValueAddress> addresses;  // by value index
  std::unordered_map<const ir::Value*, int> value_index;  // value → its index in the graph's values (InitNodes)
  std::vector<std::unique_ptr<exec::PreparedKernel>> kernels;  // by node index; immutable after InitNodes
  bool profile_tasks = false;         // SinkModelOptions::profile or ::trace: kernel tasks run timed (RunProfiled)
  trace::TraceRecorder* trace = nullptr;  // SinkModelOptions::trace
  std::vector<NodeProfile> profile;  // one per kernel task when profiling; reserved up front (stable addresses)

  // The context pool: at most max_contexts, created on demand; executions beyond wait for a free one.
  int max_contexts = 1;
  std::mutex pool_mu;
  std::condition_variable pool_cv;
  std::vector<std::unique_ptr<ExecContext>> contexts;  // guarded by pool_mu
  std::vector<ExecContext*> free_contexts;             // guarded by pool_mu
  int creating = 0;                                    // contexts being built outside the lock; guarded by pool_mu
  bool aborted = false;                                // Abort() until ResetAbort(); guarded by pool_mu

  // One ExecuteAsync in flight: its context and buffers, from enqueue until its release task ran.
  struct AsyncRun {
    Impl* impl;
    ExecContext* context;
    std::vector<DataBuffer> inputs, outputs;
    std::list<AsyncRun>::iterator self;
  };
  std::mutex async_mu;
  std::list<AsyncRun> async_runs;  // guarded by async_mu; a run removes itself when done

  ~Impl() {
    for (auto& c : contexts) {
      c->model.reset();
      if (c->own_feature_map != nullptr) (void)device->Free(rt::MemType::kDevice, c->own_feature_map);
      for (void* b : c->staged_inputs) (void)device->Free(rt::MemType::kDevice, b);
      for (void* b : c->staged_outputs) (void)device->Free(rt::MemType::kDevice, b);
    }
    if (device_constants != nullptr) (void)device->Free(rt::MemType::kDevice, device_constants);
  }
  // Copies every constant a kernel addresses into one block of device memory and points the addresses there.
  Status UploadConstants();
  Status AllocateStaging(ExecContext& c);

  Status InitModelMem(const proto::ModelDefProto& def, const SinkModelOptions& options);
  // VAR_INFO restored into the session's manager (or the model's own), `_init_value`s registered.
  Status InitVariables(const SinkModelOptions& options);
  // The device address of the variable bytes [logical, logical + bytes), which must lie in one variable.
  StatusOr<void*> VariableAddress(uint64_t logical, uint64_t bytes, const std::string& what);
  Status InitIoNodes(const proto::ModelDefProto& def);
  Status InitIoDescs(const proto::ModelDefProto& def);
  Status InitNodes(const proto::ModelDefProto& def);
  // A new context: bindings for every kernel, slots resolved against |feature_map| (null: allocated on first
  // use), the task list sunk into its own rt::Model (DoTaskSink).
  StatusOr<std::unique_ptr<ExecContext>> CreateContext(void* feature_map);
  Status DoTaskSink(ExecContext& c);
  static Status RunProfiled(void* args, rt::TaskContext& ctx);
  // Records |slot| as a patch point when |value| is a graph input or output, else writes its address.
  Status Resolve(ExecContext& c, int value, void** slot, const std::string& what);
  // A free context, or a new one while fewer than max_contexts exist, or waits for one to be released.
  StatusOr<ExecContext*> Acquire();
  void Release(ExecContext* c);
  // Points |c| at the caller's feature map (non-null) or its own memory (allocated now if it has none).
  Status UseFeatureMap(ExecContext& c, void* caller_feature_map);
  Status Run(const std::vector<DataBuffer>& in, const std::vector<DataBuffer>& out, void* feature_map);
  Status EnqueueRun(const std::vector<DataBuffer>& in, const std::vector<DataBuffer>& out, rt::Stream& stream);
  static Status AsyncBindTask(void* args, rt::TaskContext& ctx);
  static Status AsyncReleaseTask(void* args, rt::TaskContext& ctx);
};

Status SinkModel::Impl::InitModelMem(const proto::ModelDefProto& def, const SinkModelOptions& options) {
  feature_map_bytes = def.memory().feature_map_bytes();
  stats.feature_map_bytes = feature_map_bytes;
  if (options.feature_map == nullptr) return Status::Ok();
  GE_RETURN_IF_ERROR(CheckFeatureMapMemory(name, feature_map_bytes, options.feature_map, options.feature_map_size));
  load_feature_map = options.feature_map;
  return Status::Ok();
}

Status SinkModel::Impl::InitVariables(const SinkModelOptions& options) {
  om::ByteSpan var_info = om->partition(om::PartitionType::kVarInfo);
  if (var_info.empty()) return Status::Ok();
  variables = options.variables;
  if (variables == nullptr) {
    variables = std::make_shared<var::VarManager>(/*session_id=*/0, device);
    GE_RETURN_IF_ERROR(variables->Init(var::VarManagerOptions()));
  }
  Status s = var::RestoreVarInfo(var_info.data, var_info.size, variables.get());
  if (!s.ok()) return s.WithContext("model " + name + ": VAR_INFO");
  for (const ir::Node* n : ir->graph->nodes()) {
    if (!ops::IsOp(*n, ops::OpId::kGeVariable)) continue;
    ++stats.num_variables;
    const Tensor* init = n->attrs().GetTensor("_init_value");
    if (init == nullptr) continue;
    s = variables->SetInitValue(n->name(), *init);
    if (!s.ok()) return s.WithContext("model " + name + ": variable '" + n->name() + "'");
  }
  return Status::Ok();
}

StatusOr<void*> SinkModel::Impl::VariableAddress(uint64_t logical, uint64_t bytes, const std::string& what) {
  if (variables == nullptr) return DataLoss(what + " is a variable, but the .om has no VAR_INFO");
  auto first = variables->GetVarMemoryAddr(logical, rt::MemType::kDevice);
  if (!first.ok()) return DataLoss(what + ": " + first.status().message());
  if (bytes > 1) {
    if (logical > UINT64_MAX - bytes) return DataLoss(what + ": variable address overflows");
    auto last = variables->GetVarMemoryAddr(logical + bytes - 1, rt::MemType::kDevice);
    if (!last.ok() || *last != static_cast<char*>(*first) + bytes - 1) {
      return DataLoss(what + " does not fit in its variable (" + std::to_string(bytes) + " bytes at logical " +
                      std::to_string(logical) + ")");
    }
  }
  return *first;
}

Status SinkModel::Impl::UseFeatureMap(ExecContext& c, void* caller_feature_map) {
  if (caller_feature_map != nullptr) {
    c.Rebase(caller_feature_map);
    return Status::Ok();
  }
  if (c.default_feature_map == nullptr && feature_map_bytes > 0) {
    auto mem = device->Malloc(rt::MemType::kDevice, feature_map_bytes, 4096);
    if (!mem.ok()) return mem.status().WithContext("model " + name + ": feature-map memory");
    c.own_feature_map = c.default_feature_map = *mem;
  }
  c.Rebase(c.default_feature_map);
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
        a.offset = p.offset();
        break;
      case proto::SEG_FILE_CONSTANT:  // materialized before (MaterializeFileConstants)
      case proto::SEG_CONSTANT: {
        const Tensor* t = v->const_value();
        if (t == nullptr) return DataLoss(what + " is placed as a constant but has no value");
        if (t->nbytes() != bytes) return DataLoss(what + ": constant size mismatch");
        // Kernels only read constants; the storage may be a read-only mapping.
        a.address = const_cast<void*>(t->raw_data());
        break;
      }
      case proto::SEG_VARIABLE: {
        GE_ASSIGN_OR_RETURN(a.address, VariableAddress(p.offset(), bytes, what));
        a.offset = p.offset();
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

Status SinkModel::Impl::Resolve(ExecContext& c, int value, void** slot, const std::string& what) {
  if (value < 0 || static_cast<size_t>(value) >= addresses.size()) return DataLoss(what + ": bad value index");
  const ValueAddress& a = addresses[value];
  switch (a.segment) {
    case proto::SEG_FEATURE_MAP:
      c.fm_slots.push_back(FeatureMapSlot{slot, a.offset});
      *slot = c.feature_map != nullptr ? static_cast<char*>(c.feature_map) + a.offset : nullptr;
      return Status::Ok();
    case proto::SEG_CONSTANT:
    case proto::SEG_FILE_CONSTANT:
    case proto::SEG_VARIABLE:  // shared by every context: the session's variable memory
      *slot = a.address;
      return Status::Ok();
    case proto::SEG_INPUT:
    case proto::SEG_OUTPUT:
      c.patches.push_back(PatchPoint{slot, a.segment == proto::SEG_OUTPUT, a.io_index});
      *slot = !c.staged() ? nullptr
              : a.segment == proto::SEG_OUTPUT ? c.staged_outputs[a.io_index] : c.staged_inputs[a.io_index];
      return Status::Ok();
    default:
      return DataLoss(what + " reads a value with no placement");
  }
}

Status SinkModel::Impl::InitNodes(const proto::ModelDefProto& def) {
  std::vector<ir::Node*> nodes = ir->graph->nodes();
  std::vector<ir::Value*> values = ir->graph->values();
  value_index.clear();
  for (size_t i = 0; i < values.size(); ++i) value_index[values[i]] = static_cast<int>(i);
  const auto& index_of = value_index;
  kernels.resize(nodes.size());
  std::vector<bool> has_kernel_task(nodes.size(), false);
  std::vector<exec::PrepareRequest> requests;
  std::vector<int> request_node;
  for (const proto::TaskDefProto& t : tasks.tasks()) {
    if (t.type() != proto::TaskDefProto::KERNEL) continue;
    if (t.node() < 0 || static_cast<size_t>(t.node()) >= nodes.size() || has_kernel_task[t.node()]) {
      return DataLoss("TASK_INFO: kernel task for node index " + std::to_string(t.node()) + " is invalid");
    }
    has_kernel_task[t.node()] = true;
    const ir::Node* n = nodes[t.node()];
    const std::string what = "node '" + n->name() + "'";
    for (int i = 0; i < n->num_inputs(); ++i) {
      if (n->input(i) == nullptr) continue;
      if (addresses[index_of.at(n->input(i))].segment == proto::SEG_NONE) {
        return DataLoss(what + " reads a value with no placement");
      }
    }
    for (int i = 0; i < n->num_outputs(); ++i) {
      if (n->output(i) == nullptr) continue;
      const ValueAddress& a = addresses[index_of.at(n->output(i))];
      if (IsConstant(a.segment) || a.segment == proto::SEG_INPUT) {
        return DataLoss(what + " writes a constant or a graph input");
      }
      if (a.segment == proto::SEG_NONE) return DataLoss(what + " reads a value with no placement");
    }
    exec::RequestSettings settings;
    settings.opset = ir->OpsetFor(n->domain());
    settings.seed = def.seed() + static_cast<uint64_t>(t.node());
    settings.intra_op_threads = device->intra_op_threads();
    settings.allow_bf16 = def.precision_mode() == "allow_bf16";
    settings.variable_acc = !def.variable_acc_off();
    settings.max_isa = target;
    exec::PrepareRequest req = exec::MakeRequest(*n, settings);
    for (int i = 0; i < n->num_inputs(); ++i) {
      if (n->input(i) == nullptr) continue;
      const ValueAddress& in = addresses[index_of.at(n->input(i))];
      if (in.segment == proto::SEG_VARIABLE) req.input_versions[i] = variables->WriteVersion(in.offset);
    }
    GE_RETURN_IF_ERROR(VerifyNodeDescs(*n, req.opset, req.input_descs, req.const_inputs, req.output_descs));
    requests.push_back(std::move(req));
    request_node.push_back(t.node());
  }
  // Primitive creation is most of a load: the kernels are prepared on the load's threads.
  auto prepared = PrepareKernels(requests, engines, device->intra_op_threads(), trace);
  for (size_t i = 0; i < prepared.size(); ++i) {
    auto& k = prepared[i];
    const ir::Node* n = nodes[request_node[i]];
    if (!k.ok()) return k.status().WithContext("model " + name + ": InitNodes");
    if ((*k)->num_inputs() != n->num_inputs() || (*k)->num_outputs() != n->num_outputs()) {
      return Internal("node '" + n->name() + "': its kernel has the wrong number of slots");
    }
    if (std::string((*k)->impl_name()) == "ref") ++stats.num_ref_kernels;
    ++stats.impls[(*k)->impl_name()];
    kernels[request_node[i]] = std::move(*k);
  }
  write_versions.assign(nodes.size(), nullptr);
  for (size_t i = 0; i < nodes.size(); ++i) {
    if (!ops::IsAssignOp(*nodes[i]) || nodes[i]->output(0) == nullptr) continue;
    const ValueAddress& out = addresses[index_of.at(nodes[i]->output(0))];
    if (out.segment == proto::SEG_VARIABLE) write_versions[i] = variables->WriteVersion(out.offset);
  }
  for (size_t i = 0; i < nodes.size(); ++i) {
    if (kernels[i] != nullptr) continue;
    // Nodes whose value is memory the loader resolved run nothing: a Variable's in variable memory, a
    // materialized FileConstant's in its mapped weight file, an elided Concat's written by its inputs' producers.
    const ir::Node& n = *nodes[i];
    if (IsNoTaskConcat(n, addresses, index_of)) {
      ++stats.no_task_concats;
      continue;
    }
    const proto::Segment segment = n.num_outputs() == 1 && n.output(0) != nullptr
                                       ? addresses[index_of.at(n.output(0))].segment
                                       : proto::SEG_NONE;
    const bool runs_nothing = (ops::IsOp(n, ops::OpId::kGeVariable) && segment == proto::SEG_VARIABLE) ||
                              (ops::IsOp(n, ops::OpId::kGeFileConstant) && segment == proto::SEG_FILE_CONSTANT);
    if (!runs_nothing) return DataLoss("TASK_INFO: node '" + n.name() + "' has no kernel task");
  }
  return Status::Ok();
}

Status SinkModel::Impl::UploadConstants() {
  constexpr uint64_t kAlign = 64;
  uint64_t total = 0;
  for (const ValueAddress& a : addresses) {
    if (IsConstant(a.segment)) total += (a.size + kAlign - 1) / kAlign * kAlign;
  }
  if (total == 0) return Status::Ok();
  auto mem = device->Malloc(rt::MemType::kDevice, total, kAlign);
  if (!mem.ok()) return mem.status().WithContext("model " + name + ": device memory for constants");
  device_constants = *mem;
  uint64_t offset = 0;
  for (ValueAddress& a : addresses) {
    if (!IsConstant(a.segment)) continue;
    void* dst = static_cast<char*>(device_constants) + offset;
    GE_RETURN_IF_ERROR(device->Memcpy(dst, a.address, a.size, rt::MemcpyKind::kHostToDevice));
    a.address = dst;
    offset += (a.size + kAlign - 1) / kAlign * kAlign;
  }
  return Status::Ok();
}

Status SinkModel::Impl::AllocateStaging(ExecContext& c) {
  auto allocate = [&](const std::vector<IoDesc>& io, std::vector<void*>* out) -> Status {
    for (const IoDesc& d : io) {
      auto mem = device->Malloc(rt::MemType::kDevice, std::max<size_t>(d.size_bytes, 1), 64);
      if (!mem.ok()) return mem.status().WithContext("model " + name + ": staging buffer for '" + d.name + "'");
      out->push_back(*mem);
    }
    return Status::Ok();
  };
  GE_RETURN_IF_ERROR(allocate(inputs, &c.staged_inputs));
  return allocate(outputs, &c.staged_outputs);
}

StatusOr<std::unique_ptr<ExecContext>> SinkModel::Impl::CreateContext(void* feature_map) {
  auto c = std::make_unique<ExecContext>();
  c->feature_map = feature_map;
  std::vector<ir::Node*> nodes = ir->graph->nodes();
  const auto& index_of = value_index;  // from InitNodes; read-only once loaded
  c->bindings.resize(nodes.size());
  if (stage_io) GE_RETURN_IF_ERROR(AllocateStaging(*c));
  // One scratch buffer per stream, as large as its largest kernel's: a context runs one execution at a time and
  // a stream's tasks one after another, so its kernels never use scratch at once (resnet50: 57 scratchpads of
  // 18.9 MB together become one of the largest).
  std::vector<int> stream_of(nodes.size(), -1);
  std::vector<size_t> scratch_bytes(static_cast<size_t>(num_streams), 0);
  for (const proto::TaskDefProto& t : tasks.tasks()) {
    if (t.type() != proto::TaskDefProto::KERNEL || t.stream() < 0 || t.stream() >= num_streams) continue;
    if (t.node() < 0 || static_cast<size_t>(t.node()) >= nodes.size() || kernels[t.node()] == nullptr) continue;
    stream_of[t.node()] = t.stream();
    scratch_bytes[t.stream()] = std::max(scratch_bytes[t.stream()], kernels[t.node()]->scratch_bytes());
  }
  c->device = device;
  c->stream_scratch.assign(static_cast<size_t>(num_streams), nullptr);
  for (int s = 0; s < num_streams; ++s) {
    if (scratch_bytes[s] == 0) continue;
    auto mem = device->Malloc(rt::MemType::kDevice, scratch_bytes[s], 64);
    if (!mem.ok()) return mem.status().WithContext("model " + name + ": kernel scratch");
    c->stream_scratch[s] = *mem;
  }
  for (size_t node = 0; node < nodes.size(); ++node) {
    const ir::Node* n = nodes[node];
    if (kernels[node] == nullptr) continue;  // a Variable or a materialized FileConstant
    void* scratch = stream_of[node] >= 0 ? c->stream_scratch[stream_of[node]] : nullptr;
    GE_ASSIGN_OR_RETURN(c->bindings[node], kernels[node]->NewBinding(scratch));
    exec::KernelIo& io = c->bindings[node]->io;
    const std::string what = "node '" + n->name() + "'";
    for (int i = 0; i < n->num_inputs(); ++i) {
      if (n->input(i) != nullptr) GE_RETURN_IF_ERROR(Resolve(*c, index_of.at(n->input(i)), &io.inputs[i], what));
    }
    for (int i = 0; i < n->num_outputs(); ++i) {
      if (n->output(i) != nullptr) GE_RETURN_IF_ERROR(Resolve(*c, index_of.at(n->output(i)), &io.outputs[i], what));
    }
  }
  GE_RETURN_IF_ERROR(DoTaskSink(*c));
  return c;
}

// A profiled kernel task: the kernel, timed. Tasks of one node never run concurrently, so the entry needs no lock.
Status SinkModel::Impl::RunProfiled(void* args, rt::TaskContext& ctx) {
  auto* p = static_cast<ExecContext::ProfiledTask*>(args);
  const auto t0 = std::chrono::steady_clock::now();
  Status s = p->fn(p->args, ctx);
  const auto t1 = std::chrono::steady_clock::now();
  p->entry->seconds += std::chrono::duration<double>(t1 - t0).count();
  ++p->entry->runs;
  if (p->trace != nullptr) p->trace->AddKernelSlice(p->track, &p->label, p->trace->Since(t0), (t1 - t0).count());
  return s;
}

Status SinkModel::Impl::DoTaskSink(ExecContext& c) {
  GE_ASSIGN_OR_RETURN(c.model, device->CreateModel(name, num_streams));
  for (int e = 0; e < num_events; ++e) GE_RETURN_IF_ERROR(c.model->AddEvent().status());
  rt::Model& model = *c.model;
  for (const proto::TaskDefProto& t : tasks.tasks()) {
    const int s = t.stream();
    if (s < 0 || s >= num_streams) return DataLoss("TASK_INFO: task stream out of range");
    switch (t.type()) {
      case proto::TaskDefProto::KERNEL: {
        exec::KernelBinding* b = c.bindings[t.node()].get();
        if (profile_tasks) {
          const ir::Node* n = ir->graph->nodes()[t.node()];
          profile.push_back(NodeProfile{n->name(), n->op_type(), b->kernel->impl_name(), 0, 0});
          c.profiled.push_back(ExecContext::ProfiledTask{b->kernel->fn(), b, &profile.back(), trace,
                                                         trace::StreamTrack(s), {}});
          if (trace != nullptr) {
            c.profiled.back().label = KernelTraceLabel(*n, b->kernel->impl_name(), "\"stream\":" + std::to_string(s));
          }
          GE_RETURN_IF_ERROR(model.AddKernel(s, RunProfiled, &c.profiled.back()));
        } else {
          GE_RETURN_IF_ERROR(model.AddKernel(s, b->kernel->fn(), b));
        }
        if (std::atomic<uint64_t>* version = write_versions[t.node()]) {
          GE_RETURN_IF_ERROR(model.AddKernel(s, BumpVersionTask, version));
        }
        break;
      }
      case proto::TaskDefProto::MEMCPY: {
        if (t.dst_output() < 0 || static_cast<size_t>(t.dst_output()) >= outputs.size()) {
          return DataLoss("TASK_INFO: memcpy to a bad output index");
        }
        CopyArgs& copy = c.copies.emplace_back();
        copy.bytes = outputs[t.dst_output()].size_bytes;
        GE_RETURN_IF_ERROR(Resolve(c, t.src_value(), &copy.src, "memcpy task"));
        if (addresses[t.src_value()].size != copy.bytes) return DataLoss("TASK_INFO: memcpy size mismatch");
        c.patches.push_back(PatchPoint{&copy.dst, true, t.dst_output()});
        if (c.staged()) copy.dst = c.staged_outputs[t.dst_output()];
        GE_RETURN_IF_ERROR(model.AddKernel(s, CopyTask, &copy));
        break;
      }
      case proto::TaskDefProto::EVENT_RECORD:
      case proto::TaskDefProto::EVENT_WAIT:
        if (t.event() < 0 || t.event() >= num_events) return DataLoss("TASK_INFO: event id out of range");
        GE_RETURN_IF_ERROR(t.type() == proto::TaskDefProto::EVENT_RECORD ? model.AddEventRecord(s, t.event())
                                                                          : model.AddEventWait(s, t.event()));
        break;
      case proto::TaskDefProto::END_GRAPH:
        GE_RETURN_IF_ERROR(model.AddEndGraph(s));
        break;
      default:
        return DataLoss("TASK_INFO: unknown task type " + std::to_string(t.type()));
    }
  }
  Status s = model.Finalize();
  if (!s.ok()) return DataLoss("TASK_INFO: " + s.message());
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
  if (options.max_concurrent_executions < 1) {
    return InvalidArgument("SinkModelOptions::max_concurrent_executions must be at least 1, got " +
                           std::to_string(options.max_concurrent_executions));
  }
  auto impl = std::make_unique<Impl>();
  impl->device = device;
  impl->om = om;
  impl->name = om->header().name;
  trace::TraceRecorder* tr = options.trace;
  trace::TraceScope whole(tr, "SinkModel::Load " + impl->name);
  std::optional<trace::TraceScope> phase(std::in_place, tr, "parse MODEL_DEF, TASK_INFO; IR from the mapping");
  om::ByteSpan def_bytes = om->partition(om::PartitionType::kModelDef);
  om::ByteSpan task_bytes = om->partition(om::PartitionType::kTaskInfo);
  if (def_bytes.empty() || task_bytes.empty()) return DataLoss("the .om lacks MODEL_DEF or TASK_INFO");
  proto::ModelDefProto def;
  if (def_bytes.size > INT32_MAX || !def.ParseFromArray(def_bytes.data, static_cast<int>(def_bytes.size))) {
    return DataLoss("MODEL_DEF does not parse");
  }
  if (task_bytes.size > INT32_MAX ||
      !impl->tasks.ParseFromArray(task_bytes.data, static_cast<int>(task_bytes.size))) {
    return DataLoss("TASK_INFO does not parse");
  }
  if (def.num_streams() < 1 || def.num_streams() > kMaxStreams) {
    return DataLoss("MODEL_DEF: stream count " + std::to_string(def.num_streams()) + " out of range");
  }
  if (def.num_events() < 0 || def.num_events() > kMaxEvents) return DataLoss("MODEL_DEF: event count out of range");
  impl->num_streams = def.num_streams();
  impl->num_events = def.num_events();
  impl->engines = options.engines;
  GE_RETURN_IF_ERROR(CheckTarget(def, impl->engines, &impl->target));
  impl->stats.target = def.target_isa();
  std::unique_ptr<om::WeightSource> weights;
  if (options.const_memory != nullptr) {
    const om::ByteSpan w = om->partition(om::PartitionType::kWeightsData);
    if (options.const_memory_size < w.size || reinterpret_cast<uintptr_t>(options.const_memory) % 64 != 0) {
      return InvalidArgument("constant memory: the model needs " + std::to_string(w.size) +
                             " bytes, 64-byte aligned; got " + std::to_string(options.const_memory_size));
    }
    if (w.size > 0) std::memcpy(options.const_memory, w.data, w.size);
    weights =
        std::make_unique<om::SpanWeightSource>(static_cast<const uint8_t*>(options.const_memory), w.size, nullptr);
  } else {
    weights = om->weights();
  }
  {
    auto m = om::ModelFromProto(def.ir(), weights.get());
    if (!m.ok()) return m.status().WithContext("MODEL_DEF");
    impl->ir = std::move(*m);
  }
  if (impl->ir->graph == nullptr) return DataLoss("MODEL_DEF has no graph");
  phase.emplace(tr, "map external weights (FileConstant)");
  {
    FileConstantStats files;
    Status s = MaterializeFileConstants(*impl->ir->graph, def,
                                        ExternalWeightBaseDir(om->path(), options.external_weight_dir),
                                        options.value_bins, &files);
    if (!s.ok()) return s.WithContext("model " + impl->name);
    impl->stats.num_file_constants = files.tensors;
    impl->stats.external_weights_bytes = files.bytes;
    impl->stats.external_weight_files = std::move(files.files);
  }
  impl->stats.weights_bytes = om->partition(om::PartitionType::kWeightsData).size;
  impl->profile_tasks = options.profile || options.trace != nullptr;
  impl->trace = options.trace;
  for (int st = 0; options.trace != nullptr && st < def.num_streams(); ++st) {
    options.trace->NameTrack(trace::StreamTrack(st), "stream " + std::to_string(st));
  }
  // Profile entries are shared by the tasks of one context: a profiled model runs one execution at a time.
  impl->max_contexts = impl->profile_tasks ? 1 : options.max_concurrent_executions;
  if (impl->profile_tasks) impl->profile.reserve(static_cast<size_t>(impl->tasks.tasks_size()));
  phase.emplace(tr, "InitModelMem");
  GE_RETURN_IF_ERROR(impl->InitModelMem(def, options));
  phase.emplace(tr, "InitVariables");
  GE_RETURN_IF_ERROR(impl->InitVariables(options));
  phase.emplace(tr, "InitIoNodes");
  GE_RETURN_IF_ERROR(impl->InitIoNodes(def));
  GE_RETURN_IF_ERROR(impl->InitIoDescs(def));
  impl->stage_io = !device->HostAccessible(rt::MemType::kDevice);
  if (impl->stage_io) GE_RETURN_IF_ERROR(impl->UploadConstants());
  phase.emplace(tr, "InitNodes: prepare kernels");
  GE_RETURN_IF_ERROR(impl->InitNodes(def));
  // The first context now: the task list is validated at load, and the feature map allocated (or the caller's
  // taken) as before; more contexts come when executions overlap.
  phase.emplace(tr, "DoTaskSink: bindings, task list");
  GE_ASSIGN_OR_RETURN(std::unique_ptr<ExecContext> first, impl->CreateContext(impl->load_feature_map));
  first->default_feature_map = impl->load_feature_map;
  phase.emplace(tr, "allocate the feature map");
  GE_RETURN_IF_ERROR(impl->UseFeatureMap(*first, nullptr));
  phase.reset();
  impl->free_contexts.push_back(first.get());
  impl->contexts.push_back(std::move(first));
  impl->stats.num_streams = def.num_streams();
  impl->stats.num_events = def.num_events();
  impl->stats.num_tasks = static_cast<size_t>(impl->tasks.tasks_size());
  impl->stats.num_zero_copy_slots = impl->contexts.front()->patches.size();
  impl->stats.max_concurrent_executions = impl->max_contexts;
  return std::unique_ptr<SinkModel>(new SinkModel(std::move(impl)));
}

SinkModel::SinkModel(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
SinkModel::~SinkModel() = default;

const std::string& SinkModel::name() const { return impl_->name; }
const std::vector<IoDesc>& SinkModel::inputs() const { return impl_->inputs; }
const std::vector<IoDesc>& SinkModel::outputs() const { return impl_->outputs; }
const SinkModelStats& SinkModel::stats() const { return impl_->stats; }
std::vector<NodeProfile> SinkModel::profile() const { return impl_->profile; }

int SinkModel::num_execution_contexts() const {
  std::lock_guard<std::mutex> lk(impl_->pool_mu);
  return static_cast<int>(impl_->contexts.size());
}

StatusOr<ExecContext*> SinkModel::Impl::Acquire() {
  std::unique_lock<std::mutex> lk(pool_mu);
  for (;;) {
    if (!free_contexts.empty()) {
      ExecContext* c = free_contexts.back();
      free_contexts.pop_back();
      return c;
    }
    if (static_cast<int>(contexts.size()) + creating < max_contexts) break;
    pool_cv.wait(lk);
  }
  ++creating;
  lk.unlock();
  auto made = CreateContext(nullptr);
  lk.lock();
  --creating;
  if (!made.ok()) {
    // Out of memory for another context: run on an existing one when it frees (the pool stays bounded).
    pool_cv.notify_all();
    if (contexts.empty()) return made.status();
    max_contexts = static_cast<int>(contexts.size());
    pool_cv.wait(lk, [this] { return !free_contexts.empty(); });
    ExecContext* c = free_contexts.back();
    free_contexts.pop_back();
    return c;
  }
  if (aborted) (*made)->model->Abort();
  contexts.push_back(std::move(*made));
  return contexts.back().get();
}

void SinkModel::Impl::Release(ExecContext* c) {
  {
    std::lock_guard<std::mutex> lk(pool_mu);
    free_contexts.push_back(c);
  }
  pool_cv.notify_one();
}

Status SinkModel::Impl::Run(const std::vector<DataBuffer>& in, const std::vector<DataBuffer>& out,
                            void* feature_map) {
  GE_ASSIGN_OR_RETURN(ExecContext* c, Acquire());
  Status s = UseFeatureMap(*c, feature_map);
  if (s.ok() && c->staged()) {
    for (size_t i = 0; s.ok() && i < in.size(); ++i) {
      s = device->Memcpy(c->staged_inputs[i], in[i].data, in[i].size, rt::MemcpyKind::kHostToDevice);
    }
  }
  if (s.ok()) {
    c->Bind(in, out);
    s = c->model->Execute();
  }
  if (s.ok() && c->staged()) {
    for (size_t i = 0; s.ok() && i < out.size(); ++i) {
      s = device->Memcpy(out[i].data, c->staged_outputs[i], out[i].size, rt::MemcpyKind::kDeviceToHost);
    }
  }
  Release(c);
  return s;
}

Status SinkModel::Execute(const std::vector<DataBuffer>& inputs, const std::vector<DataBuffer>& outputs) {
  GE_RETURN_IF_ERROR(CheckBuffers(impl_->inputs, inputs, "input"));
  GE_RETURN_IF_ERROR(CheckBuffers(impl_->outputs, outputs, "output"));
  return impl_->Run(inputs, outputs, nullptr);
}

Status SinkModel::ExecuteWithFeatureMap(const std::vector<DataBuffer>& inputs, const std::vector<DataBuffer>& outputs,
                                        void* feature_map, size_t feature_map_size) {
  GE_RETURN_IF_ERROR(CheckBuffers(impl_->inputs, inputs, "input"));
  GE_RETURN_IF_ERROR(CheckBuffers(impl_->outputs, outputs, "output"));
  if (feature_map == nullptr) return InvalidArgument("ExecuteWithFeatureMap: no feature-map memory");
  GE_RETURN_IF_ERROR(CheckFeatureMapMemory(impl_->name, impl_->feature_map_bytes, feature_map, feature_map_size));
  return impl_->Run(inputs, outputs, feature_map);
}

// In stream order: [bind: feature map + IO slots, or copies into the staging buffers] [the model's launch]
// [copies out of the staging buffers] [release the context; runs even after a failure]. The context is taken at
// enqueue, so a caller enqueuing more runs than max_concurrent_executions waits for the stream to finish one.
Status SinkModel::Impl::AsyncBindTask(void* args, rt::TaskContext&) {
  auto* run = static_cast<AsyncRun*>(args);
  GE_RETURN_IF_ERROR(run->impl->UseFeatureMap(*run->context, nullptr));
  run->context->Bind(run->inputs, run->outputs);
  return Status::Ok();
}

Status SinkModel::Impl::AsyncReleaseTask(void* args, rt::TaskContext&) {
  auto* run = static_cast<AsyncRun*>(args);
  Impl* impl = run->impl;
  impl->Release(run->context);
  std::lock_guard<std::mutex> lk(impl->async_mu);
  impl->async_runs.erase(run->self);
  return Status::Ok();
}

Status SinkModel::Impl::EnqueueRun(const std::vector<DataBuffer>& in, const std::vector<DataBuffer>& out,
                                   rt::Stream& stream) {
  GE_ASSIGN_OR_RETURN(ExecContext* c, Acquire());
  AsyncRun* run;
  {
    std::lock_guard<std::mutex> lk(async_mu);
    async_runs.push_back(AsyncRun{this, c, in, out, {}});
    async_runs.back().self = std::prev(async_runs.end());
    run = &async_runs.back();
  }
  Status s = stream.Enqueue(rt::Task{AsyncBindTask, run});
  for (size_t i = 0; s.ok() && c->staged() && i < in.size(); ++i) {
    s = stream.EnqueueMemcpy(c->staged_inputs[i], in[i].data, in[i].size, rt::MemcpyKind::kHostToDevice);
  }
  if (s.ok()) s = c->model->ExecuteAsync(stream);
  for (size_t i = 0; s.ok() && c->staged() && i < out.size(); ++i) {
    s = stream.EnqueueMemcpy(out[i].data, c->staged_outputs[i], out[i].size, rt::MemcpyKind::kDeviceToHost);
  }
  rt::Task release{AsyncReleaseTask, run};
  release.always = true;
  // Once the bind task is queued, the release task must follow it whatever else failed to enqueue.
  Status r = stream.Enqueue(release);
  if (!r.ok()) {
    // Not reached with a live stream (the task has a function); nothing queued can use the context then.
    Release(c);
    std::lock_guard<std::mutex> lk(async_mu);
    async_runs.erase(run->self);
    return r;
  }
  return s;
}

Status SinkModel::ExecuteAsync(const std::vector<DataBuffer>& inputs, const std::vector<DataBuffer>& outputs,
                               rt::Stream& stream) {
  GE_RETURN_IF_ERROR(CheckBuffers(impl_->inputs, inputs, "input"));
  GE_RETURN_IF_ERROR(CheckBuffers(impl_->outputs, outputs, "output"));
  return impl_->EnqueueRun(inputs, outputs, stream);
}

void SinkModel::Abort() {
  std::lock_guard<std::mutex> lk(impl_->pool_mu);
  impl_->aborted = true;
  for (auto& c : impl_->contexts) c->model->Abort();
}

void SinkModel::ResetAbort() {
  std::lock_guard<std::mutex> lk(impl_->pool_mu);
  impl_->aborted = false;
  for (auto& c : impl_->contexts) c->model->ResetAbort();
}

}  // namespace ge::runtime
