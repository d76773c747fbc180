#include "runtime/v2/model_v2.h"

#include <cstdlib>
#include <cstring>
#include <optional>

#include "kernels/builtin_engines.h"
#include "om/ir_om.h"
#include "ops/op_id.h"
#include "var/var_info.h"
#include "runtime/v2/kernels/compute_record.h"
#include "runtime/v2/kernels/node_data.h"
#include "runtime/v2/allocator_front.h"
#include "runtime/v2/arena_allocator.h"
#include "runtime/v2/caching_allocator.h"
#include "runtime/v2/multi_thread_executor.h"
#include "runtime/v2/simple_allocator.h"

namespace ge::runtime::v2 {
namespace {

std::string RangeText(const DimRange& r) {
  return std::to_string(r.lo) + "~" + (r.hi < 0 ? std::string("") : std::to_string(r.hi));
}

Status CheckInput(const Value& v, const ir::Value& decl, const std::vector<DimRange>* ranges) {
  const TensorDesc& d = decl.desc();
  const std::string what = "input '" + decl.name() + "'";
  if (!IsPlainTensorDesc(d)) {
    if (d.kind == ValueKind::kSequence && !v.is_sequence()) return InvalidArgument(what + ": expected a sequence");
    if (d.kind == ValueKind::kTensor && !v.is_tensor()) return InvalidArgument(what + ": expected a tensor");
    return Status::Ok();
  }
  if (!v.is_tensor() || !v.tensor.valid()) return InvalidArgument(what + ": expected a tensor");
  const Tensor& t = v.tensor;
  if (t.dtype() != d.dtype) {
    return InvalidArgument(what + ": expected dtype " + DataTypeName(d.dtype) + ", got " + DataTypeName(t.dtype()));
  }
  if (t.rank() > kMaxRtRank) {
    return InvalidArgument(what + ": rank " + std::to_string(t.rank()) + " is above runtime v2's limit of " +
                           std::to_string(kMaxRtRank));
  }
  if (!d.shape.unknown_rank()) {
    bool ok = t.rank() == d.shape.rank();
    for (int i = 0; ok && i < t.rank(); ++i) ok = d.shape.dim(i) < 0 || d.shape.dim(i) == t.dim(i);
    if (!ok) {
      return InvalidArgument(what + ": expected shape " + d.shape.ToString() + ", got " + DimsToString(t.dims()));
    }
  }
  if (ranges != nullptr) {
    for (int i = 0; i < t.rank() && i < static_cast<int>(ranges->size()); ++i) {
      const DimRange& r = (*ranges)[i];
      if (t.dim(i) < r.lo || (r.hi >= 0 && t.dim(i) > r.hi)) {
        return OutOfRange(what + ": dim " + std::to_string(i) + " is " + std::to_string(t.dim(i)) +
                          ", outside the range " + RangeText(r) + " the model was compiled for (shape " +
                          DimsToString(t.dims()) + ")");
      }
    }
  }
  return Status::Ok();
}

// IoDescs of numeric tensors of known rank (an unknown dim is kUnknownDim, size_bytes 0, and *dynamic says why the
// buffer form cannot run); anything else (sequences, strings, unknown rank) is left out and *unsupported says so.
StatusOr<std::vector<IoDesc>> Describe(const std::vector<const ir::Value*>& values, const char* what,
                                       std::string* dynamic, std::string* unsupported) {
  std::vector<IoDesc> out;
  for (const ir::Value* v : values) {
    const TensorDesc& d = v->desc();
    if (!IsPlainTensorDesc(d) || d.shape.unknown_rank()) {
      if (unsupported->empty()) {
        *unsupported = std::string(what) + " '" + v->name() + "' is " + d.ToString() +
                       ", not a numeric tensor of known rank";
      }
      continue;
    }
    if (!d.shape.IsFullyKnown()) {
      if (dynamic->empty()) *dynamic = std::string(what) + " '" + v->name() + "' (" + d.ToString() + ") has unknown dims";
      out.push_back(IoDesc{v->name(), d, 0});
      continue;
    }
    GE_ASSIGN_OR_RETURN(int64_t n, StorageNumElements(d.shape.dims(), d.format));
    out.push_back(IoDesc{v->name(), d, static_cast<size_t>(n) * DataTypeSize(d.dtype)});
  }
  return out;
}

}  // namespace

Status ModelV2Options::ApplyGeOptions(const std::map<std::string, std::string>& options) {
  auto it = options.find("ge.exec.v2Executor");
  if (it != options.end()) {
    GE_ASSIGN_OR_RETURN(executor, ParseExecutorKind(it->second));
  }
  it = options.find("ge.exec.v2KernelCacheCapacity");
  if (it != options.end()) {
    char* end = nullptr;
    const long long v = std::strtoll(it->second.c_str(), &end, 10);
    if (it->second.empty() || *end != '\0' || v < 1 || v > 4096) {
      return InvalidArgument("option ge.exec.v2KernelCacheCapacity must be 1..4096, got '" + it->second + "'");
    }
    kernel_cache_capacity = static_cast<size_t>(v);
  }
  it = options.find("ge.exec.v2ShapeAgnosticKernels");
  if (it != options.end()) {
    if (it->second != "0" && it->second != "1") {
      return InvalidArgument("option ge.exec.v2ShapeAgnosticKernels must be 0 or 1, got '" + it->second + "'");
    }
    shape_agnostic_kernels = it->second == "1";
  }
  it = options.find("ge.exec.staticMemoryPolicy");
  if (it != options.end()) {
    GE_RETURN_IF_ERROR(OverCapPolicyFromStaticMemoryPolicy(it->second).status());
    static_memory_policy = it->second;
  }
  it = options.find("ge.exec.v2StaticIslandMinNodes");
  if (it != options.end()) {
    char* end = nullptr;
    const long long v = std::strtoll(it->second.c_str(), &end, 10);
    if (it->second.empty() || *end != '\0' || v < 0) {
      return InvalidArgument("option ge.exec.v2StaticIslandMinNodes must be >= 0, got '" + it->second + "'");
    }
    static_island_min_nodes = static_cast<size_t>(v);
  }
  return Status::Ok();
}

StatusOr<std::unique_ptr<ModelV2>> ModelV2::Load(std::unique_ptr<ir::Model> model, const ModelV2Options& options,
                                                 std::string name, std::shared_ptr<const void> keep_alive) {
  return Create(std::move(model), options, std::move(name), std::move(keep_alive), nullptr, nullptr, {});
}

StatusOr<std::unique_ptr<ModelV2>> ModelV2::Create(std::unique_ptr<ir::Model> model, const ModelV2Options& options,
                                                   std::string name, std::shared_ptr<const void> keep_alive,
                                                   std::unique_ptr<ExecutePlan> plan,
                                                   std::unique_ptr<StaticIslands> islands,
                                                   om::ByteSpan var_info) {
  if (model == nullptr || model->graph == nullptr) return InvalidArgument("ModelV2::Load: no model");
  auto m = std::unique_ptr<ModelV2>(new ModelV2);
  m->keep_alive_ = std::move(keep_alive);
  m->name_ = name.empty() ? model->graph->name() : std::move(name);
  m->owned_model_ = std::move(model);
  m->plan_ = std::move(plan);
  m->islands_ = std::move(islands);
  GE_RETURN_IF_ERROR(m->Init(options, var_info));
  return m;
}

StatusOr<std::unique_ptr<ModelV2>> ModelV2::Load(std::shared_ptr<const om::OmReader> om,
                                                 const ModelV2Options& options) {
  if (om == nullptr) return InvalidArgument("ModelV2::Load: null reader");
  if (!om::IsIrModelType(om->header().model_type)) {
    return FailedPrecondition("the .om is not an IR model (model type " +
                              std::to_string(static_cast<int>(om->header().model_type)) + ")");
  }
  trace::TraceScope whole(options.trace, "ModelV2::Load " + om->header().name);
  std::optional<trace::TraceScope> read(std::in_place, options.trace, "read the IR, plan and islands from the .om");
  GE_ASSIGN_OR_RETURN(std::unique_ptr<ir::Model> model, om::ReadIrOm(*om));
  if (model->graph == nullptr) return DataLoss("the IR model has no graph");
  std::unique_ptr<ExecutePlan> plan;
  if (om->header().model_type == om::OmModelType::kLowered) {
    if (!om->has(om::PartitionType::kExecutePlan)) return DataLoss("the lowered .om has no EXECUTE_PLAN partition");
    om::ByteSpan bytes = om->partition(om::PartitionType::kExecutePlan);
    GE_ASSIGN_OR_RETURN(ExecutePlan p, ParseExecutePlan(bytes.data, bytes.size));
    plan = std::make_unique<ExecutePlan>(std::move(p));
  }
  // Static islands `ge compile` formed (hybrid execution): loaded here, no compiler needed.
  std::unique_ptr<StaticIslands> islands;
  if (om->has(om::PartitionType::kStaticIslands)) {
    if (om->header().model_type != om::OmModelType::kLowered) return DataLoss("STATIC_ISLANDS in a non-lowered .om");
    om::ByteSpan bytes = om->partition(om::PartitionType::kStaticIslands);
    GE_ASSIGN_OR_RETURN(islands, LoadStaticIslands(bytes.data, bytes.size, options.device));
  }
  read.reset();
  std::string name = om->header().name;
  const om::ByteSpan var_info = om->partition(om::PartitionType::kVarInfo);  // the bytes live as long as |om|
  return Create(std::move(model), options, std::move(name), std::move(om), std::move(plan), std::move(islands),
                var_info);
}

namespace {

void CollectVariables(const ir::Graph& g, std::vector<const ir::Node*>* out) {
  for (const ir::Node* n : g.nodes()) {
    if (ops::IsOp(*n, ops::OpId::kGeVariable)) out->push_back(n);
    for (const auto& [attr, sub] : n->subgraphs()) {
      if (sub != nullptr) CollectVariables(*sub, out);
    }
  }
}

}  // namespace

Status ModelV2::InitVariables(const ModelV2Options& options, om::ByteSpan var_info) {
  std::vector<const ir::Node*> nodes;
  CollectVariables(*owned_model_->graph, &nodes);
  if (nodes.empty()) return Status::Ok();
  const std::string what = "model '" + name_ + "'";
  variables_ = options.variables;
  if (variables_ == nullptr) {
    if (options.device == nullptr) {
      return FailedPrecondition(what + " has variables: it needs a device for their memory (ModelV2Options::device)");
    }
    if (var_info.empty()) {
      return FailedPrecondition(what + " has variables but no VAR_INFO placing them: compile it with `ge compile` "
                                "or run it in a session");
    }
    variables_ = std::make_shared<var::VarManager>(/*session_id=*/0, options.device);
    GE_RETURN_IF_ERROR(variables_->Init(var::VarManagerOptions()));
  }
  if (!var_info.empty()) {
    Status s = var::RestoreVarInfo(var_info.data, var_info.size, variables_.get());
    if (!s.ok()) return s.WithContext(what + ": VAR_INFO");
  }
  for (const ir::Node* n : nodes) {
    const Tensor* init = n->attrs().GetTensor("_init_value");
    if (init == nullptr) continue;
    Status s = variables_->SetInitValue(n->name(), *init);
    if (!s.ok()) return s.WithContext(what + ": variable '" + n->name() + "'");
  }
  variable_store_ = std::make_unique<SessionVariables>(variables_);
  return Status::Ok();
}

Status ModelV2::Init(const ModelV2Options& options, om::ByteSpan var_info) {
  if (options.max_concurrent_executions < 1) {
    return InvalidArgument("ModelV2Options::max_concurrent_executions must be at least 1, got " +
                           std::to_string(options.max_concurrent_executions));
  }
  options_ = options;
  trace::TraceRecorder* tr = options.trace;
  trace::TraceScope whole(tr, "ModelV2::Init " + name_);
  std::optional<trace::TraceScope> phase(std::in_place, tr, "InitVariables");
  GE_RETURN_IF_ERROR(InitVariables(options, var_info));
  phase.emplace(tr, "static islands");
  LoweringOptions& lo = lowering_;
  lo.variables = variable_store_.get();
  lo.engines = options.engines.empty() ? kernels::BuiltinEngines() : options.engines;
  lo.settings.seed = options.seed;
  lo.settings.intra_op_threads = options.intra_op_threads < 1 ? 1 : options.intra_op_threads;
  lo.kernel_cache_capacity = options.kernel_cache_capacity;
  lo.shape_agnostic_kernels = options.shape_agnostic_kernels;
  lo.fuse_compute = options.executor != ExecutorKind::kMultiThread;
  if (islands_ != nullptr) {
    // The .om's islands: formed before the plan was made, so the plan holds.
    lo.plan = plan_.get();
  } else {
    StaticIslandOptions so{options.compile_static_island, options.static_island_min_nodes, options.device};
    GE_ASSIGN_OR_RETURN(islands_, FormStaticIslands(*owned_model_, so));
    // Islands formed now rewrote the IR the plan was made for: lowering decides then.
    if (plan_ != nullptr && islands_->islands.empty()) lo.plan = plan_.get();
  }
  lo.islands = islands_.get();
  phase.reset();
  GE_ASSIGN_OR_RETURN(std::unique_ptr<ExecutionContext> first, MakeContext(/*first=*/true));
  const LoweredModel& lowered = *first->lowered;
  ir_inputs_ = lowered.main.ir_inputs;
  ir_outputs_ = lowered.main.ir_outputs;
  lowering_stats_ = lowered.stats;
  lowered_plan_ = lowered.plan;
  // A profiled or traced model runs one execution at a time: its timings and timeline are the first context's.
  const bool observed = options.profile || tr != nullptr;
  const size_t max = observed ? 1 : static_cast<size_t>(options.max_concurrent_executions);
  contexts_ = std::make_unique<ContextPool>(max, [this] { return MakeContext(/*first=*/false); });
  contexts_->Add(std::move(first));
  ranges_ = owned_model_->input_ranges;
  for (const auto& [input, r] : options.input_ranges) ranges_[input] = r;
  for (const ir::Value* v : ir_inputs_) {
    auto it = ranges_.find(v->name());
    input_ranges_.push_back(it == ranges_.end() ? nullptr : &it->second);
  }
  for (const auto& [input, r] : ranges_) {
    bool found = false;
    for (const ir::Value* v : ir_inputs_) found = found || v->name() == input;
    if (!found) return InvalidArgument("a dim range names '" + input + "', which is not an input of the model");
  }
  GE_ASSIGN_OR_RETURN(io_inputs_, Describe(ir_inputs_, "input", &dynamic_reason_, &unsupported_io_));
  GE_ASSIGN_OR_RETURN(io_outputs_, Describe(ir_outputs_, "output", &dynamic_reason_, &unsupported_io_));
  return Status::Ok();
}

StatusOr<std::unique_ptr<ExecutionContext>> ModelV2::MakeContext(bool first) {
  const ModelV2Options& options = options_;
  trace::TraceRecorder* tr = first ? options.trace : nullptr;
  std::optional<trace::TraceScope> phase(std::in_place, tr, "lowering to Init / Main / DeInit");
  auto c = std::make_unique<ExecutionContext>();
  GE_ASSIGN_OR_RETURN(c->lowered, LowerModel(*owned_model_, lowering_));
  LoweredModel& lowered = *c->lowered;
  if (options.device != nullptr) {
    CachingAllocatorOptions ca;
    GE_ASSIGN_OR_RETURN(ca.over_cap, OverCapPolicyFromStaticMemoryPolicy(options.static_memory_policy));
    // Values up to 4 KiB by size class; larger ones from the arena's segments (arena_allocator.h: under shape
    // churn the memory it holds follows the largest run, not the number of shapes).
    ArenaAllocatorOptions arena;
    arena.mem_type = ca.mem_type;
    c->allocator =
        std::make_unique<ArenaAllocator>(options.device, std::make_unique<CachingAllocator>(options.device, ca), arena);
  } else {
    c->allocator = std::make_unique<SimpleAllocator>();
  }
  // Single-thread executors (one execution at a time per context): a lock-free front for small blocks.
  if (options.executor != ExecutorKind::kMultiThread) {
    // It keeps only blocks the arena does not serve: a kept block would pin an arena segment across runs.
    c->allocator = std::make_unique<AllocatorFront>(std::move(c->allocator), ArenaAllocatorOptions().min_bytes);
  }
  lowered.state.allocator = c->allocator.get();
  lowered.state.front = dynamic_cast<AllocatorFront*>(c->allocator.get());
  c->arena = dynamic_cast<ArenaAllocator*>(lowered.state.front != nullptr ? lowered.state.front->backing()
                                                                          : c->allocator.get());
  lowered.state.stop = &stop_;
  lowered.state.pool = options.pool;
  phase.emplace(tr, "run the Init graph (constants, static kernels)");
  {
    GE_ASSIGN_OR_RETURN(std::unique_ptr<Executor> init,
                        CreateExecutor(ExecutorKind::kSequential, lowered.init.get(), &lowered.state));
    Status s = init->Run();
    if (!s.ok()) return s.WithContext("model '" + name_ + "': Init");
  }
  lowered.init.reset();  // run once, then dropped
  phase.emplace(tr, "create the Main executor");
  if (tr != nullptr) {
    trace_labels_ = std::make_unique<KernelTraceLabels>(lowered.main.graph.get());
    tracer_ = KernelTracer{tr, trace::WorkerTrack(0), trace_labels_.get()};
    tr->NameTrack(tracer_.track, "executor worker 0");
  }
  if (tr != nullptr && options.executor == ExecutorKind::kMultiThread) {
    // Traced on its own workers, a track each (as CreateExecutor builds it, plus the tracer).
    tr->NameTrack(tracer_.track, "executor worker 0 (caller)");
    MultiThreadOptions mt;
    mt.launch_threads = options.executor_threads;
    mt.memory_threads = 1;
    mt.tracer = &tracer_;
    GE_ASSIGN_OR_RETURN(c->executor, CreateMultiThreadExecutor(lowered.main.graph.get(), &lowered.state, mt));
  } else if (first && (options.profile || tr != nullptr)) {
    c->executor = CreateProfilingExecutor(lowered.main.graph.get(), &lowered.state, &node_times_,
                                          tr != nullptr ? &tracer_ : nullptr);
  } else {
    GE_ASSIGN_OR_RETURN(c->executor, CreateExecutor(options.executor, lowered.main.graph.get(), &lowered.state,
                                                    options.executor_threads));
  }
  return c;
}

ModelV2::~ModelV2() { Unload().IgnoreError(); }

Status ModelV2::Unload() {
  std::lock_guard<std::mutex> lk(unload_mu_);
  if (unloaded_) return Status::Ok();
  unloaded_ = true;
  if (contexts_ == nullptr) return Status::Ok();
  contexts_->Close();  // waits for running executions
  Status s;
  contexts_->ForEach([&s](ExecutionContext& c) {
    if (c.lowered != nullptr && c.lowered->deinit != nullptr) {
      auto deinit = CreateExecutor(ExecutorKind::kSequential, c.lowered->deinit.get(), &c.lowered->state);
      Status d = deinit.ok() ? (*deinit)->Run() : deinit.status();
      if (s.ok()) s = d;
    }
    c.executor.reset();
    c.lowered.reset();
  });
  return s;
}

ModelV2::MemoryStats ModelV2::memory_stats() const {
  MemoryStats m;
  if (contexts_ == nullptr) return m;
  contexts_->ForEach([&m](ExecutionContext& c) {
    const Allocator* a = c.allocator.get();
    if (const auto* front = dynamic_cast<const AllocatorFront*>(a)) {
      m.front_held_bytes += front->held_bytes();
      a = front->backing();
    }
    if (c.arena != nullptr) {
      const ArenaAllocatorStats s = c.arena->stats();
      m.arena_bytes += s.segment_bytes;
      m.arena_touched_bytes += s.touched_bytes;
      m.arena_in_use_bytes += s.in_use_bytes;
      m.arena_peak_in_use_bytes += s.peak_in_use_bytes;
      m.arena_peak_bytes += s.peak_segment_bytes;
      m.arena_segments += s.segments;
      a = c.arena->small();
    }
    if (const auto* caching = dynamic_cast<const CachingAllocator*>(a)) {
      const CachingAllocatorStats s = caching->stats();
      m.cap_bytes += s.cap_bytes;
      m.in_use_bytes += s.in_use_bytes;
      m.cached_bytes += s.cached_bytes;
      m.peak_total_bytes += s.peak_total_bytes;
    }
    if (c.lowered != nullptr && c.lowered->main.graph != nullptr) {
      const ExecuteGraph& g = *c.lowered->main.graph;
      for (size_t i = 0; i < g.num_nodes(); ++i) {
        const ExecNode& node = g.node(static_cast<uint32_t>(i));
        if (node.fn == LaunchKernel) {
          m.cached_kernels += static_cast<const ComputeNode*>(node.ctx.node_data)->run.cache.size();
        }
        if (node.fn == ComputeKernel) {
          m.cached_kernels += static_cast<const ComputeRecord*>(node.ctx.node_data)->node->run.cache.size();
        }
      }
    }
  });
  return m;
}

uint64_t ModelV2::kernels_prepared() const {
  uint64_t n = 0;
  if (contexts_ == nullptr) return 0;
  contexts_->ForEach([&n](ExecutionContext& c) {
    if (c.lowered == nullptr || c.lowered->main.graph == nullptr) return;
    const ExecuteGraph& g = *c.lowered->main.graph;
    for (size_t i = 0; i < g.num_nodes(); ++i) {
      const ExecNode& node = g.node(static_cast<uint32_t>(i));
      if (node.fn == LaunchKernel) n += static_cast<const ComputeNode*>(node.ctx.node_data)->run.prepares;
      if (node.fn == ComputeKernel) n += static_cast<const ComputeRecord*>(node.ctx.node_data)->node->run.prepares;
    }
  });
  return n;
}

uint64_t ModelV2::inplace_takes() const {
  uint64_t n = 0;
  if (contexts_ != nullptr) {
    contexts_->ForEach([&n](ExecutionContext& c) { n += c.lowered != nullptr ? c.lowered->state.inplace_takes : 0; });
  }
  return n;
}

std::vector<runtime::NodeProfile> ModelV2::profile() const {
  std::vector<runtime::NodeProfile> out;
  for (const NodeProfile& p : Profile()) {
    out.push_back(runtime::NodeProfile{p.kernel, p.op_type, p.impl, p.seconds, p.runs});
  }
  return out;
}

bool ModelV2::memory_stats(ModelMemoryStats* stats) const {
  const MemoryStats m = memory_stats();
  stats->allocator_cap = m.cap_bytes;
  stats->allocator_cached = m.cached_bytes;
  stats->allocator_in_use = m.in_use_bytes;
  stats->allocator_peak_total = m.peak_total_bytes;
  stats->front_held = m.front_held_bytes;
  stats->arena = m.arena_bytes;
  stats->arena_touched = m.arena_touched_bytes;
  stats->arena_in_use = m.arena_in_use_bytes;
  stats->arena_peak_in_use = m.arena_peak_in_use_bytes;
  stats->arena_peak = m.arena_peak_bytes;
  stats->arena_segments = m.arena_segments;
  stats->cached_kernels = m.cached_kernels;
  return true;
}

std::vector<ModelV2::NodeProfile> ModelV2::Profile() const {
  std::vector<NodeProfile> out;
  // Profiled models have one context (the one whose executor times into node_times_).
  if (contexts_ == nullptr) return out;
  contexts_->ForEach([&](ExecutionContext& c) {
    if (c.lowered == nullptr || c.lowered->main.graph == nullptr || node_times_.runs.empty() || !out.empty()) return;
    ProfileContext(c, &out);
  });
  return out;
}

void ModelV2::ProfileContext(const ExecutionContext& context, std::vector<NodeProfile>* profile) const {
  std::vector<NodeProfile>& out = *profile;
  const ExecuteGraph& g = *context.lowered->main.graph;
  for (size_t i = 0; i < g.num_nodes() && i < node_times_.runs.size(); ++i) {
    const ExecNode& node = g.node(static_cast<uint32_t>(i));
    NodeProfile p;
    p.kernel = node.name;
    p.seconds = static_cast<double>(node_times_.nanoseconds[i]) * 1e-9;
    p.runs = node_times_.runs[i];
    const ComputeNode* c = nullptr;
    if (node.fn == ComputeKernel) c = static_cast<const ComputeRecord*>(node.ctx.node_data)->node;
    if (node.fn == LaunchKernel) c = static_cast<const ComputeNode*>(node.ctx.node_data);
    if (c != nullptr && c->node != nullptr) {
      const PreparedEntry* e = c->run.current;
      p.op_type = c->node->op_type();
      p.impl = c->memo ? "shape-derived" : e != nullptr && e->kernel != nullptr ? e->kernel->impl_name() : "ref";
    } else if (node.fn == RefKernel) {
      const RefNode& r = *static_cast<const RefNode*>(node.ctx.node_data);
      p.op_type = r.node != nullptr ? r.node->op_type() : "";
      p.impl = "ref";
    } else {
      const size_t slash = node.name.rfind('/');
      p.op_type = slash == std::string::npos ? node.name : node.name.substr(slash + 1);
      p.impl = "runtime";
    }
    out.push_back(std::move(p));
  }
}

uint64_t ModelV2::memo_skips() const {
  uint64_t n = 0;
  if (contexts_ == nullptr) return 0;
  contexts_->ForEach([&n](ExecutionContext& c) {
    if (c.lowered == nullptr) return;
    for (const ComputeNode* node : c.lowered->memo_nodes) n += node->run.memo_skips;
  });
  return n;
}

Status ModelV2::CheckInputs(const std::vector<Value>& inputs) const {
  if (inputs.size() != ir_inputs_.size()) {
    return InvalidArgument("model '" + name_ + "' has " + std::to_string(ir_inputs_.size()) + " inputs, got " +
                           std::to_string(inputs.size()));
  }
  for (size_t i = 0; i < inputs.size(); ++i) {
    GE_RETURN_IF_ERROR(CheckInput(inputs[i], *ir_inputs_[i], input_ranges_[i]));
  }
  return Status::Ok();
}

Status ModelV2::Execute(const std::vector<Value>& inputs, std::vector<Value>* outputs) {
  return ExecuteOn(nullptr, inputs, outputs);
}

Status ModelV2::ExecuteOn(const void* affinity, const std::vector<Value>& inputs, std::vector<Value>* outputs) {
  StatusOr<ContextPool::Lease> context = contexts_->Acquire(affinity);
  if (!context.ok()) {
    if (context.status().code() == StatusCode::kFailedPrecondition) {
      return FailedPrecondition("model '" + name_ + "' was unloaded");
    }
    return context.status().WithContext("model '" + name_ + "': a context for a concurrent execution");
  }
  if (stop_.load()) return Aborted("model '" + name_ + "' was aborted");
  ExecutionContext& c = **context;
  Status s = CheckInputs(inputs);
  if (s.ok()) s = c.BindInputs(inputs);
  if (s.ok()) s = c.executor->Run();
  if (s.ok()) s = c.CollectOutputs(outputs);
  c.ReleaseRun(!s.ok());
  return s;
}

Status ModelV2::ExecuteTensors(const std::vector<Tensor>& inputs, std::vector<Tensor>* outputs) {
  if (!unsupported_io_.empty()) return FailedPrecondition("model '" + name_ + "': " + unsupported_io_);
  std::vector<Value> in, out;
  in.reserve(inputs.size());
  for (const Tensor& t : inputs) in.emplace_back(t);
  // The caller's tensors move in, so that Execute may reuse their storage, and back out.
  out.reserve(outputs->size());
  for (Tensor& t : *outputs) out.emplace_back(std::move(t));
  Status s = Execute(in, &out);
  outputs->resize(out.size());
  for (size_t i = 0; i < out.size(); ++i) (*outputs)[i] = out[i].is_tensor() ? std::move(out[i].tensor) : Tensor();
  return s;
}

Status ModelV2::Execute(const std::vector<DataBuffer>& inputs, const std::vector<DataBuffer>& outputs) {
  return ExecuteBuffersOn(nullptr, inputs, outputs);
}

Status ModelV2::ExecuteBuffersOn(const void* affinity, const std::vector<DataBuffer>& inputs,
                                 const std::vector<DataBuffer>& outputs) {
  if (!unsupported_io_.empty()) return FailedPrecondition("model '" + name_ + "': " + unsupported_io_);
  if (!dynamic_reason_.empty()) {
    return FailedPrecondition("model '" + name_ + "': " + dynamic_reason_ + "; fixed-size buffers need fixed shapes (run it with tensors)");
  }
  GE_RETURN_IF_ERROR(CheckBuffers(io_inputs_, inputs, "input"));
  GE_RETURN_IF_ERROR(CheckBuffers(io_outputs_, outputs, "output"));
  std::vector<Value> in;
  in.reserve(inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i) {
    auto storage = TensorStorage::Borrow(const_cast<void*>(inputs[i].data), inputs[i].size, nullptr);
    in.emplace_back(Tensor(io_inputs_[i].desc.dtype, io_inputs_[i].desc.shape.dims(), std::move(storage)));
  }
  std::vector<Value> out(outputs.size());
  for (size_t i = 0; i < outputs.size(); ++i) {
    auto storage = TensorStorage::Borrow(outputs[i].data, outputs[i].size, nullptr);
    out[i] = Value(Tensor(io_outputs_[i].desc.dtype, io_outputs_[i].desc.shape.dims(), std::move(storage)));
  }
  GE_RETURN_IF_ERROR(ExecuteOn(affinity, in, &out));
  for (size_t i = 0; i < outputs.size(); ++i) {
    const Tensor& t = out[i].tensor;
    if (!out[i].is_tensor() || t.dtype() != io_outputs_[i].desc.dtype || t.nbytes() != outputs[i].size) {
      return Internal("model '" + name_ + "': output '" + io_outputs_[i].name + "' came out as " +
                      std::to_string(t.nbytes()) + " bytes, not as described");
    }
    if (t.raw_data() != outputs[i].data && t.nbytes() != 0) std::memcpy(outputs[i].data, t.raw_data(), t.nbytes());
  }
  return Status::Ok();
}

namespace {

struct StreamRun {
  ModelV2* model;
  std::vector<DataBuffer> inputs, outputs;
  const rt::Stream* stream;
};

}  // namespace

Status ModelV2::ExecuteAsync(const std::vector<DataBuffer>& inputs, const std::vector<DataBuffer>& outputs,
                             rt::Stream& stream) {
  if (!dynamic_reason_.empty() || !unsupported_io_.empty()) {
    return FailedPrecondition("model '" + name_ + "': " + (unsupported_io_.empty() ? dynamic_reason_ : unsupported_io_) +
                              "; fixed-size buffers need fixed shapes (run it with tensors)");
  }
  GE_RETURN_IF_ERROR(CheckBuffers(io_inputs_, inputs, "input"));
  GE_RETURN_IF_ERROR(CheckBuffers(io_outputs_, outputs, "output"));
  // The stream's runs prefer the context its previous run used (seed 002 §4.5: an executor instance per stream).
  auto* run = new StreamRun{this, inputs, outputs, &stream};
  Status s = stream.Enqueue(rt::Task{[](void* args, rt::TaskContext& ctx) -> Status {
                                       std::unique_ptr<StreamRun> r(static_cast<StreamRun*>(args));
                                       if (ctx.Stopped())
                                         return Aborted("model '" + r->model->name() + "': the stream was stopped");
                                       return r->model->ExecuteBuffersOn(r->stream, r->inputs, r->outputs);
                                     },
                                     run});
  if (!s.ok()) delete run;
  return s;
}

}  // namespace ge::runtime::v2
