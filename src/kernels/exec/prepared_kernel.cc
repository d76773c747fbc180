// PrepareKernel's dispatch: a plain table from op id to the factory of a fast kernel; a factory returns nullptr when it
// does not support the request (dtype, attributes, non-constant operands), and the reference-kernel adapter takes over.
#include "kernels/exec/prepared_kernel.h"

#include "ops/variable/variable_ref.h"

#include "kernels/engine.h"
#include "kernels/exec/engine_choice.h"
#include "kernels/exec/add_gelu_kernel.h"
#include "kernels/exec/binary_kernel.h"
#include "kernels/exec/channel_shuffle_kernel.h"
#include "kernels/exec/concat_scale_shift_kernel.h"
#include "kernels/exec/concat_kernel.h"
#include "kernels/exec/copy_kernel.h"
#include "kernels/exec/expand_kernel.h"
#include "kernels/exec/gather_kernel.h"
#include "kernels/exec/grid_sample_kernel.h"
#include "kernels/exec/instance_norm_kernel.h"
#include "kernels/exec/kernel_util.h"
#include "kernels/exec/gru_kernel.h"
#include "kernels/exec/lstm_kernel.h"
#include "kernels/exec/matmul_kernel.h"
#include "kernels/exec/pad_kernel.h"
#include "kernels/exec/reduce_kernel.h"
#include "kernels/exec/ref_adapter.h"
#include "kernels/exec/resize_kernel.h"
#include "kernels/exec/slice_kernel.h"
#include "kernels/exec/split_kernel.h"
#include "kernels/exec/squeeze_excite_kernel.h"
#include "kernels/exec/transpose_kernel.h"
#include "kernels/exec/unary_kernel.h"
#include "kernels/exec/where_kernel.h"
#include "kernels/ref/kernel_registry.h"
#include "ops/op_id.h"

namespace ge::exec {
namespace {

using ops::OpId;

using FastFactory = std::unique_ptr<PreparedKernel> (*)(const PrepareRequest&);

struct FastEntry {
  OpId op;
  FastFactory factory;
};

// clang-format off
constexpr FastEntry kFastKernels[] = {
    // unary element-wise
    {OpId::kRelu, PrepareUnary}, {OpId::kNeg, PrepareUnary}, {OpId::kAbs, PrepareUnary}, {OpId::kSigmoid, PrepareUnary},
    {OpId::kTanh, PrepareUnary}, {OpId::kExp, PrepareUnary}, {OpId::kLog, PrepareUnary}, {OpId::kSqrt, PrepareUnary},
    {OpId::kReciprocal, PrepareUnary}, {OpId::kFloor, PrepareUnary}, {OpId::kCeil, PrepareUnary},
    {OpId::kRound, PrepareUnary}, {OpId::kSign, PrepareUnary}, {OpId::kErf, PrepareUnary},
    {OpId::kSoftplus, PrepareUnary}, {OpId::kLeakyRelu, PrepareUnary}, {OpId::kElu, PrepareUnary},
    {OpId::kSelu, PrepareUnary}, {OpId::kHardSigmoid, PrepareUnary}, {OpId::kHardSwish, PrepareUnary},
    {OpId::kClip, PrepareUnary}, {OpId::kGeGelu, PrepareGelu},
    // binary element-wise
    {OpId::kAdd, PrepareBinary}, {OpId::kSub, PrepareBinary}, {OpId::kMul, PrepareBinary}, {OpId::kDiv, PrepareBinary},
    {OpId::kMax, PrepareBinary}, {OpId::kMin, PrepareBinary}, {OpId::kPow, PreparePowScalar},
    // data movement
    {OpId::kIdentity, PrepareCopy}, {OpId::kReshape, PrepareCopy}, {OpId::kFlatten, PrepareCopy},
    {OpId::kSqueeze, PrepareCopy}, {OpId::kUnsqueeze, PrepareCopy}, {OpId::kDropout, PrepareCopy},
    {OpId::kTranspose, PrepareTranspose}, {OpId::kSlice, PrepareSlice}, {OpId::kSplit, PrepareSplit},
    {OpId::kConcat, PrepareConcat}, {OpId::kExpand, PrepareExpand},
    {OpId::kWhere, PrepareWhere}, {OpId::kGather, PrepareGather}, {OpId::kPad, PreparePad},
    // normalization
    {OpId::kInstanceNormalization, PrepareInstanceNorm},
    // sampling
    {OpId::kResize, PrepareResize}, {OpId::kUpsample, PrepareResize}, {OpId::kGridSample, PrepareGridSample},
    // reductions
    {OpId::kReduceSum, PrepareReduce}, {OpId::kReduceMean, PrepareReduce}, {OpId::kReduceMax, PrepareReduce},
    {OpId::kReduceMin, PrepareReduce}, {OpId::kReduceL1, PrepareReduce}, {OpId::kReduceL2, PrepareReduce},
    {OpId::kReduceSumSquare, PrepareReduce}, {OpId::kReduceLogSum, PrepareReduce}, {OpId::kReduceProd, PrepareReduce},
    // constant-weight matrix products on the packed AVX2 SGEMM
    {OpId::kMatMul, PrepareMatMulPacked}, {OpId::kGemm, PrepareMatMulPacked},
    // recurrent
    {OpId::kLSTM, PrepareLstm}, {OpId::kGRU, PrepareGru},
};
// clang-format on

bool PlainTensor(const ir::Value* v) {
  return v == nullptr || (v->desc().kind == ValueKind::kTensor && v->desc().dtype != DataType::kString);
}

// Layout work the fast and reference kernels cannot do: TransData, or any value in a blocked format. Only the
// engine the compiler assigned runs such a node.
bool NeedsLayoutEngine(const ir::Node& node) {
  if (ops::IsOp(node, OpId::kGeTransData)) return true;
  // ge::ChannelShuffle's, ge::SqueezeExcite's and ge::ConcatScaleShift's own kernels read and write NHWC.
  const bool nhwc_ok = ops::IsOp(node, OpId::kGeChannelShuffle) || ops::IsOp(node, OpId::kGeSqueezeExcite) ||
                       ops::IsOp(node, OpId::kGeConcatScaleShift);
  auto needs = [nhwc_ok](const ir::Value* v) {
    return v != nullptr && IsNonPlainLayout(v->desc().format) && !(nhwc_ok && v->desc().format == Format::kNHWC);
  };
  for (const ir::Value* v : node.inputs()) {
    if (needs(v)) return true;
  }
  for (const ir::Value* v : node.outputs()) {
    if (needs(v)) return true;
  }
  return false;
}

bool IsHostOrRefEngine(const std::string& engine) { return engine.empty() || engine == "ref" || engine == "host"; }

}  // namespace

StatusOr<std::unique_ptr<KernelBinding>> PreparedKernel::NewBinding(void* shared_scratch) const {
  auto b = std::make_unique<KernelBinding>();
  b->kernel = this;
  b->io.inputs.assign(static_cast<size_t>(num_inputs_), nullptr);
  b->io.outputs.assign(static_cast<size_t>(num_outputs_), nullptr);
  if (shape_agnostic()) {
    b->io.input_dims.assign(static_cast<size_t>(num_inputs_), nullptr);
    b->io.output_dims.assign(static_cast<size_t>(num_outputs_), nullptr);
  }
  if (shared_scratch != nullptr && scratch_bytes() > 0) {
    GE_ASSIGN_OR_RETURN(b->state, CreateStateOnScratch(shared_scratch));
  } else {
    GE_ASSIGN_OR_RETURN(b->state, CreateState());
  }
  return b;
}

PrepareRequest MakeRequest(const ir::Node& node, const RequestSettings& settings) {
  PrepareRequest r;
  r.node = &node;
  r.opset = settings.opset;
  r.seed = settings.seed;
  r.intra_op_threads = settings.intra_op_threads;
  r.allow_bf16 = settings.allow_bf16;
  r.max_isa = settings.max_isa;
  for (const ir::Value* v : node.inputs()) {
    r.input_descs.push_back(v != nullptr ? v->desc() : TensorDesc());
    r.const_inputs.push_back(v != nullptr && v->is_constant() ? v->const_value() : nullptr);
    r.variable_inputs.push_back(settings.variable_acc && ops::RefVariable(v) != nullptr);
  }
  r.input_versions.assign(r.input_descs.size(), nullptr);
  for (const ir::Value* v : node.outputs()) r.output_descs.push_back(v != nullptr ? v->desc() : TensorDesc());
  return r;
}

bool CanPrepare(const ir::Node& node) {
  if (!node.subgraphs().empty()) return false;
  if (NeedsLayoutEngine(node)) return !IsHostOrRefEngine(node.engine());
  // Sequences, optionals and subgraph bodies run on the host executor, even when the graph's descs do not say so.
  const OpId id = ops::OpIdOf(node);
  if (ops::HasTrait(id, ops::OpTrait::kHostOnly)) return false;
  if (ref::RefKernels().Find(id) == nullptr) return false;
  for (const ir::Value* v : node.inputs()) {
    if (!PlainTensor(v)) return false;
  }
  for (const ir::Value* v : node.outputs()) {
    if (!PlainTensor(v)) return false;
  }
  return true;
}

StatusOr<std::unique_ptr<PreparedKernel>> PrepareKernel(const PrepareRequest& request,
                                                        const kernels::EngineList& engines) {
  GE_RETURN_IF_ERROR(ValidateRequest(request));
  const ir::Node& node = *request.node;
  {
    GE_ASSIGN_OR_RETURN(std::unique_ptr<PreparedKernel> k, PrepareOnEngines(request, engines));
    if (k != nullptr) return k;
  }
  const OpId id = ops::OpIdOf(node);
  // Fast kernels of ge:: ops; ChannelShuffle, SqueezeExcite and ConcatScaleShift also read and write NHWC.
  if (id == OpId::kGeChannelShuffle) {
    if (std::unique_ptr<PreparedKernel> k = PrepareChannelShuffle(request)) return k;
  }
  if (id == OpId::kGeConcatScaleShift) {
    if (std::unique_ptr<PreparedKernel> k = PrepareConcatScaleShift(request)) return k;
  }
  if (id == OpId::kGeSqueezeExcite) {
    if (std::unique_ptr<PreparedKernel> k = PrepareSqueezeExcite(request)) return k;
  }
  if (id == OpId::kGeFusedMatMul || id == OpId::kGeFusedGemm) {
    if (std::unique_ptr<PreparedKernel> k = PrepareMatMulPacked(request)) return k;
  }
  if (NeedsLayoutEngine(node)) {
    return FailedPrecondition(NodeLabel(node) + ": engine '" + node.engine() +
                              "' has no kernel for it, and no other kernel handles TransData or blocked formats");
  }
  FastFactory declined = nullptr;
  if (CanPrepare(node)) {
    for (const FastEntry& e : kFastKernels) {
      if (id != e.op) continue;
      if (std::unique_ptr<PreparedKernel> k = e.factory(request)) return k;
      declined = e.factory;
      break;
    }
  }
  GE_ASSIGN_OR_RETURN(std::unique_ptr<RefAdapter> ref, RefAdapter::Create(request));
  // A fast kernel that declined only because dims vary (Where, Split, Gather, Pad, InstanceNormalization prepare for
  // fixed dims): runtime v2 runs the shape-agnostic ref adapter while shapes churn and a fast kernel once a shape
  // repeats.
  if (declined != nullptr && ref->shape_agnostic()) {
    PrepareRequest fixed = request;
    fixed.varying_input_dims.clear();
    fixed.varying_values.clear();
    if (declined(fixed) != nullptr) ref->PreferSpecialized();
  }
  return std::unique_ptr<PreparedKernel>(std::move(ref));
}

}  // namespace ge::exec
