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
#include "kernels/exec/exec_engine.h"
#include "kernels/exec/kernel_util.h"
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

// The variant that keeps a constant-weight MatMul / Gemm (or an LSTM / GRU) on oneDNN's kernel rather than ge's
// (exec/exec_engine.h), which is offered such nodes first.
constexpr const char* kDnnlGemmVariant = exec::kBlockedEngineVariant;

bool IoOk(const OpEntry& e, const OpView& v) {
  IoRules rules;
  rules.blocked_ok = e.blocked_ok;
  rules.index_input = e.index_input;
  rules.any_output = e.any_output;
  return CommonSupported(v, rules);
}

bool IsMatMul(const OpEntry& e) { return e.prepare == PrepareMatMul || e.prepare == PrepareGemm; }

// Known dims that stay for every run (a tuned oneDNN matmul variant is offered only then, as ge's packed SGEMM).
bool StaticDims(const OpView& v, const exec::PrepareRequest& r) { return v.static_shapes && !exec::HasVaryingDims(r); }

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
  if (dk == nullptr) {  // declined (the next engine or ge's fast kernels take the node), or one of ge's kernels
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
    if (IsMatMul(*e)) {
      if (!StaticDims(v, request) || !e->supported(v)) return {};
      return {kDnnlGemmVariant};
    }
    const OmpThreadsScope threads(std::max(1, v.threads));
    return ConvVariants(v);
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
