// MatMulAddFusion: Add(MatMul(A, W), bias) or Add(bias, MatMul(A, W)), where bias is a constant 1-D tensor over
// the MatMul result's last dim, becomes ge::FusedMatMul(A, W, bias) when nothing else reads the MatMul result. The
// fused node keeps the MatMul's name and produces the Add's output (so graph outputs keep their names).
#include <vector>

#include "compiler/passes/fusion_util.h"
#include "compiler/passes/passes.h"

namespace ge::compiler {
namespace {

// The bias operand when it is a constant [N] of mm_out's dtype, N being mm_out's known last dim.
bool IsLastDimBias(const ir::Value* bias, const ir::Value* mm_out) {
  const Tensor* b = ConstTensor(bias);
  const TensorDesc& d = mm_out->desc();
  if (b == nullptr || b->rank() != 1 || b->dtype() != d.dtype || !IsFloatingPoint(d.dtype)) return false;
  if (d.shape.unknown_rank() || d.shape.rank() == 0) return false;
  const int64_t n = d.shape.dim(d.shape.rank() - 1);
  return n != kUnknownDim && b->dim(0) == n;
}

class MatMulAddFusionPass : public FusionPass {
 public:
  const char* name() const override { return "MatMulAddFusion"; }

 protected:
  StatusOr<bool> FuseGraph(ir::Graph& g, const PassContext& ctx) override {
    FusionScope scope(g);
    GE_ASSIGN_OR_RETURN(std::vector<ir::Node*> order, g.TopologicalOrder());
    bool changed = false;
    for (ir::Node* add : order) {
      if (!IsOp(add, OpId::kAdd) || add->num_inputs() != 2 || !scope.Removable(add) || !add->output(0)) continue;
      for (int side = 0; side < 2; ++side) {
        ir::Value* mm_out = add->input(side);
        ir::Value* bias = add->input(1 - side);
        ir::Node* mm = mm_out ? mm_out->producer() : nullptr;
        if (!IsOp(mm, OpId::kMatMul) || !scope.Removable(mm) || !scope.Internal(mm_out)) continue;
        if (!IsLastDimBias(bias, mm_out)) continue;
        // Add and MatMul are each visited once: the order lists every Add, and a MatMul has one consumer here.
        ReplaceWithFused(g, {add, mm}, OpId::kGeFusedMatMul, mm->name(), {mm->input(0), mm->input(1), bias},
                         add->output(0), ir::AttrMap());
        changed = true;
        break;
      }
    }
    return changed;
  }
};

}  // namespace

std::unique_ptr<GraphPass> CreateMatMulAddFusionPass() { return std::make_unique<MatMulAddFusionPass>(); }

}  // namespace ge::compiler
