#include "runtime/v2/lowering/converters.h"

#include "kernels/ref/kernel_registry.h"
#include "runtime/v2/kernels/compute_record.h"
#include "runtime/v2/kernels/node_data.h"
#include "runtime/v2/lowering/static_island.h"

namespace ge::runtime::v2 {
namespace {

using ops::OpId;

struct ConverterEntry {
  OpId op;
  ConverterKind kind;
};

// clang-format off
constexpr ConverterEntry kConverters[] = {
    // control flow: subgraphs lowered recursively
    {OpId::kIf, ConverterKind::kControlFlow}, {OpId::kLoop, ConverterKind::kControlFlow},
    {OpId::kScan, ConverterKind::kControlFlow}, {OpId::kSequenceMap, ConverterKind::kControlFlow},
    // Init: values fixed at load
    {OpId::kConstant, ConverterKind::kInitConstant}, {OpId::kGeFileConstant, ConverterKind::kInitConstant},
    // data-dependent output shapes: sized by the reference kernel
    {OpId::kNonZero, ConverterKind::kRef}, {OpId::kUnique, ConverterKind::kRef},
    // session variables: the reference kernels' variable store
    {OpId::kGeVariable, ConverterKind::kRef}, {OpId::kGeAssign, ConverterKind::kRef},
    {OpId::kGeAssignAdd, ConverterKind::kRef}, {OpId::kGeAssignSub, ConverterKind::kRef},
    {OpId::kGeVarIsInitializedOp, ConverterKind::kRef},
};
// clang-format on

bool AnyBoxed(const NodeLowering& ctx) {
  for (const ValueRef& r : ctx.inputs()) {
    if (r.slot != nullptr && r.slot->boxed_kind) return true;
  }
  for (const ValueSlot* s : ctx.outputs()) {
    if (s != nullptr && s->boxed_kind) return true;
  }
  return false;
}

// Whether the node's outputs are a function of input shapes only: Shape or Size of anything, or a deterministic
// node without subgraphs or control inputs whose inputs are constants and shape-derived values (one at least); its
// outputs of rank <= kMaxMemoRank (shapes, indices, a Range, a causal mask or a position embedding).
constexpr int kMaxMemoRank = 2;
bool ShapeDerived(NodeLowering& ctx) {
  const ir::Node& node = ctx.node();
  if (!node.subgraphs().empty() || !node.control_inputs().empty()) return false;
  // Matrices (an L x L mask, the position rows of an embedding) are kept only up to kMemoKeepBytes, like vectors;
  // larger ones are released after each run (lowering.h). Measured under GPT shape churn (lengths 1..256, 2,000
  // runs, 2-core Xeon): RSS +2.54% with rank-2 values memoized, +2.37% with vectors only; at length 1 the mask's
  // Greater and the position Gather no longer run (session 11).
  for (const ir::Value* v : node.outputs()) {
    if (v != nullptr && (v->desc().shape.unknown_rank() || v->desc().shape.rank() > kMaxMemoRank)) return false;
  }
  const OpId id = ops::OpIdOf(node);
  if (id == OpId::kShape || id == OpId::kSize) return true;
  const std::string& op = node.op_type();
  if (op.find("Random") != std::string::npos || op == "Dropout" || op == "Multinomial" || op == "Bernoulli") {
    return false;
  }
  bool derived = false;
  for (const ValueRef& r : ctx.inputs()) {
    if (r.slot == nullptr || r.slot->constant) continue;
    if (!ctx.model().IsShapeDerived(r.slot)) return false;
    derived = true;
  }
  return derived;
}

}  // namespace

ConverterKind FindConverterKind(OpId id) {
  for (const ConverterEntry& e : kConverters) {
    if (e.op == id) return e.kind;
  }
  return ConverterKind::kCompute;
}

ConverterFn ConverterFor(ConverterKind kind) {
  switch (kind) {
    case ConverterKind::kCompute: return ConvertCompute;
    case ConverterKind::kRef: return ConvertRef;
    case ConverterKind::kInitConstant: return ConvertInitConstant;
    case ConverterKind::kControlFlow: return ConvertControlFlow;
    case ConverterKind::kStaticIsland: return ConvertStaticIsland;
  }
  return ConvertRef;
}

Status ConvertRef(NodeLowering& ctx) {
  const ir::Node& node = ctx.node();
  if (!node.subgraphs().empty()) return ConvertControlFlow(ctx);
  auto rn = std::make_shared<RefNode>();
  rn->node = &node;
  rn->opset = ctx.model().OpsetFor(node.domain());
  rn->seed = ctx.model().options().settings.seed;
  rn->variables = ctx.model().options().variables;
  for (const ValueRef& r : ctx.inputs()) rn->in.push_back(r.slot);
  rn->out = ctx.outputs();
  const uint32_t id = ctx.AddMain(RefKernel, "RefKernel", ctx.InputChains(true),
                                  static_cast<uint32_t>(node.num_outputs()), rn);
  ctx.AddReader(id);
  for (int i = 0; i < node.num_outputs(); ++i) ctx.SetOutput(i, {id, static_cast<uint32_t>(i)}, false);
  ++ctx.model().out().stats.ref_nodes;
  return Status::Ok();
}

Status ConvertInitConstant(NodeLowering& ctx) {
  const ir::Node& node = ctx.node();
  for (const ValueRef& r : ctx.inputs()) {
    if (r.slot != nullptr && !r.slot->constant) return ConvertCompute(ctx);
  }
  auto rn = std::make_shared<RefNode>();
  rn->node = &node;
  rn->opset = ctx.model().OpsetFor(node.domain());
  rn->seed = ctx.model().options().settings.seed;
  rn->variables = ctx.model().options().variables;
  for (const ValueRef& r : ctx.inputs()) rn->in.push_back(r.slot);
  rn->out = ctx.outputs();
  ctx.AddInit(RefKernel, "Const", rn);
  for (int i = 0; i < node.num_outputs(); ++i) {
    ValueSlot* s = ctx.outputs()[i];
    if (s == nullptr) continue;
    s->persistent = true;
    s->constant = true;
    // Main reads it through a graph input chain pointing at the slot Init fills.
    ExecuteGraph& g = ctx.scope().graph();
    const uint32_t in = g.AddGraphInput();
    g.graph_input(in).SetPointer(s);
    const TensorDesc& d = node.output(i)->desc();
    const bool is_static = !s->boxed_kind && d.shape.IsFullyKnown() && RtShape::FromDims(d.shape.dims(), &s->t.shape);
    if (is_static) s->t.dtype = d.dtype;
    ctx.SetOutput(i, {ChainRef::kGraphInput, in}, is_static);
  }
  return Status::Ok();
}

Status ConvertCompute(NodeLowering& ctx) {
  const ir::Node& node = ctx.node();
  const ops::OpSchema* schema = ops::BuiltinOps().Find(ops::OpIdOf(node));
  if (schema == nullptr || !exec::CanPrepare(node) || AnyBoxed(ctx)) return ConvertRef(ctx);
  ModelLowering& m = ctx.model();
  auto cn = std::make_shared<ComputeNode>();
  cn->node = &node;
  cn->schema = schema;
  cn->opset = m.OpsetFor(node.domain());
  cn->settings = m.options().settings;
  cn->settings.opset = cn->opset;
  cn->engines = &m.out().engines;
  cn->cache_capacity = m.options().kernel_cache_capacity;
  cn->shape_agnostic = m.options().shape_agnostic_kernels;
  bool all_static = true;
  for (int i = 0; i < node.num_inputs(); ++i) {
    const ValueRef& r = ctx.inputs()[i];
    cn->in.push_back(r.slot);
    cn->in_format.push_back(node.input(i) != nullptr ? node.input(i)->desc().format : Format::kND);
    if (r.slot != nullptr && !r.is_static) all_static = false;
  }
  cn->out = ctx.outputs();
  for (int i = 0; i < node.num_outputs(); ++i) {
    cn->out_format.push_back(node.output(i) != nullptr ? node.output(i)->desc().format : Format::kND);
  }
  cn->ref.node = &node;
  cn->ref.opset = cn->opset;
  cn->ref.seed = m.options().settings.seed;
  cn->ref.variables = m.options().variables;
  cn->ref.in = cn->in;
  cn->ref.out = cn->out;
  // Static: every input shape is fixed and inference fixes the outputs without run-time values (an inference that
  // fails here is left to run time, where the node may never run: a branch not taken).
  bool is_static = false;
  if (all_static) {
    Status s = InferNode(*cn);
    is_static = s.ok() && !cn->run.value_dependent && !cn->run.data_dependent;
    if (!is_static) cn->run = ComputeNode::Run();
  }
  cn->dynamic = !is_static;
  const std::vector<ChainRef> in_chains = ctx.InputChains(false);
  if (cn->dynamic) {
    ++m.out().stats.compute_dynamic;
  } else {
    ctx.AddInit(PrepareStaticKernel, "PrepareStatic", cn);
    ++m.out().stats.compute_static;
  }
  if (m.options().fuse_compute) {
    if (m.options().memoize_shape_values && ShapeDerived(ctx)) {
      cn->memo = true;
      const ops::OpId id = ops::OpIdOf(node);
      cn->shape_only = id == OpId::kShape || id == OpId::kSize;
      for (ValueSlot* s : cn->out) {
        if (s == nullptr) continue;
        s->persistent = true;  // kept between runs: the node may be skipped
        m.MarkShapeDerived(s);
      }
      ++m.out().stats.memo_nodes;
      m.out().memo_nodes.push_back(cn.get());
    }
    const uint32_t id = ctx.AddMain(ComputeKernel, "Compute", in_chains, static_cast<uint32_t>(node.num_outputs()), cn);
    cn->free_after = ctx.TakeFrees(id);
    // The graph keeps cn alive; the kernel reads the packed record (compute_record.h).
    ctx.scope().graph().node(id).ctx.node_data = m.out().records.Add(*cn);
    ctx.AddReader(id);
    for (int i = 0; i < node.num_outputs(); ++i) ctx.SetOutput(i, {id, static_cast<uint32_t>(i)}, is_static);
    ++m.out().stats.fused;
    return Status::Ok();
  }
  uint32_t infer = 0;
  if (cn->dynamic) {
    infer = ctx.AddMain(InferShapeKernel, "InferShape", in_chains, 0, cn);
  }
  const uint32_t alloc = ctx.AddMain(AllocMemoryKernel, "AllocMemory", in_chains, 0, cn);
  if (cn->dynamic) ctx.scope().graph().AddControlEdge(infer, alloc);
  const uint32_t launch =
      ctx.AddMain(LaunchKernel, "Launch", in_chains, static_cast<uint32_t>(node.num_outputs()), cn);
  ctx.scope().graph().AddControlEdge(alloc, launch);
  ctx.AddReader(launch);
  for (int i = 0; i < node.num_outputs(); ++i) ctx.SetOutput(i, {launch, static_cast<uint32_t>(i)}, is_static);
  return Status::Ok();
}

}  // namespace ge::runtime::v2
