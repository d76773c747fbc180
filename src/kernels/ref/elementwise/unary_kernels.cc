// Unary math kernels: Abs ... Round, Sign, Erf, IsNaN, IsInf, Not.
#include <cmath>

#include "kernels/ref/elementwise/elementwise_kernels.h"
#include "kernels/ref/elementwise/elementwise_util.h"

namespace ge::ref::elementwise {
namespace {

template <typename C>
C AbsOf(C x) {
  if constexpr (std::is_floating_point_v<C>) {
    return std::fabs(x);
  } else if constexpr (std::is_signed_v<C>) {
    return x < 0 ? WrapSub<C>(0, x) : x;
  } else {
    return x;
  }
}

template <typename C>
C NegOf(C x) {
  if constexpr (std::is_floating_point_v<C>) {
    return -x;
  } else {
    return WrapSub<C>(0, x);
  }
}

template <typename C>
C SignOf(C x) {
  if constexpr (std::is_floating_point_v<C>) {
    if (std::isnan(x)) return x;
  }
  return static_cast<C>(static_cast<int>(x > C(0)) - static_cast<int>(x < C(0)));
}

template <typename C>
C ErfOf(C x) {
  if constexpr (std::is_floating_point_v<C>) {
    return std::erf(x);
  } else {
    return FloatToInt<C>(std::erf(static_cast<double>(x)));
  }
}

#define GE_FLOAT_UNARY(Name, expr)                                                          \
  Status Ref##Name(KernelContext& ctx) {                                                    \
    return RunUnary<UnaryTypes::kFloat>(ctx, [](auto x) -> decltype(x) { return (expr); }); \
  }

GE_FLOAT_UNARY(Exp, std::exp(x))
GE_FLOAT_UNARY(Log, std::log(x))
GE_FLOAT_UNARY(Sqrt, std::sqrt(x))
GE_FLOAT_UNARY(Reciprocal, decltype(x)(1) / x)
GE_FLOAT_UNARY(Sin, std::sin(x))
GE_FLOAT_UNARY(Cos, std::cos(x))
GE_FLOAT_UNARY(Tan, std::tan(x))
GE_FLOAT_UNARY(Asin, std::asin(x))
GE_FLOAT_UNARY(Acos, std::acos(x))
GE_FLOAT_UNARY(Atan, std::atan(x))
GE_FLOAT_UNARY(Sinh, std::sinh(x))
GE_FLOAT_UNARY(Cosh, std::cosh(x))
GE_FLOAT_UNARY(Asinh, std::asinh(x))
GE_FLOAT_UNARY(Acosh, std::acosh(x))
GE_FLOAT_UNARY(Atanh, std::atanh(x))
GE_FLOAT_UNARY(Ceil, std::ceil(x))
GE_FLOAT_UNARY(Floor, std::floor(x))
// Round half to even: nearbyint under the default rounding mode.
GE_FLOAT_UNARY(Round, std::nearbyint(x))
#undef GE_FLOAT_UNARY

Status RefAbs(KernelContext& ctx) {
  return RunUnary<UnaryTypes::kNumeric>(ctx, [](auto x) { return AbsOf(x); });
}
Status RefNeg(KernelContext& ctx) {
  return RunUnary<UnaryTypes::kNumeric>(ctx, [](auto x) { return NegOf(x); });
}
Status RefSign(KernelContext& ctx) {
  return RunUnary<UnaryTypes::kNumeric>(ctx, [](auto x) { return SignOf(x); });
}
Status RefErf(KernelContext& ctx) {
  return RunUnary<UnaryTypes::kNumeric>(ctx, [](auto x) { return ErfOf(x); });
}

// y = pred(x) as bool for floating-point x.
template <typename Pred>
Status RunFloatPredicate(KernelContext& ctx, const Pred& pred) {
  GE_ASSIGN_OR_RETURN(const Tensor* x, TensorInput(ctx, 0));
  GE_ASSIGN_OR_RETURN(Tensor* y, ctx.AllocateOutput(0, x->dims(), DataType::kBool));
  return DtypeError(ctx, VisitFloatType(x->dtype(), [&](auto tag) {
                      using T = typename decltype(tag)::type;
                      const T* in = x->data<T>();
                      bool* out = y->data<bool>();
                      for (int64_t i = 0, n = x->numel(); i < n; ++i) out[i] = pred(static_cast<Compute<T>>(in[i]));
                    }));
}

Status RefIsNaN(KernelContext& ctx) {
  return RunFloatPredicate(ctx, [](auto x) { return std::isnan(x); });
}

Status RefIsInf(KernelContext& ctx) {
  const bool neg = ctx.attr().GetInt("detect_negative", 1) != 0;
  const bool pos = ctx.attr().GetInt("detect_positive", 1) != 0;
  return RunFloatPredicate(ctx, [neg, pos](auto x) { return std::isinf(x) && (x > 0 ? pos : neg); });
}

Status RefNot(KernelContext& ctx) {
  GE_ASSIGN_OR_RETURN(const Tensor* x, TensorInput(ctx, 0));
  if (x->dtype() != DataType::kBool) return ctx.Error("input must be bool");
  GE_ASSIGN_OR_RETURN(Tensor* y, ctx.AllocateOutput(0, x->dims(), DataType::kBool));
  const bool* in = x->data<bool>();
  bool* out = y->data<bool>();
  for (int64_t i = 0, n = x->numel(); i < n; ++i) out[i] = !in[i];
  return Status::Ok();
}

}  // namespace

void RegisterUnaryKernels(KernelRegistry* r) {
  r->Add(OpId::kAbs, RefAbs);
  r->Add(OpId::kNeg, RefNeg);
  r->Add(OpId::kExp, RefExp);
  r->Add(OpId::kLog, RefLog);
  r->Add(OpId::kSqrt, RefSqrt);
  r->Add(OpId::kReciprocal, RefReciprocal);
  r->Add(OpId::kSin, RefSin);
  r->Add(OpId::kCos, RefCos);
  r->Add(OpId::kTan, RefTan);
  r->Add(OpId::kAsin, RefAsin);
  r->Add(OpId::kAcos, RefAcos);
  r->Add(OpId::kAtan, RefAtan);
  r->Add(OpId::kSinh, RefSinh);
  r->Add(OpId::kCosh, RefCosh);
  r->Add(OpId::kAsinh, RefAsinh);
  r->Add(OpId::kAcosh, RefAcosh);
  r->Add(OpId::kAtanh, RefAtanh);
  r->Add(OpId::kCeil, RefCeil);
  r->Add(OpId::kFloor, RefFloor);
  r->Add(OpId::kRound, RefRound);
  r->Add(OpId::kSign, RefSign);
  r->Add(OpId::kErf, RefErf);
  r->Add(OpId::kIsNaN, RefIsNaN);
  r->Add(OpId::kIsInf, RefIsInf);
  r->Add(OpId::kNot, RefNot);
}

}  // namespace ge::ref::elementwise
