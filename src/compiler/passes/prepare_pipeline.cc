#include "compiler/passes/passes.h"

namespace ge::compiler {

Status RunPreparePipeline(ir::Model& model, const PassContext& ctx) {
  const std::string fusion = ctx.Option("ge.fusion", "1");
  if (fusion != "0" && fusion != "1") {
    return InvalidArgument("option ge.fusion must be 0 or 1, got '" + fusion + "'");
  }
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
  // Fusion needs the simplified graph: BatchNorm folded into MatMul + Add first, constants folded into biases.
  PassManager finish;
  if (fusion == "1") {
    finish.Add(CreateMatMulAddFusionPass());
    finish.Add(CreateActivationFusionPass());
  }
  finish.Add(CreateInferShapesPass());
  finish.Add(CreateEngineAssignmentPass());
  return finish.Run(model, ctx);
}

}  // namespace ge::compiler
