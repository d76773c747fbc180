#include "runtime/v2/lowering/lowering.h"

#include <algorithm>
#include <queue>
#include <set>

#include "kernels/ref/kernel_registry.h"
#include "runtime/v2/kernels/node_data.h"
#include "runtime/v2/lowering/converters.h"
#include "runtime/v2/lowering/static_island.h"

namespace ge::runtime::v2 {

bool IsPlainTensorDesc(const TensorDesc& d) {
  return d.kind == ValueKind::kTensor && d.dtype != DataType::kUndefined && d.dtype != DataType::kString;
}

namespace {

bool DefinesName(const ir::Graph& g, const std::string& name) {
  const ir::Value* v = g.FindValue(name);
  return v != nullptr && !v->is_capture();
}

void CollectFreeNames(const ir::Graph& g, std::set<std::string>* out) {
  for (const ir::Value* v : g.values()) {
    if (v->is_capture()) out->insert(v->name());
  }
  for (const ir::Node* n : g.nodes()) {
    for (const auto& [attr, sub] : n->subgraphs()) {
      std::set<std::string> inner;
      CollectFreeNames(*sub, &inner);
      for (const std::string& name : inner) {
        if (!DefinesName(g, name)) out->insert(name);
      }
    }
  }
}

// The enclosing values a node's subgraphs read, by name, in a fixed order.
std::vector<std::string> NodeFreeNames(const ir::Node& n) {
  std::set<std::string> names;
  for (const auto& [attr, sub] : n.subgraphs()) CollectFreeNames(*sub, &names);
  return std::vector<std::string>(names.begin(), names.end());
}

}  // namespace

std::vector<std::string> FreeNames(const ir::Graph& g) {
  std::set<std::string> names;
  CollectFreeNames(g, &names);
  return std::vector<std::string>(names.begin(), names.end());
}

// Memory kernels run in the multi-thread executor's memory section (one worker: they never overlap each other);
// FreeMemory before anything else that is ready (memory goes back before new allocations take more).
static void TagForExecutors(ExecNode* node) {
  if (node->fn == AllocMemoryKernel || node->fn == FreeMemoryKernel) node->section = CriticalSection::kMemory;
  node->priority = node->fn == FreeMemoryKernel ? 1 : 0;
}

// ---- NodeLowering

uint32_t NodeLowering::AddMain(KernelFn fn, const char* kind, const std::vector<ChainRef>& in, uint32_t num_outputs,
                               std::shared_ptr<const void> data) {
  ++model().out().stats.main_nodes;
  const uint32_t id = scope_->graph().AddNode(fn, node_->name() + "/" + kind, in, num_outputs, std::move(data));
  TagForExecutors(&scope_->graph().node(id));
  return id;
}

uint32_t NodeLowering::AddInit(KernelFn fn, const char* kind, std::shared_ptr<const void> data) {
  ++model().out().stats.init_nodes;
  return model().init().AddNode(fn, node_->name() + "/" + kind, {}, 0, std::move(data));
}

void NodeLowering::SetOutput(int i, ChainRef chain, bool is_static) {
  const ir::Value* v = node_->output(i);
  if (v == nullptr) return;
  scope_->Define(v, chain, is_static);
}

std::vector<ChainRef> NodeLowering::InputChains(bool with_captures) const {
  std::vector<ChainRef> out;
  for (const ValueRef& r : inputs_) {
    if (r.slot != nullptr) out.push_back(r.chain);
  }
  if (with_captures) {
    for (const ValueRef& r : captures_) out.push_back(r.chain);
  }
  return out;
}

// ---- ModelLowering

ValueSlot* ModelLowering::NewSlot(const ir::Value* v) { return NewSlot(v, v->desc()); }

ValueSlot* ModelLowering::NewSlot(const ir::Value* v, const TensorDesc& d) {
  auto s = std::make_unique<ValueSlot>();
  s->name = v->name();
  s->boxed_kind = !IsPlainTensorDesc(d);
  if (!s->boxed_kind) s->t.dtype = d.dtype;
  out_->slots.push_back(std::move(s));
  return out_->slots.back().get();
}

int64_t ModelLowering::OpsetFor(const std::string& domain) const {
  const int64_t v = model_.OpsetFor(domain);
  return v > 0 ? v : 1;
}

Status ModelLowering::LowerSubgraph(const ir::Graph& g, GraphScope* parent, LoweredGraph* out) {
  out->graph = std::make_unique<ExecuteGraph>();
  GraphScope scope(this, &g, parent, out);
  GE_RETURN_IF_ERROR(scope.Lower());
  GE_ASSIGN_OR_RETURN(out->executor, CreateExecutor(ExecutorKind::kSequential, out->graph.get(), &out_->state));
  return Status::Ok();
}

size_t ModelLowering::NewGraphPlan() {
  out_->plan.graphs.emplace_back();
  return out_->plan.graphs.size() - 1;
}

StatusOr<const GraphPlan*> ModelLowering::GivenGraphPlan(size_t index) const {
  if (options_.plan == nullptr) return nullptr;
  if (index >= options_.plan->graphs.size()) {
    return DataLoss("the execute plan has " + std::to_string(options_.plan->graphs.size()) +
                    " graphs; the IR has more");
  }
  return &options_.plan->graphs[index];
}

// ---- GraphScope

void GraphScope::Define(const ir::Value* v, ChainRef chain, bool is_static) {
  ValueRef& r = values_[v];
  r.chain = chain;
  r.is_static = is_static;
}

StatusOr<ValueRef> GraphScope::Resolve(const std::string& name) {
  const ir::Value* own = g_->FindValue(name);
  if (own != nullptr && !own->is_capture()) {
    auto it = values_.find(own);
    if (it == values_.end() || it->second.slot == nullptr) {
      return Internal("graph '" + g_->name() + "': value '" + name + "' is read before it is computed");
    }
    return it->second;
  }
  auto it = captured_.find(name);
  if (it != captured_.end()) return it->second;
  if (parent_ == nullptr) {
    return InvalidArgument("graph '" + g_->name() + "' reads '" + name + "', which no enclosing graph defines");
  }
  GE_ASSIGN_OR_RETURN(ValueRef outer, parent_->Resolve(name));
  const uint32_t in = graph().AddGraphInput();
  graph().graph_input(in).SetPointer(outer.slot);
  ValueRef r{outer.slot, {ChainRef::kGraphInput, in}, outer.is_static};
  captured_[name] = r;
  return r;
}

StatusOr<ValueRef> GraphScope::Ref(const ir::Value* v) {
  if (v == nullptr) return ValueRef();
  if (v->is_capture()) return Resolve(v->name());
  auto it = values_.find(v);
  if (it == values_.end() || it->second.slot == nullptr) {
    if (v->graph() != g_) return Resolve(v->name());
    return Internal("graph '" + g_->name() + "': value '" + v->name() + "' is read before it is computed");
  }
  return it->second;
}

const TensorDesc& GraphScope::Desc(const ir::Value* v) const {
  auto it = descs_.find(v);
  return it != descs_.end() ? it->second : v->desc();
}

// The IR's output descs; where one lacks its dtype (a graph nobody ran inference on), op table inference on the
// inputs' descs (and constants' values) fills it in, so that lowering still knows which values are plain tensors.
std::vector<TensorDesc> GraphScope::OutputDescs(const ir::Node& n) {
  std::vector<TensorDesc> out;
  bool complete = true;
  for (const ir::Value* v : n.outputs()) {
    out.push_back(v != nullptr ? v->desc() : TensorDesc());
    if (v != nullptr && v->desc().kind == ValueKind::kTensor && v->desc().dtype == DataType::kUndefined) {
      complete = false;
    }
  }
  const ops::OpSchema* schema = ops::BuiltinOps().Find(ops::OpIdOf(n));
  if (complete || schema == nullptr) return out;
  ops::InferContext ictx;
  ictx.node = &n;
  ictx.attrs = &n.attrs();
  ictx.opset = model_->OpsetFor(n.domain());
  ictx.op_type = n.op_type();
  ictx.node_name = n.name();
  for (const ir::Value* v : n.inputs()) {
    ictx.inputs.push_back(v != nullptr ? &Desc(v) : nullptr);
    ictx.input_values.push_back(v != nullptr && v->is_constant() ? v->const_value() : nullptr);
  }
  ictx.outputs.resize(n.num_outputs());
  if (!ops::RunInference(*schema, ictx).ok()) return out;
  for (int i = 0; i < n.num_outputs(); ++i) {
    const ir::Value* v = n.output(i);
    if (v == nullptr || v->desc().dtype != DataType::kUndefined) continue;
    out[i] = ictx.outputs[i];
    descs_[v] = ictx.outputs[i];
  }
  return out;
}

StatusOr<std::vector<size_t>> GraphScope::Order(const GraphPlan* given) const {
  const std::vector<ir::Node*> nodes = g_->nodes();
  std::unordered_map<const ir::Node*, size_t> index;
  for (size_t i = 0; i < nodes.size(); ++i) index[nodes[i]] = i;
  std::vector<int> pending(nodes.size(), 0);
  std::vector<std::vector<size_t>> succ(nodes.size());
  auto edge = [&](const ir::Value* v, size_t to) {
    if (v == nullptr || v->producer() == nullptr) return;
    auto it = index.find(v->producer());
    if (it == index.end()) return;
    succ[it->second].push_back(to);
    ++pending[to];
  };
  for (size_t i = 0; i < nodes.size(); ++i) {
    for (const ir::Value* v : nodes[i]->inputs()) edge(v, i);
    for (const ir::Node* c : nodes[i]->control_inputs()) {
      auto it = index.find(c);
      if (it != index.end()) {
        succ[it->second].push_back(i);
        ++pending[i];
      }
    }
    for (const std::string& name : NodeFreeNames(*nodes[i])) {
      const ir::Value* v = g_->FindValue(name);
      if (v != nullptr && !v->is_capture()) edge(v, i);
    }
  }
  std::vector<size_t> order;
  if (given != nullptr) {
    const std::string what = "the execute plan of graph '" + g_->name() + "'";
    if (given->order.size() != nodes.size()) {
      return DataLoss(what + " orders " + std::to_string(given->order.size()) + " nodes, the graph has " +
                      std::to_string(nodes.size()));
    }
    std::vector<bool> placed(nodes.size(), false);
    for (uint32_t i : given->order) {
      if (i >= nodes.size() || placed[i]) {
        return DataLoss(what + " lists node index " + std::to_string(i) + " twice or out of range");
      }
      if (pending[i] != 0) {
        return DataLoss(what + " runs node '" + nodes[i]->name() + "' before a node it depends on");
      }
      placed[i] = true;
      order.push_back(i);
      for (size_t s : succ[i]) --pending[s];
    }
    return order;
  }
  std::priority_queue<size_t, std::vector<size_t>, std::greater<size_t>> ready;
  for (size_t i = 0; i < nodes.size(); ++i) {
    if (pending[i] == 0) ready.push(i);
  }
  while (!ready.empty()) {
    const size_t i = ready.top();
    ready.pop();
    order.push_back(i);
    for (size_t s : succ[i]) {
      if (--pending[s] == 0) ready.push(s);
    }
  }
  if (order.size() != nodes.size()) return InvalidArgument("graph '" + g_->name() + "' has a cycle");
  return order;
}

Status GraphScope::Lower() {
  ModelLowering& m = *model_;
  ExecuteGraph& eg = graph();
  for (const ir::Value* v : g_->inputs()) {
    ValueSlot* s = m.NewSlot(v);
    s->persistent = true;
    const uint32_t in = eg.AddGraphInput();
    eg.graph_input(in).SetPointer(s);
    const TensorDesc& d = v->desc();
    const bool is_static = !s->boxed_kind && d.shape.IsFullyKnown() && RtShape::FromDims(d.shape.dims(), &s->t.shape);
    values_[v] = ValueRef{s, {ChainRef::kGraphInput, in}, is_static};
    out_->inputs.push_back(s);
    out_->ir_inputs.push_back(v);
  }
  for (const ir::Value* v : g_->constants()) {
    if (values_.count(v)) continue;
    ValueSlot* s = m.NewSlot(v);
    s->persistent = true;
    s->constant = true;
    bool is_static = false;
    if (s->boxed_kind) {
      s->boxed = Value(*v->const_value());
    } else {
      GE_RETURN_IF_ERROR(SetSlotTensor(s, *v->const_value()));
      is_static = true;
    }
    const uint32_t in = eg.AddGraphInput();
    eg.graph_input(in).SetPointer(s);
    values_[v] = ValueRef{s, {ChainRef::kGraphInput, in}, is_static};
  }
  const size_t plan_index = m.NewGraphPlan();
  GE_ASSIGN_OR_RETURN(const GraphPlan* given, m.GivenGraphPlan(plan_index));
  GE_ASSIGN_OR_RETURN(std::vector<size_t> order_index, Order(given));
  const std::vector<ir::Node*> all_nodes = g_->nodes();
  std::vector<const ir::Node*> order;
  for (size_t i : order_index) order.push_back(all_nodes[i]);
  // Where each value of this graph is read last (inputs and the subgraphs' reads by name).
  std::unordered_map<const ir::Value*, size_t> last_read;
  std::vector<std::vector<const ir::Value*>> reads(order.size());
  for (size_t i = 0; i < order.size(); ++i) {
    for (const ir::Value* v : order[i]->inputs()) {
      if (v != nullptr && !v->is_capture() && v->graph() == g_) reads[i].push_back(v);
    }
    for (const std::string& name : NodeFreeNames(*order[i])) {
      const ir::Value* v = g_->FindValue(name);
      if (v != nullptr && !v->is_capture()) reads[i].push_back(v);
    }
    for (const ir::Value* v : reads[i]) {
      last_read[v] = i;
      read_by_[v].push_back(order[i]);
    }
  }
  for (size_t i = 0; i < order.size(); ++i) {
    const ir::Node& n = *order[i];
    // The converter: the table's, or the given plan's when it is that one or the reference kernel (which runs any
    // node without subgraphs as the interpreter does).
    const ConverterKind natural = IsStaticIslandNode(n) ? ConverterKind::kStaticIsland : FindConverterKind(ops::OpIdOf(n));
    ConverterKind kind = natural;
    if (given != nullptr) {
      kind = given->converter[i];
      const bool demoted = kind == ConverterKind::kRef && n.subgraphs().empty() &&
                           natural != ConverterKind::kStaticIsland && natural != ConverterKind::kControlFlow;
      if (kind != natural && !demoted) {
        return DataLoss("the execute plan lowers node '" + n.name() + "' (" + n.op_type() + ") with the " +
                        ConverterKindName(kind) + " converter; it takes the " + ConverterKindName(natural) +
                        " converter (or ref)");
      }
    }
    GraphPlan& record = m.out().plan.graphs[plan_index];
    record.order.push_back(static_cast<uint32_t>(order_index[i]));
    record.converter.push_back(kind);
    Status s = LowerNode(n, kind, reads[i], last_read, i);
    if (!s.ok()) return s.WithContext("lowering node '" + n.name() + "' (" + n.op_type() + ")");
  }
  for (const ir::Value* v : g_->outputs()) {
    GE_ASSIGN_OR_RETURN(ValueRef r, Ref(v));
    if (r.slot == nullptr) return InvalidArgument("graph '" + g_->name() + "' has an empty output");
    out_->outputs.push_back(r.slot);
    out_->ir_outputs.push_back(v);
    eg.AddGraphOutput(r.chain);
  }
  return Status::Ok();
}

Status GraphScope::LowerNode(const ir::Node& n, ConverterKind converter, const std::vector<const ir::Value*>& reads,
                             const std::unordered_map<const ir::Value*, size_t>& last_read, size_t index) {
  ModelLowering& m = *model_;
  std::vector<ValueRef> inputs;
  for (const ir::Value* v : n.inputs()) {
    GE_ASSIGN_OR_RETURN(ValueRef r, Ref(v));
    inputs.push_back(r);
  }
  std::vector<ValueRef> captures;
  for (const std::string& name : NodeFreeNames(n)) {
    GE_ASSIGN_OR_RETURN(ValueRef r, Resolve(name));
    captures.push_back(r);
  }
  const std::vector<TensorDesc> out_descs = OutputDescs(n);
  std::vector<ValueSlot*> outputs;
  for (int i = 0; i < n.num_outputs(); ++i) {
    const ir::Value* v = n.output(i);
    if (v == nullptr) {
      outputs.push_back(nullptr);
      continue;
    }
    ValueSlot* s = m.NewSlot(v, out_descs[i]);
    values_[v] = ValueRef{s, {}, false};
    outputs.push_back(s);
  }
  // What is dead once this node ran: values it reads last, and its outputs nobody reads (not graph outputs, not
  // persistent). Outputs are freeable only once the converter has run (it decides persistence), so they are
  // collected after it; the inputs before, for a converter that frees them itself.
  std::vector<const ir::Value*> dead;
  for (const ir::Value* v : reads) {
    if (last_read.at(v) == index && std::find(dead.begin(), dead.end(), v) == dead.end()) dead.push_back(v);
  }
  auto freeable = [&](const ir::Value* v) -> ValueSlot* {
    if (v->producer() == nullptr || v->producer()->graph() != g_ || g_->IsGraphOutput(v)) return nullptr;
    auto it = values_.find(v);
    if (it == values_.end() || it->second.slot == nullptr || it->second.slot->persistent) return nullptr;
    return it->second.slot;
  };
  std::vector<ValueSlot*> frees;
  for (const ir::Value* v : dead) {
    if (ValueSlot* s = freeable(v)) frees.push_back(s);
  }
  NodeLowering ctx(this, &n, std::move(inputs), std::move(captures), outputs, std::move(frees));
  GE_RETURN_IF_ERROR(ConverterFor(converter)(ctx));
  for (ValueSlot* s : outputs) {
    if (s != nullptr && !s->persistent) out_->run_owned.push_back(s);
  }
  ExecuteGraph& eg = graph();
  auto list = std::make_shared<SlotList>();
  std::vector<ChainRef> chains;
  if (ctx.free_owner() == NodeLowering::kNoNode) {
    for (const ir::Value* v : dead) {
      if (ValueSlot* s = freeable(v)) {
        list->slots.push_back(s);
        chains.push_back(values_.at(v).chain);
      }
    }
  }
  for (const ir::Value* v : n.outputs()) {
    if (v == nullptr || last_read.count(v) != 0) continue;
    if (ValueSlot* s = freeable(v)) {
      dead.push_back(v);
      list->slots.push_back(s);
      chains.push_back(values_.at(v).chain);
    }
  }
  if (list->slots.empty() && ctx.free_owner() == NodeLowering::kNoNode) return Status::Ok();
  uint32_t free_node = ctx.free_owner();
  if (!list->slots.empty()) {
    ++m.out().stats.main_nodes;
    free_node = eg.AddNode(FreeMemoryKernel, n.name() + "/FreeMemory", chains, 0, list);
    TagForExecutors(&eg.node(free_node));
  }
  // The node freeing a value waits for every reader of it (topological executors; the sequential order has it).
  auto wait_for_readers = [&](uint32_t node) {
    for (const ir::Value* v : dead) {
      for (const ir::Node* reader : read_by_[v]) {
        auto it = readers_.find(reader);
        if (it == readers_.end()) continue;
        for (uint32_t r : it->second) {
          if (r != node) eg.AddControlEdge(r, node);
        }
      }
    }
    for (uint32_t r : readers_[&n]) {
      if (r != node) eg.AddControlEdge(r, node);
    }
  };
  if (ctx.free_owner() != NodeLowering::kNoNode) wait_for_readers(ctx.free_owner());
  if (!list->slots.empty()) wait_for_readers(free_node);
  return Status::Ok();
}

void ReleaseLargeMemoValues(LoweredModel* lowered) {
  Allocator* a = lowered->state.allocator;
  for (const ComputeNode* n : lowered->memo_nodes) {
    bool large = false;
    for (const ValueSlot* s : n->out) large = large || (s != nullptr && s->t.bytes > kMemoKeepBytes);
    if (!large) continue;
    for (ValueSlot* s : n->out) {
      if (s != nullptr) ReleaseSlot(s, a);
    }
    n->run.memo_valid = false;
  }
}

// ---- LowerModel

namespace {

// Fills the recorded plan's sizes and, when lowering followed a given plan, checks that they agree with it.
Status RecordPlan(const LoweringOptions& options, LoweredModel* out) {
  ExecutePlan& p = out->plan;
  const LoweringStats& st = out->stats;
  p.fused = options.fuse_compute;
  p.init_nodes = st.init_nodes;
  p.main_nodes = st.main_nodes;
  p.deinit_nodes = st.deinit_nodes;
  p.compute_static = st.compute_static;
  p.compute_dynamic = st.compute_dynamic;
  p.ref_nodes = st.ref_nodes;
  p.control_nodes = st.control_nodes;
  p.subgraphs = st.subgraphs;
  const ExecuteGraph& main = *out->main.graph;
  for (size_t i = 0; i < main.num_nodes(); ++i) {
    ++p.main_kernels[KernelKindOf(main.node(static_cast<uint32_t>(i)).name)];
  }
  const ExecutePlan* given = options.plan;
  if (given == nullptr) return Status::Ok();
  if (given->graphs.size() != p.graphs.size()) {
    return DataLoss("the execute plan has " + std::to_string(given->graphs.size()) + " graphs, the IR " +
                    std::to_string(p.graphs.size()));
  }
  if (given->fused != p.fused || st.static_islands != 0) return Status::Ok();  // lowered differently on purpose
  auto check = [](const char* graph, uint64_t planned, uint64_t got) {
    if (planned == got) return Status::Ok();
    return DataLoss(std::string("the execute plan's ") + graph + " graph has " + std::to_string(planned) +
                    " nodes, lowering the IR along it gave " + std::to_string(got) +
                    " (a corrupt .om, or one from another ge: recompile it)");
  };
  GE_RETURN_IF_ERROR(check("Init", given->init_nodes, p.init_nodes));
  GE_RETURN_IF_ERROR(check("Main", given->main_nodes, p.main_nodes));
  GE_RETURN_IF_ERROR(check("DeInit", given->deinit_nodes, p.deinit_nodes));
  return Status::Ok();
}

}  // namespace


StatusOr<std::unique_ptr<LoweredModel>> LowerModel(const ir::Model& model, const LoweringOptions& options) {
  if (model.graph == nullptr) return InvalidArgument("the model has no graph");
  auto out = std::make_unique<LoweredModel>();
  out->engines = options.engines;
  out->init = std::make_unique<ExecuteGraph>();
  out->deinit = std::make_unique<ExecuteGraph>();
  out->main.graph = std::make_unique<ExecuteGraph>();
  ModelLowering m(model, options, out.get());
  GraphScope scope(&m, model.graph.get(), nullptr, &out->main);
  GE_RETURN_IF_ERROR(scope.Lower());
  // DeInit: drop the constants Init loaded.
  auto constants = std::make_shared<SlotList>();
  for (const auto& s : out->slots) {
    if (s->constant) constants->slots.push_back(s.get());
  }
  out->deinit->AddNode(FreeMemoryKernel, "DeInit/ReleaseConstants", {}, 0, constants);
  out->stats.deinit_nodes = out->deinit->num_nodes();
  GE_RETURN_IF_ERROR(RecordPlan(options, out.get()));
  return out;
}

}  // namespace ge::runtime::v2
