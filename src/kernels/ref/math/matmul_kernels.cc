// Reference kernels for MatMul, Gemm and Det. float32 accumulates in float, float64 in double, float16/bfloat16
// compute in float; integer types wrap on overflow.
#include <cmath>
#include <type_traits>

#include "kernels/ref/math/gemm.h"
#include "kernels/ref/math/math_kernels_internal.h"
#include "kernels/ref/math/matmul_plan.h"
#include "kernels/ref/ref_util.h"

namespace ge::ref {
namespace {

// C = A @ B over the plan's products, with a, b, c already in compute type C (c zero-filled).
template <typename C>
void RunPlan(const math::MatMulPlan& p, const C* a, const C* b, C* c) {
  for (size_t i = 0; i < p.a_offsets.size(); ++i) {
    C* out = c + static_cast<int64_t>(i) * p.m * p.n;
    if constexpr (std::is_floating_point_v<C>) {
      math::Gemm(false, false, p.m, p.n, p.k, C(1), a + p.a_offsets[i], p.k, b + p.b_offsets[i], p.n, out, p.n);
    } else {
      math::GemmInt<C>(p.m, p.n, p.k, a + p.a_offsets[i], b + p.b_offsets[i], out);
    }
  }
}

template <typename T>
void MatMulTyped(const math::MatMulPlan& p, const Tensor& a, const Tensor& b, Tensor* y) {
  if constexpr (std::is_same_v<T, float16> || std::is_same_v<T, bfloat16>) {
    std::vector<float> af = math::ConvertTo<float>(a.data<T>(), a.numel());
    std::vector<float> bf = math::ConvertTo<float>(b.data<T>(), b.numel());
    std::vector<float> yf(static_cast<size_t>(y->numel()), 0.f);
    RunPlan<float>(p, af.data(), bf.data(), yf.data());
    math::ConvertFrom(yf.data(), y->numel(), y->data<T>());
  } else {
    RunPlan<T>(p, a.data<T>(), b.data<T>(), y->data<T>());
  }
}

}  // namespace

Status RefMatMul(KernelContext& ctx) {
  const Tensor* a = ctx.input(0);
  const Tensor* b = ctx.input(1);
  if (!a || !b) return ctx.Error("inputs A and B are required");
  if (a->dtype() != b->dtype()) return ctx.Error("A and B must have the same dtype");
  auto plan = math::PlanMatMul(a->dims(), b->dims());
  if (!plan.ok()) return ctx.Error(plan.status().message());
  GE_ASSIGN_OR_RETURN(Tensor * y, ctx.AllocateOutput(0, plan->out_dims, a->dtype()));
  if (y->numel() == 0 || plan->k == 0) return Status::Ok();
  Status st = Status::Ok();
  switch (a->dtype()) {
    case DataType::kFloat: MatMulTyped<float>(*plan, *a, *b, y); break;
    case DataType::kDouble: MatMulTyped<double>(*plan, *a, *b, y); break;
    case DataType::kFloat16: MatMulTyped<float16>(*plan, *a, *b, y); break;
    case DataType::kBFloat16: MatMulTyped<bfloat16>(*plan, *a, *b, y); break;
    case DataType::kInt32: MatMulTyped<int32_t>(*plan, *a, *b, y); break;
    case DataType::kInt64: MatMulTyped<int64_t>(*plan, *a, *b, y); break;
    case DataType::kUint32: MatMulTyped<uint32_t>(*plan, *a, *b, y); break;
    case DataType::kUint64: MatMulTyped<uint64_t>(*plan, *a, *b, y); break;
    default: st = ctx.Unsupported(std::string("dtype ") + DataTypeName(a->dtype())); break;
  }
  return st;
}

namespace {

// Gemm in compute type C: y = alpha * op(A) @ op(B) + beta * C.
template <typename T>
Status GemmTyped(KernelContext& ctx, const Tensor& a, const Tensor& b, const Tensor* c, bool ta, bool tb, int64_t m,
                 int64_t n, int64_t k, Tensor* y) {
  using C = std::conditional_t<std::is_same_v<T, double>, double,
                               std::conditional_t<std::is_integral_v<T>, T, float>>;
  const double alpha = ctx.attr().GetFloat("alpha", 1.f), beta = ctx.attr().GetFloat("beta", 1.f);
  std::vector<C> acc(static_cast<size_t>(m * n), C(0));
  if constexpr (std::is_integral_v<T>) {
    // Integer Gemm: the product in T (wrapping), alpha/beta applied in double.
    std::vector<T> at(static_cast<size_t>(m * k)), bt(static_cast<size_t>(k * n));
    const T* ap = a.data<T>();
    const T* bp = b.data<T>();
    for (int64_t i = 0; i < m; ++i)
      for (int64_t p = 0; p < k; ++p) at[i * k + p] = ta ? ap[p * m + i] : ap[i * k + p];
    for (int64_t p = 0; p < k; ++p)
      for (int64_t j = 0; j < n; ++j) bt[p * n + j] = tb ? bp[j * k + p] : bp[p * n + j];
    math::GemmInt<T>(m, n, k, at.data(), bt.data(), acc.data());
    if (alpha != 1.0)
      for (auto& v : acc) v = static_cast<T>(alpha * static_cast<double>(v));
  } else {
    std::vector<C> abuf, bbuf;
    const C* ap;
    const C* bp;
    if constexpr (std::is_same_v<T, C>) {
      ap = a.data<T>();
      bp = b.data<T>();
    } else {
      abuf = math::ConvertTo<C>(a.data<T>(), a.numel());
      bbuf = math::ConvertTo<C>(b.data<T>(), b.numel());
      ap = abuf.data();
      bp = bbuf.data();
    }
    math::Gemm(ta, tb, m, n, k, static_cast<C>(alpha), ap, ta ? m : k, bp, tb ? k : n, acc.data(), n);
  }
  T* out = y->data<T>();
  if (c && beta != 0.0) {
    const Dims out_dims = {m, n};
    const T* cp = c->data<T>();
    ForEachBroadcast(out_dims, {c->dims()}, [&](int64_t i, const int64_t* off) {
      if constexpr (std::is_integral_v<T>) {
        out[i] = static_cast<T>(static_cast<double>(acc[i]) + beta * static_cast<double>(cp[off[0]]));
      } else {
        out[i] = static_cast<T>(acc[i] + static_cast<C>(beta) * static_cast<C>(cp[off[0]]));
      }
    });
  } else {
    math::ConvertFrom(acc.data(), m * n, out);
  }
  return Status::Ok();
}

}  // namespace

Status RefGemm(KernelContext& ctx) {
  const Tensor* a = ctx.input(0);
  const Tensor* b = ctx.input(1);
  const Tensor* c = ctx.input(2);
  if (!a || !b) return ctx.Error("inputs A and B are required");
  if (a->rank() != 2 || b->rank() != 2) return ctx.Error("A and B must be 2-D");
  if (a->dtype() != b->dtype() || (c && c->dtype() != a->dtype())) return ctx.Error("A, B and C must share a dtype");
  const bool ta = ctx.attr().GetInt("transA", 0) != 0, tb = ctx.attr().GetInt("transB", 0) != 0;
  const int64_t m = ta ? a->dim(1) : a->dim(0), k = ta ? a->dim(0) : a->dim(1);
  const int64_t n = tb ? b->dim(0) : b->dim(1), kb = tb ? b->dim(1) : b->dim(0);
  if (k != kb) return ctx.Error("inner dimensions differ: " + DimsToString(a->dims()) + " " + DimsToString(b->dims()));
  if (c) {
    auto bc = BroadcastDims(c->dims(), {m, n});
    if (c->rank() > 2 || !bc.ok() || *bc != Dims{m, n}) {
      return ctx.Error("C " + DimsToString(c->dims()) + " cannot be broadcast to [" + std::to_string(m) + "," +
                       std::to_string(n) + "]");
    }
  }
  GE_ASSIGN_OR_RETURN(Tensor * y, ctx.AllocateOutput(0, {m, n}, a->dtype()));
  if (m * n == 0) return Status::Ok();
  switch (a->dtype()) {
    case DataType::kFloat: return GemmTyped<float>(ctx, *a, *b, c, ta, tb, m, n, k, y);
    case DataType::kDouble: return GemmTyped<double>(ctx, *a, *b, c, ta, tb, m, n, k, y);
    case DataType::kFloat16: return GemmTyped<float16>(ctx, *a, *b, c, ta, tb, m, n, k, y);
    case DataType::kBFloat16: return GemmTyped<bfloat16>(ctx, *a, *b, c, ta, tb, m, n, k, y);
    case DataType::kInt32: return GemmTyped<int32_t>(ctx, *a, *b, c, ta, tb, m, n, k, y);
    case DataType::kInt64: return GemmTyped<int64_t>(ctx, *a, *b, c, ta, tb, m, n, k, y);
    case DataType::kUint32: return GemmTyped<uint32_t>(ctx, *a, *b, c, ta, tb, m, n, k, y);
    case DataType::kUint64: return GemmTyped<uint64_t>(ctx, *a, *b, c, ta, tb, m, n, k, y);
    default: return ctx.Unsupported(std::string("dtype ") + DataTypeName(a->dtype()));
  }
}

namespace {

// Determinant by LU decomposition with partial pivoting, in double.
double Determinant(std::vector<double>& m, int64_t n) {
  double det = 1.0;
  for (int64_t col = 0; col < n; ++col) {
    int64_t piv = col;
    for (int64_t r = col + 1; r < n; ++r)
      if (std::fabs(m[r * n + col]) > std::fabs(m[piv * n + col])) piv = r;
    if (m[piv * n + col] == 0.0) return 0.0;
    if (piv != col) {
      for (int64_t j = 0; j < n; ++j) std::swap(m[piv * n + j], m[col * n + j]);
      det = -det;
    }
    const double d = m[col * n + col];
    det *= d;
    for (int64_t r = col + 1; r < n; ++r) {
      const double f = m[r * n + col] / d;
      if (f == 0.0) continue;
      for (int64_t j = col + 1; j < n; ++j) m[r * n + j] -= f * m[col * n + j];
    }
  }
  return det;
}

Status RefDet(KernelContext& ctx) {
  const Tensor* x = ctx.input(0);
  if (!x) return ctx.Error("input X is required");
  const int r = x->rank();
  if (r < 2 || x->dim(r - 1) != x->dim(r - 2)) return ctx.Error("X must hold square matrices, got " + DimsToString(x->dims()));
  const int64_t n = x->dim(r - 1);
  Dims out_dims(x->dims().begin(), x->dims().end() - 2);
  GE_ASSIGN_OR_RETURN(Tensor * y, ctx.AllocateOutput(0, out_dims, x->dtype()));
  const int64_t count = y->numel();
  return VisitFloatType(x->dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* xp = x->data<T>();
    T* yp = y->data<T>();
    std::vector<double> mat(static_cast<size_t>(n * n));
    for (int64_t b = 0; b < count; ++b) {
      for (int64_t i = 0; i < n * n; ++i) mat[i] = static_cast<double>(xp[b * n * n + i]);
      yp[b] = static_cast<T>(Determinant(mat, n));
    }
  });
}

}  // namespace

void RegisterMatMulRefKernels(KernelRegistry* r) {
  r->Add(OpId::kMatMul, RefMatMul);
  r->Add(OpId::kGemm, RefGemm);
  r->Add(OpId::kDet, RefDet);
}

}  // namespace ge::ref
