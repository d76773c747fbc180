// Reference kernels of the ge:: fused ops: each runs the kernel of the ONNX op it extends (Conv, Gemm, MatMul,
// BatchNormalization,
// taken from the nn and math families' registration functions), then the epilogue (fused_epilogue.h) in place on
// its output, so a fused node computes exactly what its unfused nodes compute.
#include <string>

#include "kernels/ref/families.h"
#include "kernels/ref/fused/fused_epilogue.h"
#include "kernels/ref/math/math_kernels_internal.h"
#include "kernels/ref/nn/nn_kernels_internal.h"

namespace ge::ref {
namespace {

// The ONNX opset the base kernels run at (Gemm's C is optional from opset 11).
constexpr int64_t kBaseOpset = 17;

const KernelRegistry& BaseKernels() {
  static const KernelRegistry* registry = [] {
    auto* r = new KernelRegistry();
    nn::RegisterConvKernels(r);
    nn::RegisterNormKernels(r);
    RegisterMatMulRefKernels(r);
    return r;
  }();
  return *registry;
}

enum class AddKind { kNone, kSameShape, kLastDim };

// Runs `base` on ctx (it reads only its own inputs), then y = act(y + input add_input).
Status RunFused(KernelContext& ctx, const char* base, int add_input, AddKind add_kind) {
  ge::fused::ActivationSpec act;
  Status parsed = ge::fused::ParseActivation(ctx.attr(), &act);
  if (!parsed.ok()) return ctx.Error(parsed.message());
  const Tensor* x = ctx.input(0);
  if (x != nullptr && !IsFloatingPoint(x->dtype())) {
    return ctx.Unsupported(std::string("dtype ") + DataTypeName(x->dtype()) + " (fused ops are floating-point)");
  }
  RefKernelFn fn = BaseKernels().Find("", base);
  if (fn == nullptr) return ctx.Error(std::string("base kernel ") + base + " is not registered");
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

Status RefFusedConv(KernelContext& ctx) { return RunFused(ctx, "Conv", 3, AddKind::kSameShape); }
Status RefFusedGemm(KernelContext& ctx) { return RunFused(ctx, "Gemm", -1, AddKind::kNone); }
Status RefFusedMatMul(KernelContext& ctx) { return RunFused(ctx, "MatMul", 2, AddKind::kLastDim); }
Status RefFusedBatchNorm(KernelContext& ctx) { return RunFused(ctx, "BatchNormalization", -1, AddKind::kNone); }

}  // namespace

void RegisterTransformerRefKernels(KernelRegistry* r);  // transformer_kernels.cc

void RegisterFusedRefKernels(KernelRegistry* r) {
  r->Add("ge", "FusedConv", RefFusedConv);
  r->Add("ge", "FusedGemm", RefFusedGemm);
  r->Add("ge", "FusedMatMul", RefFusedMatMul);
  r->Add("ge", "FusedBatchNormalization", RefFusedBatchNorm);
  RegisterTransformerRefKernels(r);
}

}  // namespace ge::ref
