// Reference kernels for MatMulInteger and QLinearMatMul: (a - a_zp) @ (b - b_zp) accumulated exactly in int32,
// then (QLinearMatMul) requantized with round-half-to-even and saturation.
#include <cmath>
#include <limits>

#include "kernels/ref/math/gemm.h"
#include "kernels/ref/math/math_kernels_internal.h"
#include "kernels/ref/math/matmul_plan.h"
#include "kernels/ref/ref_util.h"

namespace ge::ref {
namespace {

template <typename T>
void ShiftTyped(const Tensor& x, const Tensor* zp, const Dims& zp_dims, std::vector<int32_t>* out) {
  const T* xp = x.data<T>();
  const int64_t n = x.numel();
  out->resize(static_cast<size_t>(n));
  if (!zp) {
    for (int64_t i = 0; i < n; ++i) (*out)[i] = static_cast<int32_t>(xp[i]);
    return;
  }
  const T* zpp = zp->data<T>();
  ForEachBroadcast(x.dims(), {x.dims(), zp_dims}, [&](int64_t i, const int64_t* off) {
    (*out)[i] = static_cast<int32_t>(xp[off[0]]) - static_cast<int32_t>(zpp[off[1]]);
  });
}

// x - zp as int32. zp is a scalar, a 1-D vector per row of a (per_row) or per column of b, or the N-D form
// [..., M, 1] / [..., 1, N].
Status Shifted(const KernelContext& ctx, const Tensor& x, const Tensor* zp, bool per_row, const char* name,
               std::vector<int32_t>* out) {
  Dims zp_dims;
  if (zp) {
    if (zp->dtype() != x.dtype()) return ctx.Error(std::string(name) + " must have the dtype of its input");
    const int r = x.rank();
    if (zp->numel() == 1) {
      zp_dims = {};
    } else if (r >= 2 && zp->rank() == 1 && zp->dim(0) == x.dim(per_row ? r - 2 : r - 1)) {
      zp_dims = per_row ? Dims{zp->dim(0), 1} : Dims{zp->dim(0)};
    } else {
      // N-D: [..., M, 1] for a (per row), [..., 1, N] for b (per column).
      zp_dims = zp->dims();
      auto bc = BroadcastDims(x.dims(), zp_dims);
      if (r < 2 || zp->rank() != r || zp->dim(per_row ? r - 1 : r - 2) != 1 || !bc.ok() || *bc != x.dims()) {
        return ctx.Error(std::string(name) + " " + DimsToString(zp->dims()) + " does not fit input " +
                         DimsToString(x.dims()));
      }
    }
  }
  switch (x.dtype()) {
    case DataType::kUint8: ShiftTyped<uint8_t>(x, zp, zp_dims, out); return Status::Ok();
    case DataType::kInt8: ShiftTyped<int8_t>(x, zp, zp_dims, out); return Status::Ok();
    default: return ctx.Unsupported(std::string("dtype ") + DataTypeName(x.dtype()));
  }
}

Status IntegerProduct(const KernelContext& ctx, const math::MatMulPlan& p, const std::vector<int32_t>& a,
                      const std::vector<int32_t>& b, int32_t* y) {
  for (size_t i = 0; i < p.a_offsets.size(); ++i) {
    math::GemmInt<int32_t>(p.m, p.n, p.k, a.data() + p.a_offsets[i], b.data() + p.b_offsets[i],
                           y + static_cast<int64_t>(i) * p.m * p.n);
  }
  return Status::Ok();
}

Status RefMatMulInteger(KernelContext& ctx) {
  const Tensor* a = ctx.input(0);
  const Tensor* b = ctx.input(1);
  if (!a || !b) return ctx.Error("inputs A and B are required");
  auto plan = math::PlanMatMul(a->dims(), b->dims());
  if (!plan.ok()) return ctx.Error(plan.status().message());
  std::vector<int32_t> as, bs;
  GE_RETURN_IF_ERROR(Shifted(ctx, *a, ctx.input(2), true, "a_zero_point", &as));
  GE_RETURN_IF_ERROR(Shifted(ctx, *b, ctx.input(3), false, "b_zero_point", &bs));
  GE_ASSIGN_OR_RETURN(Tensor * y, ctx.AllocateOutput(0, plan->out_dims, DataType::kInt32));
  if (y->numel() == 0) return Status::Ok();
  return IntegerProduct(ctx, *plan, as, bs, y->data<int32_t>());
}

// A scale (float) that is a scalar or has `count` elements; returns per-index values (size 1 or count).
Status ScaleVector(const KernelContext& ctx, const Tensor* t, int64_t count, const char* name,
                   std::vector<float>* out) {
  if (!t) return ctx.Error(std::string(name) + " is required");
  if (t->dtype() != DataType::kFloat) return ctx.Error(std::string(name) + " must be float32");
  if (t->numel() != 1 && (t->rank() != 1 || t->numel() != count)) {
    return ctx.Error(std::string(name) + " " + DimsToString(t->dims()) + " must be a scalar or hold " +
                     std::to_string(count) + " values");
  }
  out->assign(t->data<float>(), t->data<float>() + t->numel());
  return Status::Ok();
}

template <typename Q>
void Requantize(const math::MatMulPlan& p, const int32_t* acc, const std::vector<float>& as,
                const std::vector<float>& bs, const std::vector<float>& ys, const Tensor* yzp, Q* out) {
  constexpr float lo = static_cast<float>(std::numeric_limits<Q>::min());
  constexpr float hi = static_cast<float>(std::numeric_limits<Q>::max());
  const int64_t n = p.n, rows = p.rows;
  const int64_t total = static_cast<int64_t>(p.a_offsets.size()) * p.m * n;
  const Q* zp = yzp ? yzp->data<Q>() : nullptr;
  const bool zp_per_row = yzp && yzp->numel() > 1;
  for (int64_t e = 0; e < total; e += n) {
    const int64_t r = (e / n) % rows;
    const float a_s = as.size() == 1 ? as[0] : as[r];
    const float y_s = ys.size() == 1 ? ys[0] : ys[r];
    const float z = zp ? static_cast<float>(zp[zp_per_row ? r : 0]) : 0.f;
    for (int64_t j = 0; j < n; ++j) {
      const float mult = a_s * (bs.size() == 1 ? bs[0] : bs[j]) / y_s;
      float v = std::nearbyint(static_cast<float>(acc[e + j]) * mult) + z;
      v = std::isnan(v) ? 0.f : std::fmin(std::fmax(v, lo), hi);
      out[e + j] = static_cast<Q>(v);
    }
  }
}

Status RefQLinearMatMul(KernelContext& ctx) {
  const Tensor* a = ctx.input(0);
  const Tensor* b = ctx.input(3);
  const Tensor* yzp = ctx.input(7);
  if (!a || !b || !yzp) return ctx.Error("inputs a, b and y_zero_point are required");
  auto plan = math::PlanMatMul(a->dims(), b->dims());
  if (!plan.ok()) return ctx.Error(plan.status().message());
  const int64_t rows = a->rank() >= 2 ? a->dim(a->rank() - 2) : 1;
  const int64_t cols = b->rank() >= 2 ? b->dim(b->rank() - 1) : 1;
  std::vector<float> as, bs, ys;
  GE_RETURN_IF_ERROR(ScaleVector(ctx, ctx.input(1), rows, "a_scale", &as));
  GE_RETURN_IF_ERROR(ScaleVector(ctx, ctx.input(4), cols, "b_scale", &bs));
  GE_RETURN_IF_ERROR(ScaleVector(ctx, ctx.input(6), rows, "y_scale", &ys));
  if (yzp->numel() != 1 && (yzp->rank() != 1 || yzp->numel() != rows)) {
    return ctx.Error("y_zero_point " + DimsToString(yzp->dims()) + " must be a scalar or hold one value per row");
  }
  std::vector<int32_t> ash, bsh;
  GE_RETURN_IF_ERROR(Shifted(ctx, *a, ctx.input(2), true, "a_zero_point", &ash));
  GE_RETURN_IF_ERROR(Shifted(ctx, *b, ctx.input(5), false, "b_zero_point", &bsh));
  GE_ASSIGN_OR_RETURN(Tensor * y, ctx.AllocateOutput(0, plan->out_dims, yzp->dtype()));
  if (y->numel() == 0) return Status::Ok();
  std::vector<int32_t> acc(static_cast<size_t>(y->numel()), 0);
  GE_RETURN_IF_ERROR(IntegerProduct(ctx, *plan, ash, bsh, acc.data()));
  switch (yzp->dtype()) {
    case DataType::kUint8: Requantize(*plan, acc.data(), as, bs, ys, yzp, y->data<uint8_t>()); break;
    case DataType::kInt8: Requantize(*plan, acc.data(), as, bs, ys, yzp, y->data<int8_t>()); break;
    default: return ctx.Unsupported(std::string("y_zero_point dtype ") + DataTypeName(yzp->dtype()));
  }
  return Status::Ok();
}

}  // namespace

void RegisterQLinearRefKernels(KernelRegistry* r) {
  r->Add(OpId::kMatMulInteger, RefMatMulInteger);
  r->Add(OpId::kQLinearMatMul, RefQLinearMatMul);
}

}  // namespace ge::ref
