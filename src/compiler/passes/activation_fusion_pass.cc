// ActivationFusion: folds what follows a Conv, Gemm or MatMul into one ge:: fused node (oneDNN post-ops):
//   Conv / ge::FusedConv without activation or Sum: an optional residual Add (the other operand a non-constant
//     tensor of exactly the conv output's dtype and dims, the conv output read by nothing else), then an optional
//     activation (activation_pattern.h)                                    -> ge::FusedConv(X, W, [B], [Sum])
//   Gemm / ge::FusedGemm without activation: an activation                 -> ge::FusedGemm
//   MatMul / ge::FusedMatMul without activation: an activation             -> ge::FusedMatMul
//   BatchNormalization (inference) left after BN folding, e.g. DenseNet's pre-activation BN + ReLU
//                                                                          -> ge::FusedBatchNormalization
// Every value a fusion removes must have no other use and not be a graph output or read by a subgraph. The fused
// node keeps the base node's name and attributes and produces the last removed node's output.
#include <set>
#include <string>
#include <vector>

#include "compiler/passes/activation_pattern.h"
#include "compiler/passes/fusion_util.h"
#include "compiler/passes/passes.h"

namespace ge::compiler {
namespace {

// The fused op a node can grow into: Conv -> FusedConv, and so on; kUnknown when it cannot take more.
OpId FusedOpFor(const ir::Node* n) {
  static constexpr OpId kBases[][2] = {{OpId::kConv, OpId::kGeFusedConv},
                                       {OpId::kGemm, OpId::kGeFusedGemm},
                                       {OpId::kMatMul, OpId::kGeFusedMatMul},
                                       {OpId::kBatchNormalization, OpId::kGeFusedBatchNormalization}};
  if (IsOp(n, OpId::kBatchNormalization) && n->attrs().GetInt("training_mode", 0) != 0) return OpId::kUnknown;
  const OpId id = ops::OpIdOf(*n);
  for (const auto& b : kBases) {
    if (id == b[0]) return b[1];
    if (id == b[1]) return n->attrs().GetString("activation", "").empty() ? b[1] : OpId::kUnknown;
  }
  return OpId::kUnknown;
}

bool SameTensorType(const TensorDesc& a, const TensorDesc& b) {
  return a.dtype == b.dtype && a.shape.IsFullyKnown() && b.shape.IsFullyKnown() && a.shape.dims() == b.shape.dims();
}

class ActivationFusionPass : public FusionPass {
 public:
  const char* name() const override { return "ActivationFusion"; }

 protected:
  StatusOr<bool> FuseGraph(ir::Graph& g, const PassContext& ctx) override {
    FusionScope scope(g);
    const int64_t opset = ctx.OpsetFor("");
    GE_ASSIGN_OR_RETURN(std::vector<ir::Node*> order, g.TopologicalOrder());
    std::set<const ir::Node*> removed;  // entries of `order` that no longer exist
    bool changed = false;
    for (ir::Node* base : order) {
      if (removed.count(base)) continue;
      const OpId fused_op = FusedOpFor(base);
      if (fused_op == OpId::kUnknown || !scope.Removable(base) || base->num_outputs() != 1) continue;
      ir::Value* x = base->output(0);
      if (x == nullptr || !IsFloatingPoint(x->desc().dtype)) continue;
      std::vector<ir::Node*> nodes = {base};
      std::vector<ir::Value*> inputs = base->inputs();
      ir::Value* y = x;
      if (fused_op == OpId::kGeFusedConv && base->input(3) == nullptr) {
        if (ir::Node* add = ResidualAdd(scope, x)) {
          inputs.resize(4, nullptr);
          inputs[3] = add->input(add->input(0) == x ? 1 : 0);
          nodes.push_back(add);
          y = add->output(0);
        }
      }
      ActivationMatch act;
      const bool has_act = MatchActivation(scope, y, opset, &act);
      if (!has_act && nodes.size() == 1) continue;
      ir::AttrMap attrs = base->attrs();
      if (has_act) {
        attrs.Set("activation", ir::AttrValue::String(fused::ActivationName(act.kind)));
        if (!act.params.empty()) attrs.Set("activation_params", ir::AttrValue::Floats(act.params));
        nodes.insert(nodes.end(), act.nodes.begin(), act.nodes.end());
        y = act.output;
      }
      removed.insert(nodes.begin(), nodes.end());
      ReplaceWithFused(g, nodes, fused_op, base->name(), inputs, y, attrs);
      changed = true;
    }
    return changed;
  }

 private:
  // The Add that x (a conv output) feeds as a residual sum, or nullptr.
  static ir::Node* ResidualAdd(const FusionScope& scope, ir::Value* x) {
    if (!scope.Internal(x)) return nullptr;
    ir::Node* add = x->uses()[0].node;
    if (!IsOp(add, OpId::kAdd) || !scope.Removable(add) || add->num_inputs() != 2 || add->output(0) == nullptr) {
      return nullptr;
    }
    ir::Value* other = add->input(add->input(0) == x ? 1 : 0);
    if (other == nullptr || other == x || other->is_constant() || !SameTensorType(other->desc(), x->desc())) {
      return nullptr;
    }
    return add;
  }
};

}  // namespace

std::unique_ptr<GraphPass> CreateActivationFusionPass() { return std::make_unique<ActivationFusionPass>(); }

}  // namespace ge::compiler
