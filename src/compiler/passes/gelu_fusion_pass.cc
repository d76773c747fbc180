// GeluFusion (after ActivationFusion, which folds a GELU into the Conv / MatMul / Gemm before it): the erf GELU
// exporters write as five element-wise nodes (activation_pattern.h), left standing where it follows anything else (a
// normalization: wav2vec's GroupNorm, a residual sum), becomes one `ge::Gelu`, a single pass over the tensor
// instead of five.
#include <set>
#include <vector>

#include "compiler/passes/activation_pattern.h"
#include "compiler/passes/fusion_util.h"
#include "compiler/passes/passes.h"

namespace ge::compiler {
namespace {

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
      removed.insert(act.nodes.begin(), act.nodes.end());
      const std::string name = act.nodes.front()->name();
      ReplaceWithFused(g, act.nodes, OpId::kGeGelu, name, {x}, act.output, ir::AttrMap());
      changed = true;
    }
    if (changed) g.RemoveDeadValues();
    return changed;
  }
};

}  // namespace

std::unique_ptr<GraphPass> CreateGeluFusionPass() { return std::make_unique<GeluFusionPass>(); }

}  // namespace ge::compiler
