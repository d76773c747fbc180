#include <set>

#include "compiler/passes/passes.h"

namespace ge::compiler {

Status RunPreparePipeline(ir::Model& model, const PassContext& ctx) {
  const std::string fusion = ctx.Option("ge.fusion", "1");
  if (fusion != "0" && fusion != "1") {
    return InvalidArgument("option ge.fusion must be 0 or 1, got '" + fusion + "'");
  }
  // ge.engine.<name> (1|0, default 1) turns an engine of the list off: its nodes then run on ge's fast and
  // reference kernels.
  for (const auto& [key, value] : ctx.options) {
    if (key.rfind("ge.engine.", 0) == 0 && value != "0" && value != "1") {
      return InvalidArgument("option " + key + " must be 0 or 1, got '" + value + "'");
    }
  }
  // Folding a Shape can make the next layer's shapes known, which makes its Shape foldable: a transformer with N
  // layers needs about N rounds of inference + folding, so the simplifying passes repeat until nothing changes.
  PassManager simplify;
  simplify.Add(CreateInferShapesPass());
  simplify.Add(CreateVarIsInitializedFoldingPass());
  simplify.Add(CreateIdentityRemovalPass());
  simplify.Add(CreateConstantFoldingPass());
  simplify.Add(CreateDeadCodeEliminationPass());
  simplify.Add(CreateCommonSubexpressionEliminationPass());
  simplify.Add(CreateBatchNormFoldingPass());
  GE_RETURN_IF_ERROR(simplify.RunToFixedPoint(model, ctx, /*max_rounds=*/256));
  // Fusion needs the simplified graph: BatchNorm folded into MatMul + Add first, constants folded into biases.
  PassManager finish;
  if (fusion == "1") {
    // First: the MatMuls an Einsum becomes take part in the fusions below (attention, bias, activation).
    finish.Add(CreateEinsumLoweringPass());
    finish.Add(CreateChannelShuffleFusionPass());
    finish.Add(CreatePadFusionPass());
    // LayerNormFusion before ReduceMeanPool: a mean over the spatial dims is also a LayerNorm's mean, and as a
    // GlobalAveragePool it no longer matches the LayerNorm pattern (tinybert's rank-3 means lost their fusion so,
    // before ReduceMeanPool left rank 3 alone).
    finish.Add(CreateLayerNormFusionPass());
    finish.Add(CreateReduceMeanPoolPass());
    finish.Add(CreateLayoutSimplifyPass());
    finish.Add(CreateAttentionFusionPass());
    finish.Add(CreateMatMulAddFusionPass());
    finish.Add(CreateActivationFusionPass());
    finish.Add(CreateGeluFusionPass());
    finish.Add(CreateSqueezeExciteFusionPass());
    finish.Add(CreateConcatScaleShiftFusionPass());
    finish.Add(CreateConcatConvSplitPass());
  }
  finish.Add(CreateInferShapesPass());
  // The engines first, in the list's order, each claiming the nodes it runs fast; then host and ref.
  std::vector<EngineRule> rules;
  for (const auto& engine : ctx.engines) {
    if (ctx.Option(std::string("ge.engine.") + engine->name(), "1") == "0") continue;
    const kernels::Engine* e = engine.get();
    rules.push_back(EngineRule{e->name(), [e](const ir::Node& n) { return e->Claims(n); }});
  }
  for (EngineRule& r : DefaultEngineRules()) rules.push_back(std::move(r));
  finish.Add(CreateEngineAssignmentPass(std::move(rules)));
  return finish.Run(model, ctx);
}

}  // namespace ge::compiler
