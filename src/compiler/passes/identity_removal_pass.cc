// IdentityRemoval: nodes whose output 0 equals their input 0 (Identity, Dropout in inference mode with no mask
// consumer, Cast/CastLike to the input's dtype, Reshape to the input's known shape) are removed. When the output is
// a graph output, the input's producer is made to produce it instead, so output names and order never change;
// when that is impossible (the input is a graph input, a constant or another graph output) the node stays.
#include <set>
#include <string>
#include <vector>

#include "compiler/passes/pass_util.h"
#include "compiler/passes/passes.h"

namespace ge::compiler {
namespace {

bool Unused(const ir::Graph& g, const ir::Value* v, const std::set<std::string>& captured) {
  return !v || (v->uses().empty() && !g.IsGraphOutput(v) && !captured.count(v->name()));
}

bool IsNoOp(const ir::Graph& g, const ir::Node& n, const PassContext& ctx, const std::set<std::string>& captured) {
  const OpId op = ops::OpIdOf(n);
  const ir::Value* x = n.input(0);
  const ir::Value* y = n.output(0);
  if (!x || !y) return false;
  if (op == OpId::kIdentity) return n.num_outputs() == 1;
  if (op == OpId::kDropout) {
    return !DropoutIsTraining(n, ctx.OpsetFor(n.domain())) && Unused(g, n.output(1), captured);
  }
  if (x->desc().kind != ValueKind::kTensor || x->desc().dtype == DataType::kUndefined) return false;
  if (op == OpId::kCast) {
    const ir::AttrValue* to = n.attrs().Find("to");
    return to && to->type == ir::AttrValue::Type::kInt && to->i == static_cast<int64_t>(x->desc().dtype);
  }
  if (op == OpId::kCastLike) {
    const ir::Value* like = n.input(1);
    return like && like->desc().dtype == x->desc().dtype;
  }
  if (op == OpId::kReshape) {
    return FullyKnown(x->desc()) && FullyKnown(y->desc()) && x->desc().shape.dims() == y->desc().shape.dims();
  }
  return false;
}

class IdentityRemovalPass : public GraphLevelPass {
 public:
  const char* name() const override { return "IdentityRemoval"; }

  StatusOr<bool> RunOnGraph(ir::Graph& g, const PassContext& ctx) override {
    std::set<std::string> captured = CapturedNames(g);
    GE_ASSIGN_OR_RETURN(std::vector<ir::Node*> order, g.TopologicalOrder());
    bool changed = false;
    for (ir::Node* n : order) {
      if (!IsNoOp(g, *n, ctx, captured)) continue;
      ir::Value* x = n->input(0);
      ir::Value* y = n->output(0);
      if (captured.count(y->name())) continue;
      if (!g.IsGraphOutput(y)) {
        g.ReplaceAllUses(y, x);
        g.RemoveNode(n);
        changed = true;
        continue;
      }
      ir::Node* p = x->producer();
      if (!p || p->graph() != &g || !p->subgraphs().empty() || g.IsGraphOutput(x) || captured.count(x->name())) {
        continue;
      }
      g.RemoveNode(n);
      GE_ASSIGN_OR_RETURN(ir::Node* fresh, RebindOutput(g, p, x->producer_output(), y));
      (void)fresh;
      changed = true;
    }
    if (changed) RemoveDeadValuesKeepingCaptured(g);
    return changed;
  }
};

}  // namespace

std::unique_ptr<GraphPass> CreateIdentityRemovalPass() { return std::make_unique<IdentityRemovalPass>(); }

}  // namespace ge::compiler
