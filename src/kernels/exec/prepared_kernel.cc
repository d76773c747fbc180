// PrepareKernel's dispatch: a plain table from op type to the factory of a fast kernel; a factory returns nullptr
// when it does not support the request (dtype, attributes, non-constant operands), and the reference-kernel
// adapter takes over.
#include "kernels/exec/prepared_kernel.h"

#include "kernels/engine.h"

#include "kernels/exec/binary_kernel.h"
#include "kernels/exec/channel_shuffle_kernel.h"
#include "kernels/exec/copy_kernel.h"
#include "kernels/exec/matmul_kernel.h"
#include "kernels/exec/kernel_util.h"
#include "kernels/exec/ref_adapter.h"
#include "kernels/exec/slice_kernel.h"
#include "kernels/exec/transpose_kernel.h"
#include "kernels/exec/unary_kernel.h"
#include "kernels/ref/kernel_registry.h"

namespace ge::exec {
namespace {

using FastFactory = std::unique_ptr<PreparedKernel> (*)(const PrepareRequest&);

struct FastEntry {
  const char* op_type;  // ai.onnx domain
  FastFactory factory;
};

// clang-format off
constexpr FastEntry kFastKernels[] = {
    // unary element-wise
    {"Relu", PrepareUnary}, {"Neg", PrepareUnary}, {"Abs", PrepareUnary}, {"Sigmoid", PrepareUnary},
    {"Tanh", PrepareUnary}, {"Exp", PrepareUnary}, {"Log", PrepareUnary}, {"Sqrt", PrepareUnary},
    {"Reciprocal", PrepareUnary}, {"Floor", PrepareUnary}, {"Ceil", PrepareUnary}, {"Round", PrepareUnary},
    {"Sign", PrepareUnary}, {"Erf", PrepareUnary}, {"Softplus", PrepareUnary}, {"LeakyRelu", PrepareUnary},
    {"Elu", PrepareUnary}, {"Selu", PrepareUnary}, {"HardSigmoid", PrepareUnary}, {"HardSwish", PrepareUnary},
    {"Clip", PrepareUnary},
    // binary element-wise
    {"Add", PrepareBinary}, {"Sub", PrepareBinary}, {"Mul", PrepareBinary}, {"Div", PrepareBinary},
    {"Max", PrepareBinary}, {"Min", PrepareBinary}, {"Pow", PreparePowScalar},
    // data movement
    {"Identity", PrepareCopy}, {"Reshape", PrepareCopy}, {"Flatten", PrepareCopy}, {"Squeeze", PrepareCopy},
    {"Unsqueeze", PrepareCopy}, {"Dropout", PrepareCopy},
    {"Transpose", PrepareTranspose}, {"Slice", PrepareSlice},
    // constant-weight matrix products on the packed AVX2 SGEMM
    {"MatMul", PrepareMatMulPacked}, {"Gemm", PrepareMatMulPacked},
};
// clang-format on

// Ops whose values are sequences or optionals, or whose ref kernels run subgraphs: never prepared, even when the
// graph's descs do not say so.
// clang-format off
constexpr const char* kDynamicOps[] = {
    "If", "Loop", "Scan", "SequenceMap", "SequenceConstruct", "SequenceEmpty", "SequenceAt", "SequenceInsert",
    "SequenceErase", "SequenceLength", "SplitToSequence", "ConcatFromSequence", "Optional", "OptionalHasElement",
    "OptionalGetElement",
};
// clang-format on

bool IsDefaultDomain(const std::string& d) { return d.empty() || d == "ai.onnx"; }

bool PlainTensor(const ir::Value* v) {
  return v == nullptr || (v->desc().kind == ValueKind::kTensor && v->desc().dtype != DataType::kString);
}

// Layout work the fast and reference kernels cannot do: TransData, or any value in a blocked format. Only the
// engine the compiler assigned runs such a node.
bool NeedsLayoutEngine(const ir::Node& node) {
  if (node.domain() == "ge" && node.op_type() == "TransData") return true;
  // ge::ChannelShuffle's own kernel reads and writes NHWC (channel_shuffle_kernel.h).
  const bool nhwc_ok = node.domain() == "ge" && node.op_type() == "ChannelShuffle";
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
  }
  for (const ir::Value* v : node.outputs()) r.output_descs.push_back(v != nullptr ? v->desc() : TensorDesc());
  return r;
}

bool CanPrepare(const ir::Node& node) {
  if (!node.subgraphs().empty()) return false;
  if (NeedsLayoutEngine(node)) return !IsHostOrRefEngine(node.engine());
  if (IsDefaultDomain(node.domain())) {
    for (const char* op : kDynamicOps) {
      if (node.op_type() == op) return false;
    }
  }
  if (ref::RefKernels().Find(node.domain(), node.op_type()) == nullptr) return false;
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
  if (const kernels::Engine* engine = kernels::FindEngine(engines, node.engine())) {
    GE_ASSIGN_OR_RETURN(std::unique_ptr<PreparedKernel> k, engine->Prepare(request));
    if (k != nullptr) return k;
  }
  // Fast kernels of ge:: ops; ChannelShuffle also reads and writes NHWC.
  if (node.domain() == "ge" && node.op_type() == "ChannelShuffle") {
    if (std::unique_ptr<PreparedKernel> k = PrepareChannelShuffle(request)) return k;
  }
  if (node.domain() == "ge" && (node.op_type() == "FusedMatMul" || node.op_type() == "FusedGemm")) {
    if (std::unique_ptr<PreparedKernel> k = PrepareMatMulPacked(request)) return k;
  }
  if (NeedsLayoutEngine(node)) {
    return FailedPrecondition(NodeLabel(node) + ": engine '" + node.engine() +
                              "' has no kernel for it, and no other kernel handles TransData or blocked formats");
  }
  if (IsDefaultDomain(node.domain()) && CanPrepare(node)) {
    for (const FastEntry& e : kFastKernels) {
      if (node.op_type() != e.op_type) continue;
      if (std::unique_ptr<PreparedKernel> k = e.factory(request)) return k;
      break;
    }
  }
  GE_ASSIGN_OR_RETURN(std::unique_ptr<RefAdapter> ref, RefAdapter::Create(request));
  return std::unique_ptr<PreparedKernel>(std::move(ref));
}

}  // namespace ge::exec
