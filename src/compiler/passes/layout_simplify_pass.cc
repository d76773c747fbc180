// LayoutSimplify: data movement that moves no data becomes a Reshape, and Reshape chains collapse, so the sink
// runtime copies at most once where the exporter wrote a Transpose and a Reshape:
//   - Transpose whose perm keeps the order of the dims longer than 1 (it only moves unit dims, as torch's
//     seq-first/batch-first swaps do at batch 1) -> Reshape(x, output dims as a new constant);
//   - Reshape(Reshape(x, s1), s2), the inner result used only there -> Reshape(x, s2) (s2 as the output dims
//     when it copies input dims with 0s: torch's bidirectional RNN outputs, Transpose then Reshape [0, 0, -1]).
// Only tensors of fully known dims are touched; graph outputs keep their names.
#include <string>
#include <vector>

#include "compiler/passes/fusion_util.h"
#include "compiler/passes/pass_util.h"
#include "compiler/passes/passes.h"
#include "ops/inplace.h"

namespace ge::compiler {
namespace {

bool KnownDims(const ir::Value* v, Dims* d) {
  if (v == nullptr || v->desc().kind != ValueKind::kTensor || !v->desc().shape.IsFullyKnown()) return false;
  *d = v->desc().shape.dims();
  return true;
}

// A new int64 constant "<node>/shape" holding dims.
ir::Value* ShapeConstant(ir::Graph& g, const std::string& node, const Dims& dims) {
  std::string cname = node + "/shape";
  while (g.FindValue(cname) != nullptr) cname += "_";
  return g.AddConstant(cname, Tensor::FromVector<int64_t>(std::vector<int64_t>(dims.begin(), dims.end()),
                                                          {static_cast<int64_t>(dims.size())}));
}

class LayoutSimplifyPass : public GraphLevelPass {
 public:
  const char* name() const override { return "LayoutSimplify"; }

  StatusOr<bool> RunOnGraph(ir::Graph& g, const PassContext& ctx) override {
    (void)ctx;
    FusionScope scope(g);
    GE_ASSIGN_OR_RETURN(std::vector<ir::Node*> order, g.TopologicalOrder());
    bool changed = false;
    for (ir::Node* n : order) {
      Dims in, out;
      if (IsOp(n, OpId::kTranspose) && scope.Removable(n) && n->num_inputs() == 1 && KnownDims(n->input(0), &in) &&
          KnownDims(n->output(0), &out) && !in.empty()) {
        std::vector<int64_t> perm = n->attrs().GetInts("perm", {});
        if (perm.size() != in.size() ||
            !ops::TransposeMovesOnlyUnitDims(perm, in.data(), static_cast<int>(in.size()))) {
          continue;
        }
        ir::Value* shape = ShapeConstant(g, n->name(), out);
        ir::Value* x = n->input(0);
        ir::Value* y = n->output(0);
        const std::string name = n->name();
        g.RemoveNode(n);
        g.AddNode(ops::OpName(OpId::kReshape), name, {x, shape}, {y});
        changed = true;
      }
    }
    // Collapse Reshape chains (a fresh order: Transposes may have become Reshapes).
    GE_ASSIGN_OR_RETURN(order, g.TopologicalOrder());
    for (ir::Node* n : order) {
      if (!IsOp(n, OpId::kReshape) || n->num_inputs() < 2) continue;
      ir::Value* mid = n->input(0);
      ir::Node* inner = mid ? mid->producer() : nullptr;
      Dims d;
      if (!IsOp(inner, OpId::kReshape) || !scope.Internal(mid) || !scope.Removable(inner) ||
          !KnownDims(n->output(0), &d) || n->attrs().GetInt("allowzero", 0) != 0) {
        continue;
      }
      n->SetInput(0, inner->input(0));
      g.RemoveNode(inner);
      // A 0 in the outer shape copied a dim of the inner result, which the new input may not have.
      const Tensor* s = n->input(1) ? n->input(1)->const_value() : nullptr;
      bool copies_dims = s == nullptr;
      for (int64_t i = 0; s != nullptr && i < s->numel(); ++i) copies_dims = copies_dims || s->GetAsInt64(i) == 0;
      if (copies_dims) n->SetInput(1, ShapeConstant(g, n->name(), d));
      changed = true;
    }
    if (changed) RemoveDeadValuesKeepingCaptured(g);
    return changed;
  }
};

}  // namespace

std::unique_ptr<GraphPass> CreateLayoutSimplifyPass() { return std::make_unique<LayoutSimplifyPass>(); }

}  // namespace ge::compiler
