// Inference for MatMul, Gemm, MatMulInteger, QLinearMatMul and Det.
#include "ops/math/math_ops_internal.h"

namespace ge::ops {
namespace {

using math::BadDtype;
using math::DtypeIn;

constexpr std::initializer_list<DataType> kMatMulTypes = {
    DataType::kFloat16, DataType::kFloat,  DataType::kDouble, DataType::kBFloat16,
    DataType::kInt32,   DataType::kInt64,  DataType::kUint32, DataType::kUint64};
constexpr std::initializer_list<DataType> kQuant8Types = {DataType::kUint8, DataType::kInt8};
constexpr std::initializer_list<DataType> kFloatTypes = {DataType::kFloat16, DataType::kFloat, DataType::kDouble,
                                                         DataType::kBFloat16};

Status CheckSameDtype(const InferContext& ctx, int i, int j) {
  DataType a = ctx.input(i)->dtype, b = ctx.input(j)->dtype;
  if (a != DataType::kUndefined && b != DataType::kUndefined && a != b) {
    return ctx.Error(std::string("inputs ") + std::to_string(i) + " and " + std::to_string(j) +
                     " must have the same dtype, got " + DataTypeName(a) + " and " + DataTypeName(b));
  }
  return Status::Ok();
}

}  // namespace

Status InferMatMul(InferContext& ctx) {
  if (!DtypeIn(ctx, 0, kMatMulTypes)) return BadDtype(ctx, 0, "A");
  GE_RETURN_IF_ERROR(CheckSameDtype(ctx, 0, 1));
  GE_ASSIGN_OR_RETURN(Shape s, math::MatMulShape(ctx, ctx.input(0)->shape, ctx.input(1)->shape));
  ctx.output(0) = TensorDesc(ctx.input(0)->dtype, s);
  return Status::Ok();
}

// Gemm: Y = alpha * op(A) @ op(B) + beta * C, C unidirectionally broadcast to [M, N] (optional since opset 11).
Status InferGemm(InferContext& ctx) {
  if (!DtypeIn(ctx, 0, kMatMulTypes)) return BadDtype(ctx, 0, "A");
  GE_RETURN_IF_ERROR(CheckSameDtype(ctx, 0, 1));
  if (ctx.has_input(2)) GE_RETURN_IF_ERROR(CheckSameDtype(ctx, 0, 2));
  if (!ctx.has_input(2) && ctx.opset < 11) return ctx.Error("input C is required before opset 11");
  const Shape& a = ctx.input(0)->shape;
  const Shape& b = ctx.input(1)->shape;
  if (!a.unknown_rank() && a.rank() != 2) return ctx.Error("A must be 2-D, got " + a.ToString());
  if (!b.unknown_rank() && b.rank() != 2) return ctx.Error("B must be 2-D, got " + b.ToString());
  const bool ta = ctx.attr().GetInt("transA", 0) != 0, tb = ctx.attr().GetInt("transB", 0) != 0;
  Shape out;
  int64_t ka = kUnknownDim, kb = kUnknownDim;
  if (a.unknown_rank()) {
    out.AddDim(kUnknownDim);
  } else {
    out.AddDim(a.dim(ta ? 1 : 0), a.symbol(ta ? 1 : 0));
    ka = a.dim(ta ? 0 : 1);
  }
  if (b.unknown_rank()) {
    out.AddDim(kUnknownDim);
  } else {
    out.AddDim(b.dim(tb ? 0 : 1), b.symbol(tb ? 0 : 1));
    kb = b.dim(tb ? 1 : 0);
  }
  if (ka >= 0 && kb >= 0 && ka != kb) {
    return ctx.Error("inner dimensions differ: A " + a.ToString() + " B " + b.ToString() +
                     " (transA=" + std::to_string(ta) + ", transB=" + std::to_string(tb) + ")");
  }
  if (ctx.has_input(2)) {
    const Shape& c = ctx.input(2)->shape;
    if (!c.unknown_rank()) {
      if (c.rank() > 2) return ctx.Error("C must have rank <= 2, got " + c.ToString());
      for (int i = 0; i < c.rank(); ++i) {
        int64_t want = out.dim(2 - c.rank() + i), got = c.dim(i);
        if (got >= 0 && got != 1 && want >= 0 && got != want) {
          return ctx.Error("C " + c.ToString() + " cannot be broadcast to " + out.ToString());
        }
      }
    }
  }
  ctx.output(0) = TensorDesc(ctx.input(0)->dtype, out);
  return Status::Ok();
}

namespace {

// MatMulInteger(A, B, a_zero_point?, b_zero_point?) -> int32.
Status InferMatMulInteger(InferContext& ctx) {
  if (!DtypeIn(ctx, 0, kQuant8Types)) return BadDtype(ctx, 0, "A");
  if (!DtypeIn(ctx, 1, kQuant8Types)) return BadDtype(ctx, 1, "B");
  if (ctx.has_input(2)) GE_RETURN_IF_ERROR(CheckSameDtype(ctx, 0, 2));
  if (ctx.has_input(3)) GE_RETURN_IF_ERROR(CheckSameDtype(ctx, 1, 3));
  GE_ASSIGN_OR_RETURN(Shape s, math::MatMulShape(ctx, ctx.input(0)->shape, ctx.input(1)->shape));
  ctx.output(0) = TensorDesc(DataType::kInt32, s);
  return Status::Ok();
}

// QLinearMatMul(a, a_scale, a_zero_point, b, b_scale, b_zero_point, y_scale, y_zero_point) -> dtype of y_zp.
Status InferQLinearMatMul(InferContext& ctx) {
  if (!DtypeIn(ctx, 0, kQuant8Types)) return BadDtype(ctx, 0, "a");
  if (!DtypeIn(ctx, 3, kQuant8Types)) return BadDtype(ctx, 3, "b");
  if (!DtypeIn(ctx, 7, kQuant8Types)) return BadDtype(ctx, 7, "y_zero_point");
  for (int i : {1, 4, 6})
    if (!DtypeIn(ctx, i, {DataType::kFloat})) return BadDtype(ctx, i, "scale");
  GE_RETURN_IF_ERROR(CheckSameDtype(ctx, 0, 2));
  GE_RETURN_IF_ERROR(CheckSameDtype(ctx, 3, 5));
  GE_ASSIGN_OR_RETURN(Shape s, math::MatMulShape(ctx, ctx.input(0)->shape, ctx.input(3)->shape));
  ctx.output(0) = TensorDesc(ctx.input(7)->dtype, s);
  return Status::Ok();
}

Status InferDet(InferContext& ctx) {
  if (!DtypeIn(ctx, 0, kFloatTypes)) return BadDtype(ctx, 0, "X");
  const Shape& x = ctx.input(0)->shape;
  if (x.unknown_rank()) {
    ctx.output(0) = TensorDesc(ctx.input(0)->dtype, Shape::UnknownRank());
    return Status::Ok();
  }
  if (x.rank() < 2) return ctx.Error("X must have rank >= 2, got " + x.ToString());
  int64_t m = x.dim(x.rank() - 2), n = x.dim(x.rank() - 1);
  if (m >= 0 && n >= 0 && m != n) return ctx.Error("X must hold square matrices, got " + x.ToString());
  ctx.output(0) = TensorDesc(ctx.input(0)->dtype, math::SubShape(x, 0, x.rank() - 2));
  return Status::Ok();
}

}  // namespace

void RegisterMatMulOps(OpRegistry* r) {
  r->Add({OpId::kMatMul, 2, 2, 1, 1, InferMatMul});
  r->Add({OpId::kGemm, 2, 3, 1, 1, InferGemm});
  r->Add({OpId::kMatMulInteger, 2, 4, 1, 1, InferMatMulInteger});
  r->Add({OpId::kQLinearMatMul, 8, 8, 1, 1, InferQLinearMatMul});
  r->Add({OpId::kDet, 1, 1, 1, 1, InferDet});
}

}  // namespace ge::ops
