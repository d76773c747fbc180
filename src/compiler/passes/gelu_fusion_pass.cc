// GeluFusion (after ActivationFusion, which folds a GELU into the Conv / MatMul / Gemm before it): the erf GELU
// exporters write as five element-wise nodes (activation_pattern.h), left standing where it follows anything else (a
// normalization: wav2vec's GroupNorm, a residual sum), becomes one `ge::Gelu`, a single pass over the tensor
// instead of five. When x is the sum of an Add that only the GELU reads (a residual sum, a bias, GroupNorm's shift),
// float32, with an operand of x's static shape, the Add joins it: `ge::Gelu(X, B)` computes gelu(X + B) in the one
// pass, the sum rounded as the Add rounds it.
#include <set>
#include <utility>
#include <vector>

#include "compiler/passes/activation_pattern.h"
#include "compiler/passes/fusion_util.h"
#include "compiler/passes/passes.h"

namespace ge::compiler {
namespace {

// The Add producing x (whose only reader is the matched GELU: MatchActivation checks that), when it can join the
// fused node: float32, static shapes, one operand of x's shape (X) and the other broadcasting to it (B).
ir::Node* FoldableAdd(const FusionScope& scope, ir::Value* x, std::vector<ir::Value*>* inputs) {
  ir::Node* add = x->producer();
  if (add == nullptr || !IsOp(add, OpId::kAdd) || add->num_inputs() != 2 || !scope.Removable(add)) return nullptr;
  ir::Value* a = add->input(0);
  ir::Value* b = add->input(1);
  const TensorDesc& y = x->desc();
  if (a == nullptr || b == nullptr || y.dtype != DataType::kFloat || !y.shape.IsFullyKnown()) return nullptr;
  if (a->desc().dtype != y.dtype || b->desc().dtype != y.dtype) return nullptr;
  if (!a->desc().shape.IsFullyKnown() || !b->desc().shape.IsFullyKnown()) return nullptr;
  if (a->desc().shape.dims() != y.shape.dims()) std::swap(a, b);
  if (a->desc().shape.dims() != y.shape.dims() || b->desc().shape.rank() > y.shape.rank()) return nullptr;
  *inputs = {a, b};
  return add;
}

class GeluFusionPass : public FusionPass {
 public:
  const char* name() const override { return "GeluFusion"; }

 protected:
  StatusOr<bool> FuseGraph(ir::Graph& g, const PassContext& ctx) override {
    FusionScope scope(g);
    const int64_t opset = ctx.OpsetFor("");
    GE_ASSIGN_OR_RETURN(std::vector<ir::Node*> order, g.TopologicalOrder());
    // Candidate roots: every value a Div or Mul reads (a GELU begins with Div(x, sqrt2) or Mul(x, 1/sqrt2)).
    std::vector<ir::Value*> roots;
    std::set<ir::Value*> seen;
    for (ir::Node* n : order) {
      if (!IsOp(n, OpId::kDiv) && !IsOp(n, OpId::kMul)) continue;
      for (ir::Value* v : n->inputs()) {
        if (v != nullptr && seen.insert(v).second) roots.push_back(v);
      }
    }
    std::set<const ir::Node*> removed;
    bool changed = false;
    for (ir::Value* x : roots) {
      if (!IsFloatingPoint(x->desc().dtype)) continue;
      ActivationMatch act;
      if (!MatchActivation(scope, x, opset, &act) || act.kind != fused::Activation::kGelu) continue;
      bool stale = false;
      for (const ir::Node* n : act.nodes) stale |= removed.count(n) > 0;
      if (stale) continue;
      const std::string name = act.nodes.front()->name();
      std::vector<ir::Value*> inputs = {x};
      std::vector<ir::Node*> nodes = act.nodes;
      if (ir::Node* add = FoldableAdd(scope, x, &inputs); add != nullptr && removed.count(add) == 0) {
        nodes.push_back(add);
      } else {
        inputs = {x};
      }
      removed.insert(nodes.begin(), nodes.end());
      ReplaceWithFused(g, nodes, OpId::kGeGelu, name, inputs, act.output, ir::AttrMap());
      changed = true;
    }
    if (changed) g.RemoveDeadValues();
    return changed;
  }
};

}  // namespace

std::unique_ptr<GraphPass> CreateGeluFusionPass() { return std::make_unique<GeluFusionPass>(); }

}  // namespace ge::compiler
