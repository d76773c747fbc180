// Inference for the ge:: fused ops the compiler creates (never in ONNX input): the base op's own inference (Conv,
// Gemm, MatMul, from their families' registration functions), then the fused inputs and the activation.
//   ge::FusedConv(X, W, [B], [Sum]) -> Y     Y = act(Conv(X, W, B) + Sum), Sum of Y's shape and dtype
//   ge::FusedGemm(A, B, [C]) -> Y            Y = act(Gemm(A, B, C))
//   ge::FusedMatMul(A, B, [Bias]) -> Y       Y = act(MatMul(A, B) + Bias), Bias 1-D over Y's last dim
//   ge::FusedBatchNormalization(X, scale, B, mean, var) -> Y   Y = act(BatchNormalization(...)), inference only
//   ge::Gelu(X, [B]) -> Y                    Y = erf GELU of (X + B), B broadcast to X's shape
#include "ops/families.h"
#include "ops/infer_util.h"
#include "ops/fused/channel_shuffle_op.h"
#include "ops/fused/concat_scale_shift_op.h"
#include "ops/fused/fused_activation.h"
#include "ops/fused/squeeze_excite_op.h"
#include "ops/fused/trans_data_op.h"
#include "ops/fused/transformer_ops.h"
#include "ops/math/math_ops_internal.h"
#include "ops/nn/nn_ops_internal.h"

namespace ge::ops {
namespace {

// The ONNX opset whose Conv, Gemm and MatMul the fused ops extend (Gemm's C is optional from opset 11).
constexpr int64_t kBaseOpset = 17;

// Runs the base op's inference at kBaseOpset.
Status InferBase(InferContext& ctx, InferFn base_infer) {
  const int64_t opset = ctx.opset;
  ctx.opset = kBaseOpset;
  Status st = base_infer(ctx);
  ctx.opset = opset;
  return st;
}

Status CheckActivation(const InferContext& ctx) {
  fused::ActivationSpec spec;
  Status st = fused::ParseActivation(ctx.attr(), &spec);
  return st.ok() ? st : ctx.Error(st.message());
}

Status RequireFloat(const InferContext& ctx, int i, const char* what) {
  if (!ctx.has_input(i)) return Status::Ok();
  DataType dt = ctx.input(i)->dtype;
  if (dt != DataType::kUndefined && !IsFloatingPoint(dt)) {
    return ctx.Error(std::string(what) + " must be a floating-point tensor, got " + DataTypeName(dt));
  }
  return Status::Ok();
}

Status RequireOutputDtype(InferContext& ctx, int i, const char* what) {
  DataType want = ctx.output(0).dtype, got = ctx.input(i)->dtype;
  if (want != DataType::kUndefined && got != DataType::kUndefined && want != got) {
    return ctx.Error(std::string(what) + " must have Y's dtype " + DataTypeName(want) + ", got " +
                     DataTypeName(got));
  }
  if (want == DataType::kUndefined) ctx.output(0).dtype = got;
  return Status::Ok();
}

// Sum has exactly Y's shape; dims Y leaves unknown are taken from Sum.
Status MergeSum(InferContext& ctx) {
  if (!ctx.has_input(3)) return Status::Ok();
  GE_RETURN_IF_ERROR(RequireOutputDtype(ctx, 3, "Sum"));
  const Shape& s = ctx.input(3)->shape;
  Shape& y = ctx.output(0).shape;
  if (s.unknown_rank()) return Status::Ok();
  if (y.unknown_rank()) {
    y = s;
    return Status::Ok();
  }
  if (s.rank() != y.rank()) return ctx.Error("Sum " + s.ToString() + " must have Y's shape " + y.ToString());
  for (int i = 0; i < y.rank(); ++i) {
    if (s.dim(i) == kUnknownDim) continue;
    if (y.dim(i) == kUnknownDim) {
      y.set_dim(i, s.dim(i));
      y.set_symbol(i, s.symbol(i));
    } else if (y.dim(i) != s.dim(i)) {
      return ctx.Error("Sum " + s.ToString() + " must have Y's shape " + y.ToString());
    }
  }
  return Status::Ok();
}

Status InferFusedConv(InferContext& ctx) {
  GE_RETURN_IF_ERROR(InferBase(ctx, nn::InferConv));
  GE_RETURN_IF_ERROR(MergeSum(ctx));
  return CheckActivation(ctx);
}

Status InferFusedGemm(InferContext& ctx) {
  GE_RETURN_IF_ERROR(RequireFloat(ctx, 0, "A"));
  GE_RETURN_IF_ERROR(InferBase(ctx, InferGemm));
  return CheckActivation(ctx);
}

Status InferFusedMatMul(InferContext& ctx) {
  GE_RETURN_IF_ERROR(RequireFloat(ctx, 0, "A"));
  GE_RETURN_IF_ERROR(InferBase(ctx, InferMatMul));
  if (ctx.has_input(2)) {
    GE_RETURN_IF_ERROR(RequireOutputDtype(ctx, 2, "Bias"));
    const Shape& b = ctx.input(2)->shape;
    const Shape& y = ctx.output(0).shape;
    if (!b.unknown_rank() && b.rank() != 1) return ctx.Error("Bias must be 1-D, got " + b.ToString());
    if (!y.unknown_rank() && y.rank() == 0) return ctx.Error("Bias needs a result of rank >= 1, Y is a scalar");
    if (!b.unknown_rank() && !y.unknown_rank()) {
      int64_t n = y.dim(y.rank() - 1), got = b.dim(0);
      if (n != kUnknownDim && got != kUnknownDim && n != got) {
        return ctx.Error("Bias " + b.ToString() + " does not match Y's last dim " + std::to_string(n));
      }
    }
  }
  return CheckActivation(ctx);
}

Status InferFusedBatchNorm(InferContext& ctx) {
  if (ctx.attr().GetInt("training_mode", 0) != 0) return ctx.Error("a fused BatchNormalization is inference only");
  GE_RETURN_IF_ERROR(InferBase(ctx, nn::InferBatchNorm));
  return CheckActivation(ctx);
}

// ge::Gelu(X, [B]): the erf GELU of a floating-point tensor (plus B, of X's dtype, broadcast to X's shape),
// elementwise; Y has X's dtype and shape.
Status InferGelu(InferContext& ctx) {
  GE_RETURN_IF_ERROR(RequireFloat(ctx, 0, "X"));
  GE_RETURN_IF_ERROR(InferSameAsInput0(ctx));
  if (!ctx.has_input(1)) return Status::Ok();
  GE_RETURN_IF_ERROR(RequireOutputDtype(ctx, 1, "B"));
  const Shape& x = ctx.input(0)->shape;
  const Shape& b = ctx.input(1)->shape;
  if (x.unknown_rank() || b.unknown_rank()) return Status::Ok();
  bool fits = b.rank() <= x.rank();
  for (int i = 1; fits && i <= b.rank(); ++i) {
    const int64_t bd = b.dim(b.rank() - i), xd = x.dim(x.rank() - i);
    fits = bd == 1 || bd == kUnknownDim || xd == kUnknownDim || bd == xd;
  }
  if (!fits) return ctx.Error("B " + b.ToString() + " does not broadcast to X's shape " + x.ToString());
  return Status::Ok();
}

}  // namespace

void RegisterFusedOps(OpRegistry* r) {
  r->Add({OpId::kGeFusedConv, 2, 4, 1, 1, InferFusedConv});
  r->Add({OpId::kGeFusedGemm, 2, 3, 1, 1, InferFusedGemm});
  r->Add({OpId::kGeFusedMatMul, 2, 3, 1, 1, InferFusedMatMul});
  r->Add({OpId::kGeFusedBatchNormalization, 5, 5, 1, 1, InferFusedBatchNorm});
  r->Add({OpId::kGeTransData, 1, 1, 1, 1, InferTransData});
  r->Add({OpId::kGeChannelShuffle, 1, kVariadic, 1, kVariadic, InferChannelShuffle});
  r->Add({OpId::kGeConcatScaleShift, 3, kVariadic, 1, 1, InferConcatScaleShift});
  r->Add({OpId::kGeSqueezeExcite, 2, 5, 1, 1, InferSqueezeExcite});  // W2 (input 3) checked by the inference
  r->Add({OpId::kGeGelu, 1, 2, 1, 1, InferGelu});
  RegisterTransformerOps(r);
}

}  // namespace ge::ops
