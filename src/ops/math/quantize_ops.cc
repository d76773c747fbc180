// Inference for QuantizeLinear, DequantizeLinear (per-tensor; per-axis since opset 13) and DynamicQuantizeLinear.
#include "ops/math/math_ops_internal.h"

namespace ge::ops {
namespace {

using math::BadDtype;
using math::DtypeIn;

constexpr std::initializer_list<DataType> kQuantTypes = {DataType::kUint8, DataType::kInt8, DataType::kUint16,
                                                         DataType::kInt16};
constexpr std::initializer_list<DataType> kFloatTypes = {DataType::kFloat, DataType::kFloat16, DataType::kDouble,
                                                         DataType::kBFloat16};

// scale (and zero point) are scalars (per-tensor) or 1-D with x.shape[axis] elements (per-axis).
Status CheckQuantParams(const InferContext& ctx, int x_in, int scale_in, int zp_in) {
  const Shape& x = ctx.input(x_in)->shape;
  const Shape& scale = ctx.input(scale_in)->shape;
  if (scale.unknown_rank()) return Status::Ok();
  if (scale.rank() > 1) return ctx.Error("scale must be a scalar or 1-D, got " + scale.ToString());
  const bool per_axis = scale.rank() == 1 && scale.dim(0) != 1;
  if (per_axis) {
    if (ctx.opset < 13) return ctx.Error("per-axis scale needs opset 13, got " + scale.ToString());
    if (!x.unknown_rank()) {
      auto axis = NormalizeAxis(ctx.attr().GetInt("axis", 1), x.rank());
      if (!axis.ok()) return ctx.Error("attribute axis: " + axis.status().message());
      int64_t d = x.dim(*axis);
      if (d >= 0 && scale.dim(0) >= 0 && d != scale.dim(0)) {
        return ctx.Error("scale " + scale.ToString() + " does not match dim " + std::to_string(*axis) + " of " +
                         x.ToString());
      }
    }
  }
  if (ctx.has_input(zp_in)) {
    const Shape& zp = ctx.input(zp_in)->shape;
    if (!zp.unknown_rank()) {
      bool same = zp.rank() == scale.rank() || (zp.rank() <= 1 && scale.rank() <= 1);
      if (!same || (zp.rank() == 1 && scale.rank() == 1 && zp.dim(0) >= 0 && scale.dim(0) >= 0 &&
                    zp.dim(0) != scale.dim(0))) {
        return ctx.Error("zero point " + zp.ToString() + " does not match scale " + scale.ToString());
      }
    }
  }
  return Status::Ok();
}

Status InferQuantizeLinear(InferContext& ctx) {
  if (!DtypeIn(ctx, 0, {DataType::kFloat, DataType::kFloat16, DataType::kDouble, DataType::kBFloat16,
                        DataType::kInt32})) {
    return BadDtype(ctx, 0, "x");
  }
  if (!DtypeIn(ctx, 1, kFloatTypes)) return BadDtype(ctx, 1, "y_scale");
  DataType out = DataType::kUint8;
  if (ctx.has_input(2)) {
    if (!DtypeIn(ctx, 2, kQuantTypes)) return BadDtype(ctx, 2, "y_zero_point");
    out = ctx.input(2)->dtype;
  }
  GE_RETURN_IF_ERROR(CheckQuantParams(ctx, 0, 1, 2));
  ctx.output(0) = TensorDesc(out, ctx.input(0)->shape);
  return Status::Ok();
}

Status InferDequantizeLinear(InferContext& ctx) {
  if (!DtypeIn(ctx, 0, {DataType::kUint8, DataType::kInt8, DataType::kUint16, DataType::kInt16, DataType::kInt32})) {
    return BadDtype(ctx, 0, "x");
  }
  if (!DtypeIn(ctx, 1, kFloatTypes)) return BadDtype(ctx, 1, "x_scale");
  if (ctx.has_input(2) && ctx.input(2)->dtype != ctx.input(0)->dtype && ctx.input(2)->dtype != DataType::kUndefined &&
      ctx.input(0)->dtype != DataType::kUndefined) {
    return ctx.Error(std::string("x_zero_point dtype ") + DataTypeName(ctx.input(2)->dtype) + " differs from x dtype " +
                     DataTypeName(ctx.input(0)->dtype));
  }
  GE_RETURN_IF_ERROR(CheckQuantParams(ctx, 0, 1, 2));
  DataType out = ctx.input(1)->dtype == DataType::kUndefined ? DataType::kFloat : ctx.input(1)->dtype;
  ctx.output(0) = TensorDesc(out, ctx.input(0)->shape);
  return Status::Ok();
}

Status InferDynamicQuantizeLinear(InferContext& ctx) {
  if (!DtypeIn(ctx, 0, {DataType::kFloat})) return BadDtype(ctx, 0, "x");
  ctx.output(0) = TensorDesc(DataType::kUint8, ctx.input(0)->shape);
  if (ctx.num_outputs() > 1) ctx.output(1) = TensorDesc(DataType::kFloat, Shape());
  if (ctx.num_outputs() > 2) ctx.output(2) = TensorDesc(DataType::kUint8, Shape());
  return Status::Ok();
}

}  // namespace

void RegisterQuantizeOps(OpRegistry* r) {
  r->Add({OpId::kQuantizeLinear, 2, 3, 1, 1, InferQuantizeLinear});
  r->Add({OpId::kDequantizeLinear, 2, 3, 1, 1, InferDequantizeLinear});
  r->Add({OpId::kDynamicQuantizeLinear, 1, 1, 1, 3, InferDynamicQuantizeLinear});
}

}  // namespace ge::ops
