// The prepare/optimize passes (DESIGN.md §3), one per file, and the default pipeline that runs them.
#pragma once
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "compiler/passes/pass_manager.h"
#include "kernels/exec/kernel_variant.h"
#include "var/var_resource.h"

namespace ge::compiler {

// Shape and dtype inference over the whole model (subgraphs before the nodes that own them), in topological order,
// with constant values as known inputs. Refines declared descs; fails when inference contradicts a declaration.
std::unique_ptr<GraphPass> CreateInferShapesPass();
// Runs deterministic nodes whose inputs are all constants on the reference kernels and makes their outputs
// constants; Shape/Size of known shapes fold without their input. Outputs over the cap (option
// "ge.constantFoldingMaxBytes", default 64 MiB) are not materialized.
std::unique_ptr<GraphPass> CreateConstantFoldingPass();
// Removes nodes none of whose outputs reach a graph output (or a subgraph capture), then dead values.
std::unique_ptr<GraphPass> CreateDeadCodeEliminationPass();
// Merges identical constants (by content) and identical deterministic nodes (op, domain, attributes, inputs).
std::unique_ptr<GraphPass> CreateCommonSubexpressionEliminationPass();
// Removes Identity, Dropout in inference mode with an unused mask, Cast to the same dtype and Reshape to the same
// known shape; graph outputs keep their names and order.
std::unique_ptr<GraphPass> CreateIdentityRemovalPass();
// Folds BatchNormalization (inference mode) into a preceding Conv, Gemm, or MatMul+Add with constant weights.
std::unique_ptr<GraphPass> CreateBatchNormFoldingPass();

// ShuffleNet's channel shuffle (Reshape, Transpose of axes 1 and 2, Reshape), with the channel Concat feeding it
// and the equal channel Slices reading it -> ge::ChannelShuffle (channel_shuffle_fusion_pass.cc).
std::unique_ptr<GraphPass> CreateChannelShuffleFusionPass();

// A constant-zero Pad of the spatial dims whose only reader is an AveragePool (without pads or ceil_mode; it then
// counts the padding) or a Conv becomes that node's pads (pad_fusion_pass.cc).
std::unique_ptr<GraphPass> CreatePadFusionPass();
// A float ReduceMean over exactly the spatial dims of an [N, C, spatial...] tensor -> GlobalAveragePool (+ Flatten
// without keepdims), run by the engines in the activation's layout (reduce_mean_pool_pass.cc).
std::unique_ptr<GraphPass> CreateReduceMeanPoolPass();
// Einsum that is a (batched) matrix product -> Transpose/Reshape/MatMul; a permuting one-input Einsum -> Transpose.
std::unique_ptr<GraphPass> CreateEinsumLoweringPass();
// MatMul followed by an Add of a constant 1-D bias over the last dim (either operand order) -> ge::FusedMatMul(A, W,
// bias), when nothing else reads the MatMul result.
std::unique_ptr<GraphPass> CreateMatMulAddFusionPass();
// Conv / Gemm / MatMul (or their ge:: fused forms without activation) followed by a residual Add (convolutions only)
// and/or an activation, including the decomposed Silu and erf GELU exporters write -> one ge:: fused node with
// `activation` / `activation_params`; only when every removed value has no other use (activation_fusion_pass.cc).
std::unique_ptr<GraphPass> CreateActivationFusionPass();
// The erf GELU left standing after ActivationFusion (it follows no Conv/MatMul/Gemm) -> one ge::Gelu.
std::unique_ptr<GraphPass> CreateGeluFusionPass();

// The decomposed LayerNorm of torch.onnx / BERT exports (ReduceMean, Sub, Pow 2, ReduceMean, Add eps, Sqrt, Div,
// Mul gamma, [Add beta] over the last axis) -> ge::LayerNormalization (layer_norm_fusion_pass.cc).
std::unique_ptr<GraphPass> CreateLayerNormFusionPass();
// torch's multi-head attention (head split Reshape/Transpose, scaled MatMul, Softmax, MatMul, head merge) ->
// ge::Attention reading Q, K, V in place, a packed QKV through offsets (attention_fusion_pass.cc).
std::unique_ptr<GraphPass> CreateAttentionFusionPass();

// Transposes that move only unit dims -> Reshape; Reshape(Reshape(x)) -> Reshape(x) (layout_simplify_pass.cc).
std::unique_ptr<GraphPass> CreateLayoutSimplifyPass();

// A 1x1 Conv / ge::FusedConv (constant weights, no pads, strides, groups or Sum) reading only a channel Concat ->
// one ge::FusedConv per concatenated input over its weight slice, chained through the residual Sum
// (concat_conv_split_pass.cc).
// Concat -> constant inference BatchNormalization (+ Relu) -> ge::ConcatScaleShift (concat_scale_shift_fusion_pass.cc).
std::unique_ptr<GraphPass> CreateConcatScaleShiftFusionPass();
// GlobalAveragePool -> 1x1 Conv -> 1x1 Conv -> Mul (squeeze-and-excitation) -> ge::SqueezeExcite
// (squeeze_excite_fusion_pass.cc).
std::unique_ptr<GraphPass> CreateSqueezeExciteFusionPass();
std::unique_ptr<GraphPass> CreateConcatConvSplitPass();

// Variables (variable_prepare_pass.cc). VariablePrepare, last before planning: every write of a variable value
// (Assign, AssignAdd, AssignSub) runs after the value's other readers, and writes of one value in creation order.
std::unique_ptr<GraphPass> CreateVariablePreparePass();
// VarIsInitializedOp → a bool constant: PassContext::variable_initialized of its variable (false when unset).
std::unique_ptr<GraphPass> CreateVarIsInitializedFoldingPass();

// Engine assignment: rules are tried in order; the first whose claim returns true owns the node.
struct EngineRule {
  std::string engine;
  std::function<bool(const ir::Node&)> claims;
};
// host: Constant, Shape, Size and other shape-only ops; ref: everything else. RunPreparePipeline puts a rule per
// engine of PassContext::engines (Engine::Claims) in front, except engines turned off by ge.engine.<name>=0.
std::vector<EngineRule> DefaultEngineRules();
std::unique_ptr<GraphPass> CreateEngineAssignmentPass(std::vector<EngineRule> rules = DefaultEngineRules());

// Format selection for a static model after engine assignment: `layout` (NHWC or NC1HWC0) for the 4-D float
// activations that an engine's convolutions, pools and channel concats pass to each other, with ge::TransData nodes
// back to NCHW where such a value reaches another reader or a graph output (format_selection_pass.cc).
std::unique_ptr<GraphPass> CreateFormatSelectionPass(Format layout);
// The engine whose chains format selection lays out: the first of PassContext::engines, not turned off by
// ge.engine.<name>=0, with a blocked layout at PassContext::target; nullptr when none has.
const kernels::Engine* BlockedLayoutEngine(const PassContext& ctx);

// Kernel selection for a static model after format selection (kernel_selection_pass.cc): each engine node's kernel
// prepared as the loader will (`threads` intra-op threads, PassContext::target), its implementation recorded in
// the node attribute kKernelImplAttr and counted in *report (when given), nodes on a oneDNN reference
// implementation listed there; with `prepack`, constant weights stored in the layout the kernel reads them in.
using exec::kKernelImplAttr;
struct KernelSelectionReport {
  std::map<std::string, int> impls;          // implementation name -> nodes
  std::vector<std::string> reference_nodes;  // "node (impl)"
};
// keep_sourced: weights whose bytes lie in the model's external data file (ir::Value::const_source) are not
// prepacked, so the .om can reference that file (ExternalWeightsOptions::embed_sources false).
std::unique_ptr<GraphPass> CreateKernelSelectionPass(int threads, bool prepack, bool keep_sourced,
                                                     KernelSelectionReport* report);

// Tuning (`ge compile --tune`, tune_pass.cc), before kernel selection: each engine node's kernel variants (the
// engine's, times `threads` or 1 intra-op threads) timed on this machine, the fastest recorded on the node.
struct TuneReport {
  int nodes = 0;              // nodes with more than one candidate
  int changed = 0;            // nodes moved off the engine's default choice
  double seconds_saved = 0;   // sum over changed nodes of default minus best time per run
  int failed_candidates = 0;  // candidates that did not prepare or whose run failed (never chosen)
};
// progress (when set) is called after each engine node with (nodes done, engine nodes).
// candidate_seconds (tests): when set, a candidate that prepared and ran is scored by it (node, variant, thread
// count, measured seconds) instead of by its measured time, so a test can decide which candidate is fastest.
using TuneScore = std::function<double(const ir::Node& node, const std::string& variant, int threads, double measured)>;
std::unique_ptr<GraphPass> CreateTunePass(int threads, TuneReport* report,
                                          std::function<void(int64_t done, int64_t total)> progress = {},
                                          TuneScore candidate_seconds = {});

// InferShapes, IdentityRemoval, ConstantFolding, DCE, CSE and BatchNormFolding repeated to a fixed point; then,
// unless option "ge.fusion" is "0" (default "1"), MatMulAddFusion and ActivationFusion; then InferShapes and
// EngineAssignment.
Status RunPreparePipeline(ir::Model& model, const PassContext& ctx);

}  // namespace ge::compiler

namespace ge::compiler {

// FileConstantPrepare (file_constant_pass.cc): the input graph's ge::FileConstant nodes become constants mapped
// from their files with an ir::Value::const_source, so ExternalWeights re-emits them reading the file in place.
// Needs the files at compile time (file_path, or file_id through ge.exec.value_bins).
std::unique_ptr<GraphPass> CreateFileConstantPreparePass();

// VariableFormat (variable_format_pass.cc, GE's VariableOpPass): folds a uniform Cast/Reshape/TransData chain
// after a session variable (with the writes' inverse chain) into the variable's stored desc; a graph declaring a
// variable whose desc an earlier graph changed reads and writes it through the road. Needs
// PassContext::variables; |roads| gets the variables this compile changed and their roads.
std::unique_ptr<GraphPass> CreateVariableFormatPass(std::map<std::string, std::vector<var::TransStep>>* roads);

// External weights (ge.externalWeight, external_weights_pass.cc). Runs after the model is planned
// (model_compiler.cc; model_builder.h's UpdateForFileConstants then re-serializes it): every root-graph constant
// whose bytes lie unchanged in a file (ONNX external data: ir::Value::const_source) becomes the output of a
// ge::FileConstant node reading them there (unless embed_sources); with mode 1|2 every other constant of at least
// min_bytes that is read becomes one reading a weight file the pass writes.
struct ExternalWeightsOptions {
  int mode = 0;                    // 0: no weight files written; 1: a file per distinct tensor; 2: one combined file
  bool embed_sources = false;      // copy constants with a source into the .om (or the weight files) instead
  std::string om_dir;              // absolute directory of the .om; "" when it goes to memory
  std::string directory;           // absolute; where the files are written (created when missing)
  std::string recorded_directory;  // what FileConstant file_path attributes start with: relative to the .om's
                                   // directory when the files lie below it, else absolute; "" = the .om's own
  std::string combined_file_name;  // mode 2
  uint64_t min_bytes = 64;         // smaller constants stay in the .om
};
struct ExternalWeightsReport {
  std::string directory;
  int tensors = 0;         // FileConstant nodes made (both kinds)
  uint64_t bytes = 0;      // their bytes
  int source_tensors = 0;  // of them, reading the model's own external data files
  uint64_t source_bytes = 0;
  uint64_t bytes_written = 0;             // distinct bytes in the files
  std::vector<std::string> files;         // paths of the files written
  std::vector<std::string> source_files;  // paths of the external data files read in place
};
// The options the GE options ask for: ge.externalWeight (0|1|2, default 0) and ge.externalWeightDir (default: next
// to the .om, M.om -> M.weights/; required when |om_path| is empty, i.e. the .om goes to memory). The combined
// file is <.om name without .om, else |model_name|>_weight_combined. Sources are referenced (embed_sources false).
StatusOr<ExternalWeightsOptions> ExternalWeightsOptionsFor(const std::map<std::string, std::string>& ge_options,
                                                           const std::string& om_path, const std::string& model_name);
std::unique_ptr<GraphPass> CreateExternalWeightsPass(ExternalWeightsOptions options, ExternalWeightsReport* report);

}  // namespace ge::compiler
