#include "ops/fused/squeeze_excite_op.h"

#include <string>

#include "ops/fused/fused_activation.h"

namespace ge::ops {
namespace {

// A weight [rows, cols, 1...] (or [rows, cols]) of a 1x1 convolution; unknown dims pass.
Status CheckWeight(const InferContext& ctx, int i, const char* what, int64_t rows, int64_t cols) {
  const TensorDesc* w = ctx.input(i);
  if (w->dtype != DataType::kUndefined && w->dtype != DataType::kFloat) {
    return ctx.Error(std::string(what) + " must be float32, got " + DataTypeName(w->dtype));
  }
  if (w->shape.unknown_rank()) return Status::Ok();
  const Shape& s = w->shape;
  bool ok = s.rank() >= 2;
  for (int d = 2; ok && d < s.rank(); ++d) ok = s.dim(d) == 1 || s.dim(d) == kUnknownDim;
  auto fits = [](int64_t got, int64_t want) { return got == kUnknownDim || want == kUnknownDim || got == want; };
  if (ok) ok = fits(s.dim(0), rows) && fits(s.dim(1), cols);
  if (!ok) {
    return ctx.Error(std::string(what) + " " + s.ToString() + " is not a 1x1 convolution weight [" +
                     (rows == kUnknownDim ? std::string("?") : std::to_string(rows)) + ", " +
                     (cols == kUnknownDim ? std::string("?") : std::to_string(cols)) + ", 1...]");
  }
  return Status::Ok();
}

Status CheckBias(const InferContext& ctx, int i, const char* what, int64_t n) {
  if (!ctx.has_input(i)) return Status::Ok();
  const TensorDesc* b = ctx.input(i);
  if (b->dtype != DataType::kUndefined && b->dtype != DataType::kFloat) {
    return ctx.Error(std::string(what) + " must be float32, got " + DataTypeName(b->dtype));
  }
  if (b->shape.unknown_rank()) return Status::Ok();
  if (b->shape.rank() != 1 || (n != kUnknownDim && b->shape.dim(0) != kUnknownDim && b->shape.dim(0) != n)) {
    return ctx.Error(std::string(what) + " must be [" + std::to_string(n) + "], got " + b->shape.ToString());
  }
  return Status::Ok();
}

}  // namespace

Status InferSqueezeExcite(InferContext& ctx) {
  if (!ctx.has_input(0) || !ctx.has_input(1) || !ctx.has_input(3)) return ctx.Error("X, W1 and W2 are required");
  const TensorDesc& x = *ctx.input(0);
  if (x.dtype != DataType::kUndefined && x.dtype != DataType::kFloat) {
    return ctx.Error(std::string("X must be float32, got ") + DataTypeName(x.dtype));
  }
  int64_t c = kUnknownDim;
  if (!x.shape.unknown_rank()) {
    if (x.shape.rank() < 3) return ctx.Error("X must be [N, C, spatial...], got " + x.shape.ToString());
    c = x.shape.dim(1);
  }
  const TensorDesc& w1 = *ctx.input(1);
  const int64_t r = w1.shape.unknown_rank() || w1.shape.rank() < 1 ? kUnknownDim : w1.shape.dim(0);
  GE_RETURN_IF_ERROR(CheckWeight(ctx, 1, "W1", r, c));
  GE_RETURN_IF_ERROR(CheckBias(ctx, 2, "B1", r));
  GE_RETURN_IF_ERROR(CheckWeight(ctx, 3, "W2", c, r));
  GE_RETURN_IF_ERROR(CheckBias(ctx, 4, "B2", c));
  fused::ActivationSpec act;
  Status st = fused::ParseActivation(ctx.attr(), &act);
  if (st.ok()) st = fused::ParseActivation(ctx.attr(), &act, "gate_activation", "gate_activation_params");
  if (!st.ok()) return ctx.Error(st.message());
  ctx.output(0) = TensorDesc(DataType::kFloat, x.shape);
  return Status::Ok();
}

}  // namespace ge::ops
