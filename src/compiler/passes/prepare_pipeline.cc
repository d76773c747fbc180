#include "compiler/passes/passes.h"

namespace ge::compiler {

Status RunPreparePipeline(ir::Model& model, const PassContext& ctx) {
  PassManager pm;
  pm.Add(CreateInferShapesPass());
  pm.Add(CreateIdentityRemovalPass());
  pm.Add(CreateConstantFoldingPass());
  pm.Add(CreateDeadCodeEliminationPass());
  pm.Add(CreateCommonSubexpressionEliminationPass());
  pm.Add(CreateBatchNormFoldingPass());
  pm.Add(CreateConstantFoldingPass());
  pm.Add(CreateDeadCodeEliminationPass());
  pm.Add(CreateInferShapesPass());
  pm.Add(CreateEngineAssignmentPass());
  return pm.Run(model, ctx);
}

}  // namespace ge::compiler
