#include "compiler/passes/passes.h"

namespace ge::compiler {

Status RunPreparePipeline(ir::Model& model, const PassContext& ctx) {
  // Folding a Shape can make the next layer's shapes known, which makes its Shape foldable: a transformer with N
  // layers needs about N rounds of inference + folding, so the simplifying passes repeat until nothing changes.
  PassManager simplify;
  simplify.Add(CreateInferShapesPass());
  simplify.Add(CreateIdentityRemovalPass());
  simplify.Add(CreateConstantFoldingPass());
  simplify.Add(CreateDeadCodeEliminationPass());
  simplify.Add(CreateCommonSubexpressionEliminationPass());
  simplify.Add(CreateBatchNormFoldingPass());
  GE_RETURN_IF_ERROR(simplify.RunToFixedPoint(model, ctx, /*max_rounds=*/256));
  PassManager finish;
  finish.Add(CreateInferShapesPass());
  finish.Add(CreateEngineAssignmentPass());
  return finish.Run(model, ctx);
}

}  // namespace ge::compiler
