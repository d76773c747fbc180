// Constant, ConstantOfShape, Range, EyeLike, Trilu: ops whose output values are generated rather than moved.
#include <cmath>

#include "ops/shape/constant_attr.h"
#include "ops/shape/shape_ops_internal.h"

namespace ge::ops::shape_family {
namespace {

Status InferConstant(InferContext& ctx) {
  auto t = ConstantFromAttrs(ctx.attr());
  if (!t.ok()) return ctx.Error(t.status().message());
  ctx.output(0) = TensorDesc(t->dtype(), Shape(t->dims()));
  return Status::Ok();
}

Status InferConstantOfShape(InferContext& ctx) {
  GE_RETURN_IF_ERROR(RequireTensorInput(ctx, 0));
  GE_RETURN_IF_ERROR(RequireIntInput(ctx, 0));
  DataType dt = DataType::kFloat;
  if (const Tensor* v = ctx.attr().GetTensor("value")) {
    if (v->numel() != 1) return ctx.Error("attribute 'value' must hold exactly one element");
    dt = v->dtype();
  }
  ctx.output(0) = TensorDesc(dt, Shape::UnknownRank());
  std::vector<int64_t> dims;
  if (!KnownInts(ctx, 0, &dims)) {
    int64_t n = Known1DLength(ctx, 0);
    if (n >= 0) ctx.output(0).shape = UnknownDims(n);
    return Status::Ok();
  }
  if (ctx.input_value(0)->rank() != 1) return ctx.Error("the shape input must be 1-D");
  auto n = CheckedNumElements(dims);
  if (!n.ok()) return ctx.Error("invalid shape " + DimsToString(dims) + ": " + n.status().message());
  ctx.output(0).shape = Shape(dims);
  return Status::Ok();
}

// Number of Range elements, max(ceil((limit - start) / delta), 0), computed in the inputs' own type as the
// function body of Range does.
StatusOr<int64_t> RangeCount(const Tensor& start, const Tensor& limit, const Tensor& delta) {
  int64_t count = 0;
  Status err;
  Status vs = VisitNumericType(start.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_integral_v<T>) {
      __int128 s = start.GetAsInt64(0), l = limit.GetAsInt64(0), d = delta.GetAsInt64(0);
      if (d == 0) {
        err = InvalidArgument("delta cannot be 0");
        return;
      }
      __int128 diff = l - s;
      __int128 n = 0;
      if (d > 0 && diff > 0) n = (diff + d - 1) / d;
      if (d < 0 && diff < 0) n = (-diff + (-d) - 1) / (-d);
      if (n > (int64_t{1} << 53)) {
        err = InvalidArgument("range has too many elements");
        return;
      }
      count = static_cast<int64_t>(n);
    } else {
      using C = std::conditional_t<std::is_same_v<T, double>, double, float>;
      C s = static_cast<C>(start.data<T>()[0]), l = static_cast<C>(limit.data<T>()[0]);
      C d = static_cast<C>(delta.data<T>()[0]);
      if (d == 0) {
        err = InvalidArgument("delta cannot be 0");
        return;
      }
      C n = std::ceil((l - s) / d);
      if (std::isnan(n) || n > static_cast<C>(int64_t{1} << 53)) {
        err = InvalidArgument("range has too many elements");
        return;
      }
      count = n > 0 ? static_cast<int64_t>(n) : 0;
    }
  });
  GE_RETURN_IF_ERROR(vs);
  GE_RETURN_IF_ERROR(err);
  return count;
}

Status InferRange(InferContext& ctx) {
  DataType dt = ctx.input(0)->dtype;
  for (int i = 0; i < 3; ++i) {
    GE_RETURN_IF_ERROR(RequireTensorInput(ctx, i));
    const TensorDesc& d = *ctx.input(i);
    if (d.dtype != dt) return ctx.Error("start, limit and delta must have the same type");
    if (!d.shape.unknown_rank() && d.shape.rank() != 0 && !(d.shape.rank() == 1 && d.shape.dim(0) == 1)) {
      return ctx.Error("input " + std::to_string(i) + " must be a scalar, got " + d.shape.ToString());
    }
  }
  if (dt != DataType::kUndefined && dt != DataType::kFloat && dt != DataType::kDouble && dt != DataType::kInt16 &&
      dt != DataType::kInt32 && dt != DataType::kInt64) {
    return ctx.Error(std::string("unsupported type ") + DataTypeName(dt));
  }
  ctx.output(0) = TensorDesc(dt, UnknownDims(1));
  const Tensor *s = ctx.input_value(0), *l = ctx.input_value(1), *d = ctx.input_value(2);
  if (!s || !l || !d) return Status::Ok();
  if (s->numel() != 1 || l->numel() != 1 || d->numel() != 1) return ctx.Error("inputs must be scalars");
  auto n = RangeCount(*s, *l, *d);
  if (!n.ok()) return ctx.Error(n.status().message());
  ctx.output(0).shape = Shape({*n});
  return Status::Ok();
}

Status InferEyeLike(InferContext& ctx) {
  GE_RETURN_IF_ERROR(RequireTensorInput(ctx, 0));
  const TensorDesc& in = *ctx.input(0);
  DataType dt = in.dtype;
  if (ctx.attr().Has("dtype")) {
    int64_t v = ctx.attr().GetInt("dtype", 0);
    if (v < 0 || v > kMaxDataTypeValue || !IsValidDataType(static_cast<int32_t>(v)) || v == 0) {
      return ctx.Error("invalid dtype " + std::to_string(v));
    }
    dt = static_cast<DataType>(v);
  }
  if (dt == DataType::kString || dt == DataType::kComplex64 || dt == DataType::kComplex128) {
    return ctx.Error(std::string("unsupported output type ") + DataTypeName(dt));
  }
  if (!in.shape.unknown_rank() && in.shape.rank() != 2) return ctx.Error("input must be 2-D");
  ctx.output(0) = TensorDesc(dt, in.shape.unknown_rank() ? UnknownDims(2) : in.shape);
  return Status::Ok();
}

Status InferTrilu(InferContext& ctx) {
  GE_RETURN_IF_ERROR(RequireTensorInput(ctx, 0));
  const TensorDesc& in = *ctx.input(0);
  if (!in.shape.unknown_rank() && in.shape.rank() < 2) return ctx.Error("input must have rank >= 2");
  if (const Tensor* k = ctx.input_value(1)) {
    if (k->numel() != 1) return ctx.Error("k must be a scalar");
  }
  ctx.output(0) = in;
  return Status::Ok();
}

}  // namespace

void RegisterGeneratorOps(OpRegistry* r) {
  r->Add({OpId::kConstant, 0, 0, 1, 1, InferConstant});
  r->Add({OpId::kConstantOfShape, 1, 1, 1, 1, InferConstantOfShape});
  r->Add({OpId::kRange, 3, 3, 1, 1, InferRange});
  r->Add({OpId::kEyeLike, 1, 1, 1, 1, InferEyeLike});
  r->Add({OpId::kTrilu, 1, 2, 1, 1, InferTrilu});
}

}  // namespace ge::ops::shape_family
