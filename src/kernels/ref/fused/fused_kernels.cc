// Reference kernels of the ge:: fused ops: each runs the kernel of the ONNX op it extends (Conv, Gemm, MatMul,
// BatchNormalization,
// called directly from the nn and math families), then the epilogue (fused_epilogue.h) in place on
// its output, so a fused node computes exactly what its unfused nodes compute.
#include <cstring>
#include <string>
#include <vector>

#include "kernels/ref/families.h"
#include "kernels/ref/fused/fused_epilogue.h"
#include "kernels/ref/math/math_kernels_internal.h"
#include "kernels/ref/nn/nn_kernels_internal.h"
#include "kernels/ref/ref_util.h"
#include "ops/fused/channel_shuffle_op.h"

namespace ge::ref {
namespace {

// The ONNX opset the base kernels run at (Gemm's C is optional from opset 11).
constexpr int64_t kBaseOpset = 17;

// The kernel of the ONNX op a fused op extends, called directly (no registry of its own).
RefKernelFn BaseKernel(OpId base) {
  switch (base) {
    case OpId::kConv: return nn::RefConv;
    case OpId::kBatchNormalization: return nn::RefBatchNorm;
    case OpId::kMatMul: return RefMatMul;
    case OpId::kGemm: return RefGemm;
    default: return nullptr;
  }
}

enum class AddKind { kNone, kSameShape, kLastDim };

// Runs `base` on ctx (it reads only its own inputs), then y = act(y + input add_input).
Status RunFused(KernelContext& ctx, OpId base, int add_input, AddKind add_kind) {
  ge::fused::ActivationSpec act;
  Status parsed = ge::fused::ParseActivation(ctx.attr(), &act);
  if (!parsed.ok()) return ctx.Error(parsed.message());
  const Tensor* x = ctx.input(0);
  if (x != nullptr && !IsFloatingPoint(x->dtype())) {
    return ctx.Unsupported(std::string("dtype ") + DataTypeName(x->dtype()) + " (fused ops are floating-point)");
  }
  RefKernelFn fn = BaseKernel(base);
  if (fn == nullptr) return ctx.Error("base kernel " + ops::OpLabel(base) + " is not registered");
  const int64_t opset = ctx.opset;
  ctx.opset = kBaseOpset;
  Status st = fn(ctx);
  ctx.opset = opset;
  GE_RETURN_IF_ERROR(st);
  if (!ctx.outputs[0].is_tensor()) return ctx.Error("the base kernel produced no tensor");
  Tensor& y = ctx.outputs[0].tensor;
  const Tensor* add = add_kind == AddKind::kNone ? nullptr : ctx.input(add_input);
  int64_t period = 0;
  if (add != nullptr) {
    if (add->dtype() != y.dtype()) {
      return ctx.Error(std::string("input ") + std::to_string(add_input) + " must have Y's dtype " +
                       DataTypeName(y.dtype()) + ", got " + DataTypeName(add->dtype()));
    }
    if (add_kind == AddKind::kSameShape && add->dims() != y.dims()) {
      return ctx.Error("Sum " + DimsToString(add->dims()) + " must have Y's shape " + DimsToString(y.dims()));
    }
    if (add_kind == AddKind::kLastDim) {
      if (y.rank() == 0 || add->rank() != 1 || add->dim(0) != y.dim(y.rank() - 1)) {
        return ctx.Error("Bias " + DimsToString(add->dims()) + " must be 1-D over Y's last dim, Y is " +
                         DimsToString(y.dims()));
      }
      period = add->dim(0);
    }
  }
  return VisitFloatType(y.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    fused::ApplyEpilogue<T>(act, add ? add->data<T>() : nullptr, period, y.data<T>(), y.numel());
  });
}

Status RefFusedConv(KernelContext& ctx) { return RunFused(ctx, OpId::kConv, 3, AddKind::kSameShape); }
Status RefFusedGemm(KernelContext& ctx) { return RunFused(ctx, OpId::kGemm, -1, AddKind::kNone); }
Status RefFusedMatMul(KernelContext& ctx) { return RunFused(ctx, OpId::kMatMul, 2, AddKind::kLastDim); }
Status RefFusedBatchNorm(KernelContext& ctx) { return RunFused(ctx, OpId::kBatchNormalization, -1, AddKind::kNone); }

// ge::ChannelShuffle on plain tensors: every output channel plane copied from its source plane.
Status RefChannelShuffle(KernelContext& ctx) {
  std::vector<int64_t> channels;
  const Tensor* x0 = ctx.input(0);
  if (x0 == nullptr || x0->rank() < 2) return ctx.Error("X1 must be [N, C, ...]");
  for (int i = 0; i < static_cast<int>(ctx.inputs.size()); ++i) {
    const Tensor* x = ctx.input(i);
    if (x == nullptr || x->dtype() != x0->dtype() || x->rank() != x0->rank()) return ctx.Error("inputs do not match");
    for (int d = 0; d < x->rank(); ++d) {
      if (d != 1 && x->dim(d) != x0->dim(d)) return ctx.Error("inputs differ outside the channel axis");
    }
    channels.push_back(x->dim(1));
  }
  const std::vector<ops::ShuffleSource> src = ops::ChannelShuffleSources(channels, ctx.attr().GetInt("groups", 0));
  const int64_t c = static_cast<int64_t>(src.size()), m = ctx.num_outputs();
  if (c == 0 || c % m != 0) return ctx.Error("the channels do not divide into groups and outputs");
  const int64_t n = x0->dim(0), per_out = c / m;
  int64_t plane = 1;
  for (int d = 2; d < x0->rank(); ++d) plane *= x0->dim(d);
  const size_t bytes = static_cast<size_t>(plane) * DataTypeSize(x0->dtype());
  for (int t = 0; t < m; ++t) {
    Dims dims = x0->dims();
    dims[1] = per_out;
    GE_ASSIGN_OR_RETURN(Tensor * y, ctx.AllocateOutput(t, dims, x0->dtype()));
    for (int64_t b = 0; b < n; ++b) {
      for (int64_t j = 0; j < per_out; ++j) {
        const ops::ShuffleSource& s = src[t * per_out + j];
        const Tensor* x = ctx.input(s.input);
        const char* from = static_cast<const char*>(x->raw_data()) + ((b * x->dim(1) + s.channel) * bytes);
        std::memcpy(static_cast<char*>(y->raw_data()) + (b * per_out + j) * bytes, from, bytes);
      }
    }
  }
  return Status::Ok();
}

// ge::Gelu: Y = X (+ B, as the Add before the GELU rounds it) with the erf GELU applied as torch.onnx's Div -> Erf ->
// Add -> Mul -> Mul would (fused_epilogue.h), so a graph the GeluFusion pass rewrote gives the same bits on the
// reference kernels.
template <typename T>
void GeluElements(const Tensor& x, const Tensor* b, Tensor* y) {
  T* out = y->data<T>();
  if (b == nullptr) {
    std::memcpy(out, x.raw_data(), x.nbytes());
  } else {
    const T* px = x.data<T>();
    const T* pb = b->data<T>();
    ForEachBroadcast(x.dims(), {x.dims(), b->dims()},
                     [&](int64_t i, const int64_t* off) { out[i] = px[off[0]] + pb[off[1]]; });
  }
  ge::fused::ActivationSpec spec;
  spec.kind = ge::fused::Activation::kGelu;
  fused::ApplyEpilogue<T>(spec, nullptr, 0, out, y->numel());
}

Status RefGelu(KernelContext& ctx) {
  const Tensor* x = ctx.input(0);
  const Tensor* b = ctx.input(1);  // nullptr when absent
  if (x == nullptr) return ctx.Error("X is required");
  if (x->dtype() != DataType::kFloat && x->dtype() != DataType::kDouble) {
    return ctx.Error(std::string("X must be float32 or float64, got ") + DataTypeName(x->dtype()));
  }
  if (b != nullptr) {
    if (b->dtype() != x->dtype()) {
      return ctx.Error(std::string("B must have X's dtype, got ") + DataTypeName(b->dtype()));
    }
    StatusOr<Dims> both = BroadcastDims(x->dims(), b->dims());
    if (!both.ok() || *both != x->dims()) return ctx.Error("B does not broadcast to X's shape");
  }
  GE_ASSIGN_OR_RETURN(Tensor * y, ctx.AllocateOutput(0, x->dims(), x->dtype()));
  if (x->dtype() == DataType::kFloat) {
    GeluElements<float>(*x, b, y);
  } else {
    GeluElements<double>(*x, b, y);
  }
  return Status::Ok();
}

}  // namespace

void RegisterTransformerRefKernels(KernelRegistry* r);      // transformer_kernels.cc
void RegisterSqueezeExciteRefKernel(KernelRegistry* r);     // squeeze_excite_kernels.cc
void RegisterConcatScaleShiftRefKernel(KernelRegistry* r);  // concat_scale_shift_kernels.cc

void RegisterFusedRefKernels(KernelRegistry* r) {
  r->Add(OpId::kGeFusedConv, RefFusedConv);
  r->Add(OpId::kGeFusedGemm, RefFusedGemm);
  r->Add(OpId::kGeFusedMatMul, RefFusedMatMul);
  r->Add(OpId::kGeFusedBatchNormalization, RefFusedBatchNorm);
  r->Add(OpId::kGeChannelShuffle, RefChannelShuffle);
  r->Add(OpId::kGeGelu, RefGelu);
  RegisterTransformerRefKernels(r);
  RegisterSqueezeExciteRefKernel(r);
  RegisterConcatScaleShiftRefKernel(r);
}

}  // namespace ge::ref
