// The engine's kernel table and the exception edge: every oneDNN call below PrepareDnnlKernel may throw
// dnnl::error; it is caught here and becomes nullptr (unsupported configuration) or a Status naming the node.
#include "kernels/dnnl/dnnl_engine.h"

#include <algorithm>
#include <cstdlib>
#include <mutex>
#include <new>
#include <string>

#include "kernels/dnnl/dnnl_kernel.h"
#include "kernels/dnnl/dnnl_ops.h"
#include "kernels/dnnl/omp_threads.h"
#include "kernels/dnnl/packed_layout.h"
#include "kernels/exec/concat_kernel.h"
#include "kernels/exec/depthwise_conv_plain_kernel.h"
#include "kernels/exec/gru_kernel.h"
#include "kernels/exec/im2col_conv_kernel.h"
#include "kernels/exec/kernel_util.h"
#include "kernels/exec/lstm_kernel.h"
#include "kernels/exec/matmul_kernel.h"
#include "kernels/exec/winograd_conv_kernel.h"
#include "ops/op_id.h"

namespace ge::dnnl_kernels {
namespace {

using ops::OpId;

struct OpEntry {
  OpId op;
  bool (*supported)(const OpView&);
  KernelPtr (*prepare)(const OpView&);
  bool blocked_ok = false;  // runs on NHWC and NC1HWC0 activations as well as plain ones
  bool claimed = false;     // taken by default at engine assignment (DnnlClaims)
  int index_input = -1;     // IoRules::index_input
  bool any_output = false;  // IoRules::any_output
};

// clang-format off
constexpr OpEntry kOps[] = {
    {OpId::kConv, ConvSupported, PrepareConv, true, true},
    {OpId::kGeFusedConv, ConvSupported, PrepareConv, true, true},
    {OpId::kConvTranspose, ConvTransposeSupported, PrepareConvTranspose, true, true},
    {OpId::kMatMul, MatMulSupported, PrepareMatMul, false, true},
    {OpId::kGeFusedMatMul, MatMulSupported, PrepareMatMul, false, true},
    {OpId::kGemm, GemmSupported, PrepareGemm, false, true},
    {OpId::kGeFusedGemm, GemmSupported, PrepareGemm, false, true},
    {OpId::kMaxPool, PoolSupported, PreparePool, true, true},
    {OpId::kAveragePool, PoolSupported, PreparePool, true, true},
    {OpId::kGlobalAveragePool, PoolSupported, PreparePool, true, true},
    {OpId::kGlobalMaxPool, PoolSupported, PreparePool, true, true},
    {OpId::kSoftmax, SoftmaxSupported, PrepareSoftmax, false, true},
    {OpId::kLogSoftmax, SoftmaxSupported, PrepareSoftmax, false, true},
    {OpId::kLayerNormalization, NormSupported, PrepareNorm, false, true},
    {OpId::kBatchNormalization, NormSupported, PrepareNorm, true, true},
    {OpId::kGeFusedBatchNormalization, NormSupported, PrepareNorm, true, true},
    {OpId::kGeLayerNormalization, NormSupported, PrepareNorm, false, true},
    {OpId::kGeAttention, AttentionSupported, PrepareAttention, false, true},
    {OpId::kRelu, EltwiseSupported, PrepareEltwise},
    {OpId::kLeakyRelu, EltwiseSupported, PrepareEltwise},
    {OpId::kElu, EltwiseSupported, PrepareEltwise},
    {OpId::kSigmoid, EltwiseSupported, PrepareEltwise},
    {OpId::kTanh, EltwiseSupported, PrepareEltwise},
    {OpId::kHardSigmoid, EltwiseSupported, PrepareEltwise},
    {OpId::kHardSwish, EltwiseSupported, PrepareEltwise},
    {OpId::kAbs, EltwiseSupported, PrepareEltwise},
    {OpId::kSqrt, EltwiseSupported, PrepareEltwise},
    {OpId::kExp, EltwiseSupported, PrepareEltwise},
    {OpId::kLog, EltwiseSupported, PrepareEltwise},
    {OpId::kSoftplus, EltwiseSupported, PrepareEltwise},
    {OpId::kClip, EltwiseSupported, PrepareEltwise},
    {OpId::kAdd, BinarySupported, PrepareBinary, true},
    {OpId::kSub, BinarySupported, PrepareBinary, true},
    {OpId::kMul, BinarySupported, PrepareBinary, true},
    {OpId::kDiv, BinarySupported, PrepareBinary, true},
    {OpId::kMax, BinarySupported, PrepareBinary, true},
    {OpId::kMin, BinarySupported, PrepareBinary, true},
    {OpId::kConcat, ConcatSumSupported, PrepareConcatSum, true},
    {OpId::kSum, ConcatSumSupported, PrepareConcatSum, true},
    {OpId::kGeTransData, TransDataSupported, PrepareTransData, true},
    {OpId::kLSTM, RnnSupported, PrepareRnn, false, true, 4, true},
    {OpId::kGRU, RnnSupported, PrepareRnn, false, true, 4, true},
};
// clang-format on

const OpEntry* FindOp(const ir::Node& node) {
  const OpId id = ops::OpIdOf(node);
  for (const OpEntry& e : kOps) {
    if (e.op == id) return &e;
  }
  return nullptr;
}

// The variant name of ge's own Winograd F(4,3) convolution among the dnnl engine's convolution variants.
constexpr const char kGeWinogradVariant[] = "ge_winograd";
// ... and of its im2col + packed SGEMM convolution.
constexpr const char kGeIm2colVariant[] = "ge_im2col";
// The variant name of ge's plain-layout depthwise convolution (exec/depthwise_conv_plain_kernel.h).
constexpr const char kGeDepthwisePlainVariant[] = "ge_depthwise_plain";
// The variant names of a constant-weight MatMul / Gemm: ge's packed AVX2 SGEMM (exec/matmul_kernel.h), or oneDNN's
// (also an LSTM's oneDNN kernel rather than ge's batch-1 one).
constexpr const char kGePackedGemmVariant[] = "ge_packed_gemm";
constexpr const char kDnnlGemmVariant[] = "dnnl";

// Whether oneDNN runs AVX-512 kernels for the model's target here (x86-64-v4 within both the CPU and the target).
bool TargetHasAvx512(IsaLevel max_isa) {
  IsaLevel level = DnnlMaxIsaLevel();
  if (max_isa != IsaLevel::kNone && static_cast<int>(max_isa) < static_cast<int>(level)) level = max_isa;
  return static_cast<int>(level) >= static_cast<int>(IsaLevel::kX86_64_V4);
}

// oneDNN 2.6 has Winograd convolutions only for AVX-512 (avx512_core).
bool DnnlWinogradAvailable(IsaLevel max_isa) { return TargetHasAvx512(max_isa); }

// Below AVX-512, where Winograd does not pay: a spatial window over 128+ input channels (K = KH*KW*IC >= 1152) into
// 128+ output channels, e.g. ResNet's stride-2 3x3 convs and its 7x7 ones, which oneDNN's direct AVX2 kernels run at
// ~2/3 of the sgemm peak.
bool Im2colPays(const exec::PrepareRequest& r) {
  const Tensor* w = exec::ConstInput(r, 1);
  if (w == nullptr || w->rank() != 4) return false;
  const int64_t window = w->dim(2) * w->dim(3);
  return window > 1 && w->dim(0) >= 128 && w->dim(1) >= 128;
}

// ge's plain depthwise kernel puts one output per vector lane along the rows: it pays for 1-D convolutions (oneDNN:
// im2col + GEMM, 5-30x slower over 256-512 channels) and for 2-D ones over input rows of 100+ elements (3x3 stride 2
// over 96 x 112 x 112: 0.65 -> 0.46 ms); over shorter rows oneDNN's NHWC kernel, reorders included, is faster (1.1-2x
// at 7x7 to 56x56 stride 1), as its lanes run over channels.
bool PlainDepthwisePays(const exec::PrepareRequest& r) {
  if (r.input_descs.empty()) return false;
  const Shape& x = r.input_descs[0].shape;
  return x.rank() == 3 || (x.rank() == 4 && x.IsFullyKnown() && x.dim(3) >= 100);
}

bool IoOk(const OpEntry& e, const OpView& v) {
  IoRules rules;
  rules.blocked_ok = e.blocked_ok;
  rules.index_input = e.index_input;
  rules.any_output = e.any_output;
  return CommonSupported(v, rules);
}

bool IsMatMul(const OpEntry& e) { return e.prepare == PrepareMatMul || e.prepare == PrepareGemm; }

// Known dims that stay for every run (ge's packed SGEMM is prepared for one M; oneDNN's matmul serves varying ones).
bool StaticDims(const OpView& v, const exec::PrepareRequest& r) { return v.static_shapes && !exec::HasVaryingDims(r); }

// Whether a matmul without a variant goes to ge's packed SGEMM (when it supports the node): static dims, no AVX-512
// for the target, and no bfloat16 kernels asked for where oneDNN has them.
// Multiply-adds (M x K x N) up to which a constant-weight matrix product goes to ge's packed SGEMM even where oneDNN
// has AVX-512 kernels: creating oneDNN's primitive JIT-generates code at load (milliseconds), against a few
// microseconds per run that the AVX2 kernel loses at this size (an RNN tagger's or classifier's output layer).
// Below six rows (one register tile) the AVX2 kernel's few accumulators wait on each other: only weights of up to
// kSmallGemvWeights elements go there.
constexpr int64_t kSmallGemmMacs = 512 * 1024;
constexpr int64_t kSmallGemvWeights = 64 * 1024;

bool SmallGemm(const OpView& v) {
  const Tensor* w = v.const_in(1);
  if (w == nullptr || v.num_out() < 1 || !v.has_out(0) || v.out_dims(0).empty() || v.packed_input >= 0) return false;
  const int64_t n = v.out_dims(0).back();
  int64_t out = 1;
  for (int64_t d : v.out_dims(0)) out *= d;
  if (n <= 0) return false;
  const int64_t m = out / n;
  return m * w->numel() <= kSmallGemmMacs && (m >= 6 || w->numel() <= kSmallGemvWeights);  // M x (K x N)
}

bool PackedGemmIsDefault(const OpView& v, const exec::PrepareRequest& r) {
  if (!StaticDims(v, r) || (r.allow_bf16 && CpuHasBf16())) return false;
  return !TargetHasAvx512(v.max_isa) || SmallGemm(v);
}

bool Unsupported(dnnl_status_t s) { return s == dnnl_unimplemented || s == dnnl_invalid_arguments; }

}  // namespace

StatusOr<std::unique_ptr<exec::PreparedKernel>> PrepareDnnlKernel(const exec::PrepareRequest& request) {
  GE_RETURN_IF_ERROR(exec::ValidateRequest(request));
  const OpEntry* e = FindOp(*request.node);
  if (e == nullptr) return std::unique_ptr<exec::PreparedKernel>();
  const std::string label = exec::NodeLabel(*request.node);
  try {
    const OpView v = OpView::FromRequest(request);
    if (!IoOk(*e, v)) return std::unique_ptr<exec::PreparedKernel>();
    const OmpThreadsScope threads(std::max(1, v.threads));
    // ge's own Winograd F(4,3) kernel (exec/winograd_conv_kernel.h): by default where oneDNN has no Winograd of its
    // own at the model's target (below AVX-512) and it pays; anywhere as the ge_winograd variant.
    if (e->prepare == PrepareConv && v.variant == kGeWinogradVariant) {
      if (KernelPtr k = exec::PrepareWinogradConvNhwc(request, exec::WinogradPolicy::kWhereSupported)) return k;
    }
    if (e->prepare == PrepareConv && v.variant.empty() && !DnnlWinogradAvailable(v.max_isa)) {
      if (KernelPtr k = exec::PrepareWinogradConvNhwc(request)) return k;
      if (Im2colPays(request)) {
        if (KernelPtr k = exec::PrepareIm2colConvNhwc(request)) return k;
      }
    }
    if (e->prepare == PrepareConv && v.variant == kGeIm2colVariant) {
      if (KernelPtr k = exec::PrepareIm2colConvNhwc(request)) return k;
    }
    // A depthwise convolution over plain activations on ge's kernel (exec/depthwise_conv_plain_kernel.h) where it
    // pays: oneDNN runs it only between reorders into NHWC and back, or as im2col + GEMM (1-D).
    if (e->prepare == PrepareConv &&
        (v.variant == kGeDepthwisePlainVariant || (v.variant.empty() && PlainDepthwisePays(request)))) {
      if (KernelPtr k = exec::PrepareDepthwiseConvPlain(request)) return k;
    }
    // A Concat whose inputs and output are all in plain layouts goes to ge's exec.concat (row memcpys; oneDNN's
    // `simple` concat moves plain NCHW slices element by element): the engine keeps blocked and NHWC ones, which
    // format selection gives it inside convolution chains.
    if (request.node->op_type() == "Concat" && v.variant.empty()) {
      if (KernelPtr k = exec::PrepareConcat(request)) return k;
    }
    // ge's LSTM and GRU (exec/lstm_kernel.h, exec/gru_kernel.h) unless the oneDNN kernel is asked for: no
    // primitive to create, no GEMM kernels to generate on first use, and weights the compiler packs for them.
    if (e->prepare == PrepareRnn && v.variant != kDnnlGemmVariant) {
      const bool lstm = request.node->op_type() == "LSTM";
      if (KernelPtr k = lstm ? exec::PrepareLstm(request) : exec::PrepareGru(request)) return k;
      if (v.packed_input >= 0) {
        return DataLoss(label + ": its weights were packed for another build's RNN kernel (" + v.packed_layout + ")");
      }
    }
    if (IsMatMul(*e) && (v.variant == kGePackedGemmVariant || (v.variant.empty() && PackedGemmIsDefault(v, request)))) {
      if (KernelPtr k = exec::PrepareMatMulPacked(request)) return k;
    }
    return e->prepare(v);
  } catch (const dnnl::error& err) {
    if (Unsupported(err.status)) return std::unique_ptr<exec::PreparedKernel>();
    if (err.status == dnnl_out_of_memory) return ResourceExhausted(label + ": oneDNN: " + err.what());
    return Internal(label + ": oneDNN: " + err.what());
  } catch (const std::bad_alloc&) {
    return ResourceExhausted(label + ": out of memory preparing a oneDNN kernel");
  } catch (const PackedWeightsError& err) {
    return DataLoss(label + ": " + err.what());
  } catch (const std::exception& err) {
    return Internal(label + ": preparing a oneDNN kernel: " + err.what());
  }
}

StatusOr<KernelChoice> ChooseKernel(const exec::PrepareRequest& request) {
  GE_ASSIGN_OR_RETURN(std::unique_ptr<exec::PreparedKernel> k, PrepareDnnlKernel(request));
  KernelChoice choice;
  auto* dk = dynamic_cast<DnnlKernel*>(k.get());
  if (dk == nullptr) {  // declined (the loader falls back to ge's own kernels), or ge's own variant chosen
    choice.prepared = k != nullptr;
    if (k == nullptr) return choice;
    choice.impl = k->impl_name();
    exec::PackedConstant packed;
    if (k->PackedConstants(&packed)) {
      choice.packed.push_back(PackedWeights{packed.input, std::move(packed.layout), std::move(packed.bytes)});
    }
    return choice;
  }
  choice.prepared = true;
  choice.impl = dk->impl_name();
  choice.reference = dk->reference();
  std::vector<PackedWeights>& out = choice.packed;
  try {
    for (const DnnlKernel::ReorderedWeights& w : dk->reordered_weights()) {
      PackedWeights p;
      p.input = w.input;
      const dnnl::memory::desc md = w.memory.get_desc();
      // Blocked layouts and Winograd's transformed weights (packed_layout.h); anything else is reordered at load.
      if (md.data.format_kind != dnnl_blocked && md.data.format_kind != dnnl_format_kind_wino) continue;
      p.layout = EncodePackedLayout(md);
      const auto* data = static_cast<const uint8_t*>(w.memory.get_data_handle());
      p.bytes.assign(data, data + md.get_size());
      out.push_back(std::move(p));
    }
  } catch (const dnnl::error& err) {
    return Internal(exec::NodeLabel(*request.node) + ": oneDNN: " + err.what());
  }
  return choice;
}

std::vector<std::string> KernelVariants(const exec::PrepareRequest& request) {
  const OpEntry* e = FindOp(*request.node);
  if (e == nullptr || !exec::ValidateRequest(request).ok()) return {};
  if (e->prepare != PrepareConv && !IsMatMul(*e)) return {};
  try {
    const OpView v = OpView::FromRequest(request);
    if (!IoOk(*e, v)) return {};
    if (IsMatMul(*e)) {  // the default first
      if (!StaticDims(v, request) || !e->supported(v) || exec::PrepareMatMulPacked(request) == nullptr) return {};
      if (PackedGemmIsDefault(v, request)) return {kGePackedGemmVariant, kDnnlGemmVariant};
      return {kDnnlGemmVariant, kGePackedGemmVariant};
    }
    const OmpThreadsScope threads(std::max(1, v.threads));
    std::vector<std::string> names = ConvVariants(v);
    // The default first: ge's Winograd where PrepareDnnlKernel takes it without a variant.
    if (!DnnlWinogradAvailable(v.max_isa) && exec::PrepareWinogradConvNhwc(request) != nullptr) {
      names.insert(names.begin(), kGeWinogradVariant);
    } else if (exec::PrepareWinogradConvNhwc(request, exec::WinogradPolicy::kWhereSupported) != nullptr) {
      names.push_back(kGeWinogradVariant);
    }
    if (exec::PrepareDepthwiseConvPlain(request) != nullptr) {
      names.insert(PlainDepthwisePays(request) ? names.begin() : names.end(), kGeDepthwisePlainVariant);
    }
    if (exec::PrepareIm2colConvNhwc(request) != nullptr) {
      const bool im2col_default = names.empty() || names.front() != kGeWinogradVariant;
      if (im2col_default && !DnnlWinogradAvailable(v.max_isa) && Im2colPays(request)) {
        names.insert(names.begin(), kGeIm2colVariant);
      } else {
        names.push_back(kGeIm2colVariant);
      }
    }
    return names;
  } catch (const std::exception&) {
    return {};
  }
}

std::vector<ops::OpId> DnnlOps() {
  std::vector<ops::OpId> ids;
  for (const OpEntry& e : kOps) ids.push_back(e.op);
  return ids;
}

bool DnnlClaims(const ir::Node& node) {
  const OpEntry* e = FindOp(node);
  return e != nullptr && e->claimed && DnnlSupports(node);
}

bool DnnlSupports(const ir::Node& node) {
  const OpEntry* e = FindOp(node);
  if (e == nullptr || !node.subgraphs().empty()) return false;
  try {
    const OpView v = OpView::FromNode(node);
    return IoOk(*e, v) && e->supported(v);
  } catch (const std::exception&) {
    return false;
  }
}

namespace {

class DnnlEngine final : public kernels::Engine {
 public:
  const char* name() const override { return kDnnlEngineName; }
  std::vector<ops::OpId> Ops() const override { return DnnlOps(); }
  bool Claims(const ir::Node& node) const override { return DnnlClaims(node); }
  bool Supports(const ir::Node& node) const override { return DnnlSupports(node); }
  // nChw16c with AVX-512, nChw8c below: the float32 vector width.
  int BlockedChannels(IsaLevel target) const override {
    return static_cast<int>(target) >= static_cast<int>(IsaLevel::kX86_64_V4) ? 16 : 8;
  }
  bool UsesAllThreads() const override { return true; }
  IsaLevel MaxIsaLevel() const override { return DnnlMaxIsaLevel(); }
  bool RunsBf16() const override { return CpuHasBf16(); }
  StatusOr<std::unique_ptr<exec::PreparedKernel>> Prepare(const exec::PrepareRequest& request) const override {
    return PrepareDnnlKernel(request);
  }
  StatusOr<KernelChoice> Choose(const exec::PrepareRequest& request) const override { return ChooseKernel(request); }
  std::vector<std::string> Variants(const exec::PrepareRequest& request) const override {
    return KernelVariants(request);
  }
};

}  // namespace

// oneDNN's process-wide primitive cache (1024 primitives by default) only grows under shape churn: ge's kernels
// hold their primitives themselves (prepared once for static models, in runtime v2's per-node cache for dynamic
// ones). A GPT-style decoder run 600 times at random lengths 1..256 grew RSS by 31% with the default, 3% with 64.
// With runtime v2's arena (its memory no longer grows after warm-up) the cache was most of what still grew: the
// RoPE/GQA decoder at 2,000 random lengths after 20 warm-up runs +3.6% RSS with 64, +1.5% with 16, run time alike
// (what the cache still serves: nodes of one run preparing the same shape, which are the most recent entries).
// Set once per process, unless the user chose a capacity with ONEDNN_PRIMITIVE_CACHE_CAPACITY.
static void LimitPrimitiveCache() {
  static std::once_flag once;
  std::call_once(once, [] {
    if (std::getenv("ONEDNN_PRIMITIVE_CACHE_CAPACITY") != nullptr) return;
    try {
      dnnl::set_primitive_cache_capacity(16);
    } catch (const dnnl::error&) {
    }
  });
}

std::shared_ptr<const kernels::Engine> CreateDnnlEngine() {
  LimitPrimitiveCache();
  return std::make_shared<DnnlEngine>();
}

}  // namespace ge::dnnl_kernels
