// Control flow (If, Loop, Scan, SequenceMap): each subgraph is lowered recursively into its own execute graph and
// run by the node's reference kernel through a SubgraphRunner that feeds the lowered graph. A subgraph reads
// enclosing values through capture chains pointing at the enclosing slots (set at lowering), so nothing is looked
// up by name at run time.
#include <cstring>

#include "runtime/v2/kernels/node_data.h"
#include "runtime/v2/lowering/converters.h"

namespace ge::runtime::v2 {
namespace {

Status CheckInput(const Value& v, const ir::Value& decl, const std::string& graph) {
  const TensorDesc& d = decl.desc();
  const std::string what = "subgraph '" + graph + "' input '" + decl.name() + "'";
  if (!IsPlainTensorDesc(d)) return Status::Ok();
  if (!v.is_tensor()) return InvalidArgument(what + ": expected a tensor");
  if (d.dtype != DataType::kUndefined && v.tensor.dtype() != d.dtype) {
    return InvalidArgument(what + ": expected " + DataTypeName(d.dtype) + ", got " + DataTypeName(v.tensor.dtype()));
  }
  if (d.shape.unknown_rank()) return Status::Ok();
  bool ok = v.tensor.rank() == d.shape.rank();
  for (int i = 0; ok && i < v.tensor.rank(); ++i) ok = d.shape.dim(i) < 0 || d.shape.dim(i) == v.tensor.dim(i);
  if (!ok) return InvalidArgument(what + ": expected shape " + d.shape.ToString() + ", got " + DimsToString(v.tensor.dims()));
  return Status::Ok();
}

class LoweredSubgraphRunner final : public ref::SubgraphRunner {
 public:
  explicit LoweredSubgraphRunner(Allocator** allocator) : allocator_(allocator) {}
  void Add(const ir::Graph* g, std::unique_ptr<LoweredGraph> lowered) {
    subs_.emplace_back(g, std::move(lowered));
  }

  Status Run(const ir::Graph& graph, const std::vector<Value>& inputs, std::vector<Value>* outputs) override {
    LoweredGraph* lg = nullptr;
    for (auto& [g, l] : subs_) {
      if (g == &graph) lg = l.get();
    }
    if (lg == nullptr) return Internal("subgraph '" + graph.name() + "' was not lowered");
    if (inputs.size() != lg->inputs.size()) {
      return InvalidArgument("subgraph '" + graph.name() + "' expects " + std::to_string(lg->inputs.size()) +
                             " inputs, got " + std::to_string(inputs.size()));
    }
    Allocator* a = *allocator_;
    for (size_t i = 0; i < inputs.size(); ++i) {
      GE_RETURN_IF_ERROR(CheckInput(inputs[i], *lg->ir_inputs[i], graph.name()));
      ValueSlot* s = lg->inputs[i];
      ReleaseSlot(s, a);
      if (s->boxed_kind) {
        s->boxed = inputs[i];
      } else {
        GE_RETURN_IF_ERROR(SetSlotTensor(s, inputs[i].tensor));
      }
    }
    Status st = lg->executor->Run();
    if (st.ok()) {
      outputs->clear();
      for (ValueSlot* s : lg->outputs) {
        StatusOr<Value> v = SlotValueCopy(*s);
        if (!v.ok()) {
          st = v.status();
          break;
        }
        outputs->push_back(std::move(*v));
      }
    }
    // FreeMemory released all but the outputs of a successful run; after a failure anything may be held.
    if (st.ok()) {
      for (ValueSlot* s : lg->outputs) {
        if (!s->persistent) ReleaseSlot(s, a);
      }
    } else {
      for (ValueSlot* s : lg->run_owned) ReleaseSlot(s, a);
    }
    for (ValueSlot* s : lg->inputs) ReleaseSlot(s, a);
    return st;
  }

 private:
  Allocator** allocator_;  // the model's ExecutionState::allocator, set after lowering
  std::vector<std::pair<const ir::Graph*, std::unique_ptr<LoweredGraph>>> subs_;
};

}  // namespace

Status ConvertControlFlow(NodeLowering& ctx) {
  const ir::Node& node = ctx.node();
  ModelLowering& m = ctx.model();
  auto runner = std::make_unique<LoweredSubgraphRunner>(&m.out().state.allocator);
  for (const auto& [attr, sub] : node.subgraphs()) {
    auto lg = std::make_unique<LoweredGraph>();
    GE_RETURN_IF_ERROR(m.LowerSubgraph(*sub, &ctx.scope(), lg.get()));
    runner->Add(sub.get(), std::move(lg));
    ++m.out().stats.subgraphs;
  }
  auto rn = std::make_shared<RefNode>();
  rn->node = &node;
  rn->opset = m.OpsetFor(node.domain());
  rn->seed = m.options().settings.seed;
  rn->variables = m.options().variables;
  for (const ValueRef& r : ctx.inputs()) rn->in.push_back(r.slot);
  rn->out = ctx.outputs();
  rn->runner = runner.get();
  rn->own_runner = std::move(runner);
  const uint32_t id = ctx.AddMain(RefKernel, "ControlFlow", ctx.InputChains(true),
                                  static_cast<uint32_t>(node.num_outputs()), rn);
  ctx.AddReader(id);
  for (int i = 0; i < node.num_outputs(); ++i) ctx.SetOutput(i, {id, static_cast<uint32_t>(i)}, false);
  ++m.out().stats.control_nodes;
  return Status::Ok();
}

}  // namespace ge::runtime::v2
