// Inference of the random ops. Values are random; only dtype and shape are inferred.
#include <string>

#include "ops/infer_util.h"
#include "ops/misc/misc_ops.h"

namespace ge::ops::misc {
namespace {

// The 'dtype' attribute, or `def` when absent; must be a floating-point type unless `any` is set.
StatusOr<DataType> DtypeAttr(const InferContext& ctx, DataType def, bool any) {
  if (!ctx.attr().Has("dtype")) return def;
  const int64_t v = ctx.attr().GetInt("dtype", 0);
  if (!IsValidDataType(static_cast<int32_t>(v))) return ctx.Error("dtype " + std::to_string(v) + " is not valid");
  const DataType dt = static_cast<DataType>(v);
  if (!any && !IsFloatingPoint(dt)) return ctx.Error(std::string("dtype must be floating-point, got ") + DataTypeName(dt));
  return dt;
}

Status RequireFloatInput(const InferContext& ctx, int i) {
  const DataType dt = ctx.input(i)->dtype;
  if (dt != DataType::kUndefined && !IsFloatingPoint(dt)) {
    return ctx.Error(std::string("input must be floating-point, got ") + DataTypeName(dt));
  }
  return Status::Ok();
}

Status InferRandomFromShape(InferContext& ctx) {
  if (!ctx.attr().Has("shape")) return ctx.Error("attribute 'shape' is required");
  Dims dims = ctx.attr().GetInts("shape");
  for (int64_t d : dims) {
    if (d < 0) return ctx.Error("shape " + DimsToString(dims) + " has a negative dim");
  }
  GE_ASSIGN_OR_RETURN(DataType dt, DtypeAttr(ctx, DataType::kFloat, false));
  if (ctx.op_type == "RandomNormal" && ctx.attr().GetFloat("scale", 1.0f) < 0) return ctx.Error("scale must be >= 0");
  ctx.output(0) = TensorDesc(dt, Shape(dims));
  return Status::Ok();
}

Status InferRandomLike(InferContext& ctx) {
  const TensorDesc* in = ctx.input(0);
  DataType def = in->dtype;
  GE_ASSIGN_OR_RETURN(DataType dt, DtypeAttr(ctx, def, false));
  if (!ctx.attr().Has("dtype") && def != DataType::kUndefined && !IsFloatingPoint(def)) {
    return ctx.Error(std::string("output dtype defaults to the input's, which must then be floating-point; got ") +
                     DataTypeName(def));
  }
  ctx.output(0) = TensorDesc(dt, in->shape);
  return Status::Ok();
}

Status InferBernoulli(InferContext& ctx) {
  GE_RETURN_IF_ERROR(RequireFloatInput(ctx, 0));
  GE_ASSIGN_OR_RETURN(DataType dt, DtypeAttr(ctx, ctx.input(0)->dtype, true));
  if (dt == DataType::kString || dt == DataType::kComplex64 || dt == DataType::kComplex128) {
    return ctx.Error(std::string("dtype ") + DataTypeName(dt) + " is not allowed");
  }
  ctx.output(0) = TensorDesc(dt, ctx.input(0)->shape);
  return Status::Ok();
}

Status InferMultinomial(InferContext& ctx) {
  GE_RETURN_IF_ERROR(RequireFloatInput(ctx, 0));
  GE_ASSIGN_OR_RETURN(DataType dt, DtypeAttr(ctx, DataType::kInt32, true));
  if (dt != DataType::kInt32 && dt != DataType::kInt64) return ctx.Error("dtype must be int32 or int64");
  const int64_t n = ctx.attr().GetInt("sample_size", 1);
  if (n < 1) return ctx.Error("sample_size must be >= 1, got " + std::to_string(n));
  const Shape& s = ctx.input(0)->shape;
  Shape out;
  if (!s.unknown_rank()) {
    if (s.rank() != 2) return ctx.Error("input must be 2-D [batch_size, class_size], got " + s.ToString());
    out.AddDim(s.dim(0), s.symbol(0));
  } else {
    out.AddDim(kUnknownDim);
  }
  out.AddDim(n);
  ctx.output(0) = TensorDesc(dt, out);
  return Status::Ok();
}

}  // namespace

void RegisterRandomOps(OpRegistry* r) {
  r->Add({OpId::kRandomUniform, 0, 0, 1, 1, InferRandomFromShape});
  r->Add({OpId::kRandomNormal, 0, 0, 1, 1, InferRandomFromShape});
  r->Add({OpId::kRandomUniformLike, 1, 1, 1, 1, InferRandomLike});
  r->Add({OpId::kRandomNormalLike, 1, 1, 1, 1, InferRandomLike});
  r->Add({OpId::kBernoulli, 1, 1, 1, 1, InferBernoulli});
  r->Add({OpId::kMultinomial, 1, 1, 1, 1, InferMultinomial});
}

}  // namespace ge::ops::misc
