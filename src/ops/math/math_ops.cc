#include "ops/families.h"
#include "ops/math/math_ops_internal.h"

namespace ge::ops {

namespace math {

Shape SubShape(const Shape& s, int begin, int end) {
  Shape out;
  for (int i = begin; i < end; ++i) out.AddDim(s.dim(i), s.symbol(i));
  return out;
}

bool DtypeIn(const InferContext& ctx, int i, std::initializer_list<DataType> allowed) {
  const TensorDesc* d = ctx.input(i);
  if (!d) return false;
  if (d->dtype == DataType::kUndefined) return true;
  for (DataType a : allowed)
    if (d->dtype == a) return true;
  return false;
}

Status BadDtype(const InferContext& ctx, int i, const char* what) {
  const TensorDesc* d = ctx.input(i);
  return ctx.Error(std::string("input ") + std::to_string(i) + " (" + what + ") has unsupported dtype " +
                   (d ? DataTypeName(d->dtype) : "<absent>"));
}

StatusOr<Shape> MatMulShape(const InferContext& ctx, const Shape& a, const Shape& b) {
  if (a.unknown_rank() || b.unknown_rank()) return Shape::UnknownRank();
  if (a.rank() == 0 || b.rank() == 0) return ctx.Error("matmul operands must have rank >= 1, got scalars");
  Shape a2 = a, b2 = b;
  const bool vec_a = a.rank() == 1, vec_b = b.rank() == 1;
  if (vec_a) {
    a2 = Shape();
    a2.AddDim(1);
    a2.AddDim(a.dim(0), a.symbol(0));
  }
  if (vec_b) {
    b2 = Shape();
    b2.AddDim(b.dim(0), b.symbol(0));
    b2.AddDim(1);
  }
  const int ra = a2.rank(), rb = b2.rank();
  int64_t ka = a2.dim(ra - 1), kb = b2.dim(rb - 2);
  if (ka >= 0 && kb >= 0 && ka != kb) {
    return ctx.Error("inner dimensions differ: " + a.ToString() + " @ " + b.ToString());
  }
  auto batch = BroadcastShapes(SubShape(a2, 0, ra - 2), SubShape(b2, 0, rb - 2));
  if (!batch.ok()) return ctx.Error("batch dims: " + batch.status().message());
  Shape out = *batch;
  if (!vec_a) out.AddDim(a2.dim(ra - 2), a2.symbol(ra - 2));
  if (!vec_b) out.AddDim(b2.dim(rb - 1), b2.symbol(rb - 1));
  return out;
}

bool KnownScalarInt(const InferContext& ctx, int i, int64_t* out) {
  const Tensor* t = ctx.input_value(i);
  if (!t || t->numel() != 1) return false;
  *out = t->GetAsInt64(0);
  return true;
}

}  // namespace math

void RegisterMathOps(OpRegistry* r) {
  RegisterMatMulOps(r);
  RegisterQuantizeOps(r);
  RegisterRnnOps(r);
  RegisterSignalOps(r);
}

}  // namespace ge::ops
