// The exec engine's rules: where each of ge's compute kernels is the default, and its tunable variants. The
// kernels themselves decline what they cannot run (nullptr); this file only decides whom to ask.
#include "kernels/exec/exec_engine.h"

#include <algorithm>
#include <string>
#include <vector>

#include "kernels/exec/binary_kernel.h"
#include "kernels/exec/concat_kernel.h"
#include "kernels/exec/depthwise_conv_plain_kernel.h"
#include "kernels/exec/gru_kernel.h"
#include "kernels/exec/im2col_conv_kernel.h"
#include "kernels/exec/kernel_util.h"
#include "kernels/exec/kernel_variant.h"
#include "kernels/exec/lstm_kernel.h"
#include "kernels/exec/matmul_kernel.h"
#include "kernels/exec/max_pool_kernel.h"
#include "kernels/exec/max_pool_plain_kernel.h"
#include "kernels/exec/packed_weights.h"
#include "kernels/exec/winograd_conv_kernel.h"
#include "ops/op_id.h"

namespace ge::exec {
namespace {

using KernelPtr = std::unique_ptr<PreparedKernel>;
using ops::OpId;

enum class Family { kNone, kConv, kConcat, kRnn, kMatMul, kMaxPool, kBinary };

Family FamilyOf(const ir::Node& node) {
  switch (ops::OpIdOf(node)) {
    case OpId::kConv:
    case OpId::kGeFusedConv:
      return Family::kConv;
    case OpId::kConcat:
      return Family::kConcat;
    case OpId::kLSTM:
    case OpId::kGRU:
      return Family::kRnn;
    case OpId::kMatMul:
    case OpId::kGeFusedMatMul:
    case OpId::kGemm:
    case OpId::kGeFusedGemm:
      return Family::kMatMul;
    case OpId::kMaxPool:
      return Family::kMaxPool;
    case OpId::kAdd:
    case OpId::kSub:
    case OpId::kMul:
    case OpId::kDiv:
    case OpId::kMax:
    case OpId::kMin:
      return Family::kBinary;
    default:
      return Family::kNone;
  }
}

std::string Variant(const PrepareRequest& r) { return r.node->attrs().GetString(kKernelVariantAttr, ""); }
int64_t PackedInput(const ir::Node& node) { return node.attrs().GetInt(kPackedInputAttr, -1); }

// Present inputs and outputs are float32 tensors with no zero dim (an RNN's sequence_lens, input 4, may be an
// integer tensor; prepacked weights are the kernel's bytes), as the other engines require before they run a node.
bool FloatIo(const PrepareRequest& r, int index_input) {
  auto ok = [](const TensorDesc& d, bool index) {
    if (d.dtype != DataType::kFloat && !(index && (d.dtype == DataType::kInt32 || d.dtype == DataType::kInt64))) {
      return false;
    }
    const Dims& dims = d.shape.dims();
    return std::none_of(dims.begin(), dims.end(), [](int64_t x) { return x == 0; });
  };
  const int64_t packed = r.node->attrs().GetInt(kPackedInputAttr, -1);  // bytes in the kernel's layout
  for (size_t i = 0; i < r.input_descs.size(); ++i) {
    if (static_cast<int64_t>(i) == packed) continue;
    if (InputPresent(r, static_cast<int>(i)) && !ok(r.input_descs[i], static_cast<int>(i) == index_input)) {
      return false;
    }
  }
  for (size_t i = 0; i < r.output_descs.size(); ++i) {
    if (OutputPresent(r, static_cast<int>(i)) && !ok(r.output_descs[i], false)) return false;
  }
  return true;
}

// Below AVX-512, where Winograd does not pay: a spatial window over 128+ input channels (K = KH*KW*IC >= 1152) into
// 128+ output channels, e.g. ResNet's stride-2 3x3 convs and its 7x7 ones, which oneDNN's direct AVX2 kernels run at
// ~2/3 of the sgemm peak.
bool Im2colPays(const PrepareRequest& r) {
  const Tensor* w = ConstInput(r, 1);
  if (w == nullptr || w->rank() != 4) return false;
  const int64_t window = w->dim(2) * w->dim(3);
  return window > 1 && w->dim(0) >= 128 && w->dim(1) >= 128;
}

// ge's plain depthwise kernel puts one output per vector lane along the rows: it pays for 1-D convolutions (oneDNN:
// im2col + GEMM, 5-30x slower over 256-512 channels) and for 2-D ones over input rows of 100+ elements; over shorter
// rows oneDNN's NHWC kernel, reorders included, is faster, as its lanes run over channels.
bool PlainDepthwisePays(const PrepareRequest& r) {
  if (r.input_descs.empty()) return false;
  const Shape& x = r.input_descs[0].shape;
  return x.rank() == 3 || (x.rank() == 4 && x.IsFullyKnown() && x.dim(3) >= 100);
}

// Multiply-adds (M x K x N) up to which a constant-weight matrix product runs on ge's packed SGEMM even where the
// other engines have AVX-512 kernels: creating oneDNN's primitive JIT-generates code at load (milliseconds), against
// a few microseconds per run that the AVX2 kernel loses at this size (an RNN tagger's or classifier's output
// layer). Below six rows (one register tile) the AVX2 kernel's few accumulators wait on each other: only weights of
// up to kSmallGemvWeights elements go there.
constexpr int64_t kSmallGemmMacs = 512 * 1024;
constexpr int64_t kSmallGemvWeights = 64 * 1024;

bool SmallGemm(const PrepareRequest& r) {
  const Tensor* w = ConstInput(r, 1);
  if (w == nullptr || r.output_descs.empty() || !OutputPresent(r, 0) || PackedInput(*r.node) >= 0) return false;
  const Dims& out = r.output_descs[0].shape.dims();
  if (out.empty() || out.back() <= 0) return false;
  int64_t elements = 1;
  for (int64_t d : out) elements *= d;
  const int64_t m = elements / out.back();
  return m * w->numel() <= kSmallGemmMacs && (m >= 6 || w->numel() <= kSmallGemvWeights);  // M x (K x N)
}

// A 1-D MaxPool, or a 2x2 one over output rows of 64+ elements: ge's plain-layout kernel runs it along the rows with
// no reorder (a 1-D k3 s2 pool over 64 x 1000: 0.043 -> 0.014 ms; 2x2 s2 over 32 x 224 x 224: 2.6x); with more rows
// of taps per output (3x3 stride 2 over 64 x 112 x 112: 2x) or shorter rows (2x2 s2 over 64 x 56 x 56: 1.5x)
// oneDNN's NHWC kernel, reorders included, is faster.
bool PlainMaxPoolPays(const PrepareRequest& r) {
  const std::vector<int64_t> window = r.node->attrs().GetInts("kernel_shape", {});
  if (window.empty() || r.output_descs.empty()) return false;
  int64_t rows = 1;
  for (size_t i = 0; i + 1 < window.size(); ++i) rows *= window[i];
  const Dims& y = r.output_descs[0].shape.dims();
  return window.size() == 1 || (rows <= 2 && !y.empty() && y.back() >= 64);
}

// An NHWC activation with a per-channel [N|1, C, 1, 1] operand (squeeze-and-excitation's scale) as ge's binary
// kernel over the stored dims ([N, H, W, C], and [N|1, 1, 1, C] for the operand, whose plain and NHWC layouts
// coincide): 1.5x faster than oneDNN's jit:uni binary there. nullptr for any other case (a Sub of the activation
// from the per-channel operand included).
KernelPtr PrepareNhwcChannelBinary(const PrepareRequest& request) {
  if (request.input_descs.size() != 2 || request.output_descs.size() != 1) return nullptr;
  const TensorDesc& out = request.output_descs[0];
  const Dims& y = out.shape.dims();
  if (y.size() != 4 || PrimaryFormat(out.format) != Format::kNHWC) return nullptr;
  PrepareRequest r;
  r.node = request.node;
  r.opset = request.opset;
  r.max_isa = request.max_isa;
  r.intra_op_threads = request.intra_op_threads;
  r.const_inputs = request.const_inputs;
  r.const_inputs.resize(2, nullptr);
  int full = -1, channel = -1;
  for (int i = 0; i < 2; ++i) {
    const TensorDesc& in = request.input_descs[i];
    Dims d = in.shape.dims();
    if (d.size() > y.size()) return nullptr;
    d.insert(d.begin(), y.size() - d.size(), 1);
    TensorDesc stored(DataType::kFloat, Shape(Dims{}));
    if (d == y) {
      if (PrimaryFormat(in.format) != Format::kNHWC) return nullptr;
      stored.shape = Shape({d[0], d[2], d[3], d[1]});
      full = i;
    } else {
      if (d[2] != 1 || d[3] != 1 || (d[0] != 1 && d[0] != y[0]) || d[1] != y[1]) return nullptr;
      if (IsNonPlainLayout(in.format) && PrimaryFormat(in.format) != Format::kNHWC) return nullptr;
      stored.shape = Shape({d[0], 1, 1, d[1]});
      channel = i;
    }
    r.input_descs.push_back(stored);
  }
  if (full < 0 || channel < 0) return nullptr;
  if (ops::IsOp(*request.node, OpId::kSub) && channel == 0) return nullptr;
  r.output_descs.push_back(TensorDesc(DataType::kFloat, Shape({y[0], y[2], y[3], y[1]})));
  return PrepareBinary(r);
}

class ExecEngine final : public kernels::Engine {
 public:
  explicit ExecEngine(const ExecEngineConfig& config) : config_(config) {}

  const char* name() const override { return kExecEngineName; }
  std::vector<ops::OpId> Ops() const override {
    return {OpId::kConv,   OpId::kGeFusedConv,   OpId::kConcat, OpId::kLSTM,       OpId::kGRU,
            OpId::kMatMul, OpId::kGeFusedMatMul, OpId::kGemm,   OpId::kGeFusedGemm};
  }
  // It takes nodes only as the first engine offered another engine's node (exec/engine_choice.h).
  bool Claims(const ir::Node&) const override { return false; }
  bool Supports(const ir::Node& node) const override {
    if (FamilyOf(node) == Family::kNone || !node.subgraphs().empty()) return false;
    auto plain_or_nhwc = [](const ir::Value* v) {
      return v == nullptr || !IsNonPlainLayout(v->desc().format) || v->desc().format == Format::kNHWC;
    };
    return std::all_of(node.inputs().begin(), node.inputs().end(), plain_or_nhwc) &&
           std::all_of(node.outputs().begin(), node.outputs().end(), plain_or_nhwc);
  }
  // Its convolution and GEMM kernels split their work over every intra-op thread.
  bool UsesAllThreads() const override { return true; }

  StatusOr<KernelPtr> Prepare(const PrepareRequest& request) const override {
    GE_RETURN_IF_ERROR(ValidateRequest(request));
    const ir::Node& node = *request.node;
    const Family family = FamilyOf(node);
    if (family == Family::kNone || !FloatIo(request, family == Family::kRnn ? 4 : -1)) return KernelPtr();
    const std::string variant = Variant(request);
    if (family == Family::kRnn) return PrepareRnn(request, variant);
    if (PackedInput(node) >= 0) return KernelPtr();  // weights packed for another engine's kernel
    switch (family) {
      case Family::kConv:
        return PrepareConv(request, variant);
      case Family::kConcat:
        if (variant.empty()) return PrepareConcat(request);
        return KernelPtr();
      case Family::kMaxPool:
        // 2-D over NHWC: oneDNN 2.6's NHWC max pooling is several times slower (1.4x on GoogLeNet's pools).
        if (!variant.empty()) return KernelPtr();
        if (KernelPtr k = PrepareMaxPoolNhwc(request)) return k;
        if (PlainMaxPoolPays(request)) return PrepareMaxPoolPlain(request);
        return KernelPtr();
      case Family::kBinary:
        if (!variant.empty()) return KernelPtr();
        return PrepareNhwcChannelBinary(request);
      case Family::kMatMul:
        if (variant == kGePackedGemmVariant || (variant.empty() && PackedGemmIsDefault(request))) {
          return PrepareMatMulPacked(request);
        }
        return KernelPtr();
      default:
        return KernelPtr();
    }
  }

  StatusOr<kernels::KernelChoice> Choose(const PrepareRequest& request) const override {
    GE_ASSIGN_OR_RETURN(KernelPtr k, Prepare(request));
    kernels::KernelChoice choice;
    choice.prepared = k != nullptr;
    if (k == nullptr) return choice;
    choice.impl = k->impl_name();
    PackedConstant packed;
    if (k->PackedConstants(&packed)) {
      choice.packed.push_back(kernels::PackedWeights{packed.input, std::move(packed.layout), std::move(packed.bytes)});
    }
    return choice;
  }

  // Its kernels that build for the node, the one it takes by default first; the other engines' variants are
  // listed after them (exec/engine_choice.h merges the lists).
  std::vector<std::string> Variants(const PrepareRequest& request) const override {
    if (!ValidateRequest(request).ok() || PackedInput(*request.node) >= 0) return {};
    const Family family = FamilyOf(*request.node);
    if (!FloatIo(request, -1)) return {};
    std::vector<std::string> names;
    if (family == Family::kMatMul) {
      if (!HasVaryingDims(request) && PrepareMatMulPacked(request) != nullptr) names.push_back(kGePackedGemmVariant);
      return names;
    }
    if (family != Family::kConv) return names;
    const bool winograd_default = !TargetHasAvx512(request) && PrepareWinogradConvNhwc(request) != nullptr;
    if (winograd_default || PrepareWinogradConvNhwc(request, WinogradPolicy::kWhereSupported) != nullptr) {
      names.push_back(kGeWinogradVariant);
    }
    if (PrepareIm2colConvNhwc(request) != nullptr) {
      const bool im2col_default = !winograd_default && !TargetHasAvx512(request) && Im2colPays(request);
      names.insert(im2col_default ? names.begin() : names.end(), kGeIm2colVariant);
    }
    if (PrepareDepthwiseConvPlain(request) != nullptr) {
      names.insert(PlainDepthwisePays(request) && !winograd_default ? names.begin() : names.end(),
                   kGeDepthwisePlainVariant);
    }
    return names;
  }

 private:
  // Whether the other engines run AVX-512 kernels for the model's target here (x86-64-v4 within both).
  bool TargetHasAvx512(const PrepareRequest& r) const {
    IsaLevel level = config_.peer_max_isa != IsaLevel::kNone ? config_.peer_max_isa : IsaLevelOf(HostIsa().features);
    if (r.max_isa != IsaLevel::kNone && static_cast<int>(r.max_isa) < static_cast<int>(level)) level = r.max_isa;
    return static_cast<int>(level) >= static_cast<int>(IsaLevel::kX86_64_V4);
  }

  // Static dims, no AVX-512 kernels elsewhere for the target (or a small product), and no bfloat16 asked for where
  // the other engines have it.
  bool PackedGemmIsDefault(const PrepareRequest& r) const {
    if (HasVaryingDims(r) || (r.allow_bf16 && config_.peer_runs_bf16)) return false;
    return !TargetHasAvx512(r) || SmallGemm(r);
  }

  // Without a variant: Winograd where the other engines have none of their own at the target (below AVX-512), else
  // im2col where it pays there; the plain depthwise kernel where it pays. A variant of this engine's is prepared
  // when it builds.
  StatusOr<KernelPtr> PrepareConv(const PrepareRequest& request, const std::string& variant) const {
    if (variant == kGeWinogradVariant) return PrepareWinogradConvNhwc(request, WinogradPolicy::kWhereSupported);
    if (variant == kGeIm2colVariant) return PrepareIm2colConvNhwc(request);
    if (variant == kGeDepthwisePlainVariant) return PrepareDepthwiseConvPlain(request);
    if (!variant.empty()) return KernelPtr();
    if (!TargetHasAvx512(request)) {
      if (KernelPtr k = PrepareWinogradConvNhwc(request)) return k;
      if (Im2colPays(request)) {
        if (KernelPtr k = PrepareIm2colConvNhwc(request)) return k;
      }
    }
    if (PlainDepthwisePays(request)) return PrepareDepthwiseConvPlain(request);
    return KernelPtr();
  }

  // ge's LSTM and GRU unless the other engine's kernel is asked for: no primitive to create, no GEMM kernels to
  // generate on first use, and weights the compiler packs for them (a layout of another build is an error: the
  // model's weights exist only in it).
  static StatusOr<KernelPtr> PrepareRnn(const PrepareRequest& request, const std::string& variant) {
    if (variant == kBlockedEngineVariant) return KernelPtr();
    const bool lstm = ops::IsOp(*request.node, OpId::kLSTM);
    if (KernelPtr k = lstm ? PrepareLstm(request) : PrepareGru(request)) return k;
    const std::string layout = request.node->attrs().GetString(kPackedLayoutAttr, "");
    if (PackedInput(*request.node) >= 0 && layout.rfind("exec.", 0) == 0) {
      return DataLoss(NodeLabel(*request.node) + ": its weights were packed for another build's RNN kernel (" + layout +
                      ")");
    }
    return KernelPtr();
  }

  ExecEngineConfig config_;
};

}  // namespace

std::shared_ptr<const kernels::Engine> CreateExecEngine(const ExecEngineConfig& config) {
  return std::make_shared<ExecEngine>(config);
}

}  // namespace ge::exec
