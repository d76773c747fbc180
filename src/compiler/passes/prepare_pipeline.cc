#include <set>

#include "compiler/passes/passes.h"
#include "kernels/dnnl/dnnl_engine.h"

namespace ge::compiler {

Status RunPreparePipeline(ir::Model& model, const PassContext& ctx) {
  const std::string fusion = ctx.Option("ge.fusion", "1");
  if (fusion != "0" && fusion != "1") {
    return InvalidArgument("option ge.fusion must be 0 or 1, got '" + fusion + "'");
  }
  // The oneDNN engine for compute-heavy ops (default); "0" keeps every node on the fast and reference kernels.
  const std::string dnnl = ctx.Option("ge.engine.dnnl", "1");
  if (dnnl != "0" && dnnl != "1") {
    return InvalidArgument("option ge.engine.dnnl must be 0 or 1, got '" + dnnl + "'");
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
    finish.Add(CreateChannelShuffleFusionPass());
    finish.Add(CreatePadFusionPass());
    finish.Add(CreateLayerNormFusionPass());
    finish.Add(CreateLayoutSimplifyPass());
    finish.Add(CreateAttentionFusionPass());
    finish.Add(CreateMatMulAddFusionPass());
    finish.Add(CreateActivationFusionPass());
    finish.Add(CreateConcatConvSplitPass());
  }
  finish.Add(CreateInferShapesPass());
  std::vector<EngineRule> rules = DefaultEngineRules();
  if (dnnl == "1") {
    // oneDNN for the compute-heavy ops only: the fast CPU kernels are as quick for element-wise work and, unlike
    // oneDNN's eltwise approximations (log(1) = -1.4e-6), bit-exact with the reference kernels.
    auto heavy = [](const ir::Node& n) {
      static const std::set<std::string> kOps = {
          "Conv", "ConvTranspose", "MatMul", "Gemm", "MaxPool", "AveragePool", "GlobalAveragePool", "GlobalMaxPool",
          "Softmax", "LogSoftmax", "LayerNormalization", "BatchNormalization", "FusedConv", "FusedGemm",
          "FusedMatMul", "Attention", "FusedBatchNormalization"};
      return kOps.count(n.op_type()) != 0 && dnnl_kernels::DnnlSupports(n);
    };
    rules.insert(rules.begin(), EngineRule{dnnl_kernels::kDnnlEngineName, heavy});
  }
  finish.Add(CreateEngineAssignmentPass(std::move(rules)));
  return finish.Run(model, ctx);
}

}  // namespace ge::compiler
