// Activation kernels: Relu ... Mish, Shrink, PRelu, Clip.
#include <algorithm>
#include <cmath>
#include <limits>

#include "kernels/ref/elementwise/elementwise_kernels.h"
#include "kernels/ref/elementwise/elementwise_util.h"

namespace ge::ref::elementwise {
namespace {

float AttrF(const KernelContext& ctx, const char* name, float def) { return ctx.attr().GetFloat(name, def); }

// NaN passes through (x < 0 is false for NaN).
Status RefRelu(KernelContext& ctx) {
  return RunUnary<UnaryTypes::kNumeric>(ctx, [](auto x) -> decltype(x) {
    if constexpr (std::is_unsigned_v<decltype(x)>) {
      return x;
    } else {
      return x < 0 ? decltype(x)(0) : x;
    }
  });
}

Status RefLeakyRelu(KernelContext& ctx) {
  const float alpha = AttrF(ctx, "alpha", 0.01f);
  return RunUnary<UnaryTypes::kFloat>(ctx, [alpha](auto x) -> decltype(x) { return x < 0 ? x * alpha : x; });
}

Status RefElu(KernelContext& ctx) {
  const float alpha = AttrF(ctx, "alpha", 1.0f);
  return RunUnary<UnaryTypes::kFloat>(ctx,
                                      [alpha](auto x) -> decltype(x) { return x < 0 ? alpha * std::expm1(x) : x; });
}

Status RefSelu(KernelContext& ctx) {
  const float alpha = AttrF(ctx, "alpha", 1.67326319217681884765625f);
  const float gamma = AttrF(ctx, "gamma", 1.05070102214813232421875f);
  return RunUnary<UnaryTypes::kFloat>(
      ctx, [alpha, gamma](auto x) -> decltype(x) { return x > 0 ? gamma * x : gamma * (alpha * std::exp(x) - alpha); });
}

Status RefCelu(KernelContext& ctx) {
  const float alpha = AttrF(ctx, "alpha", 1.0f);
  if (alpha == 0) return ctx.Error("alpha must not be 0");
  return RunUnary<UnaryTypes::kFloat>(ctx, [alpha](auto x) -> decltype(x) {
    using C = decltype(x);
    return std::max(C(0), x) + std::min(C(0), alpha * std::expm1(x / alpha));
  });
}

template <typename C>
C SigmoidOf(C x) {
  if (x >= 0) return C(1) / (C(1) + std::exp(-x));
  C e = std::exp(x);
  return e / (C(1) + e);
}

// log(1 + exp(x)) without overflow.
template <typename C>
C SoftplusOf(C x) {
  return x > 0 ? x + std::log1p(std::exp(-x)) : std::log1p(std::exp(x));
}

Status RefSigmoid(KernelContext& ctx) {
  return RunUnary<UnaryTypes::kFloat>(ctx, [](auto x) { return SigmoidOf(x); });
}

Status RefHardSigmoid(KernelContext& ctx) {
  const float alpha = AttrF(ctx, "alpha", 0.2f);
  const float beta = AttrF(ctx, "beta", 0.5f);
  return RunUnary<UnaryTypes::kFloat>(ctx, [alpha, beta](auto x) -> decltype(x) {
    using C = decltype(x);
    return std::max(C(0), std::min(C(1), alpha * x + beta));
  });
}

Status RefHardSwish(KernelContext& ctx) {
  return RunUnary<UnaryTypes::kFloat>(ctx, [](auto x) -> decltype(x) {
    using C = decltype(x);
    const C alpha = static_cast<C>(1.0f / 6.0f);
    return x * std::max(C(0), std::min(C(1), alpha * x + C(0.5)));
  });
}

Status RefSoftplus(KernelContext& ctx) {
  return RunUnary<UnaryTypes::kFloat>(ctx, [](auto x) { return SoftplusOf(x); });
}

Status RefSoftsign(KernelContext& ctx) {
  return RunUnary<UnaryTypes::kFloat>(ctx, [](auto x) -> decltype(x) { return x / (decltype(x)(1) + std::fabs(x)); });
}

Status RefThresholdedRelu(KernelContext& ctx) {
  const float alpha = AttrF(ctx, "alpha", 1.0f);
  return RunUnary<UnaryTypes::kFloat>(ctx, [alpha](auto x) -> decltype(x) { return x > alpha ? x : decltype(x)(0); });
}

Status RefTanh(KernelContext& ctx) {
  return RunUnary<UnaryTypes::kFloat>(ctx, [](auto x) { return std::tanh(x); });
}

Status RefMish(KernelContext& ctx) {
  return RunUnary<UnaryTypes::kFloat>(ctx, [](auto x) -> decltype(x) { return x * std::tanh(SoftplusOf(x)); });
}

Status RefShrink(KernelContext& ctx) {
  const float lambd = AttrF(ctx, "lambd", 0.5f);
  const float bias = AttrF(ctx, "bias", 0.0f);
  return RunUnary<UnaryTypes::kNumeric>(ctx, [lambd, bias](auto x) -> decltype(x) {
    using C = decltype(x);
    if constexpr (std::is_floating_point_v<C>) {
      return x < -lambd ? x + bias : (x > lambd ? x - bias : C(0));
    } else {
      const double v = static_cast<double>(x);
      return FloatToInt<C>(v < -lambd ? v + bias : (v > lambd ? v - bias : 0.0));
    }
  });
}

Status RefPRelu(KernelContext& ctx) {
  GE_ASSIGN_OR_RETURN(const Tensor* x, TensorInput(ctx, 0));
  GE_ASSIGN_OR_RETURN(const Tensor* slope, TensorInput(ctx, 1));
  if (x->dtype() != slope->dtype()) return ctx.Error("X and slope must have the same type");
  auto b = BroadcastDims(x->dims(), slope->dims());
  if (!b.ok() || *b != x->dims()) {
    return ctx.Error("slope " + DimsToString(slope->dims()) + " does not broadcast to X " + DimsToString(x->dims()));
  }
  GE_ASSIGN_OR_RETURN(Tensor* y, ctx.AllocateOutput(0, x->dims(), x->dtype()));
  return DtypeError(ctx, VisitNumericType(x->dtype(), [&](auto tag) {
                      using T = typename decltype(tag)::type;
                      using C = Compute<T>;
                      BinaryLoop(x->data<T>(), x->dims(), slope->data<T>(), slope->dims(), y->data<T>(), x->dims(),
                                 [](T a, T s) {
                                   const C v = static_cast<C>(a);
                                   if constexpr (kIsInt<C>) {
                                     return v < 0 ? WrapMul<C>(v, static_cast<C>(s)) : v;
                                   } else {
                                     return FromCompute<T>(v < 0 ? v * static_cast<C>(s) : v);
                                   }
                                 });
                    }));
}

// Clip: bounds from attributes before opset 11, else from optional scalar inputs 1 and 2. With min > max every
// element becomes max.
Status RefClip(KernelContext& ctx) {
  GE_ASSIGN_OR_RETURN(const Tensor* x, TensorInput(ctx, 0));
  const Tensor* bounds[2] = {nullptr, nullptr};
  if (ctx.opset >= 11) {
    for (int i = 1; i <= 2; ++i) {
      if (!ctx.has_input(i)) continue;
      GE_ASSIGN_OR_RETURN(bounds[i - 1], TensorInput(ctx, i));
      if (bounds[i - 1]->dtype() != x->dtype()) return ctx.Error("min and max must have the input's type");
      if (bounds[i - 1]->numel() != 1) return ctx.Error("min and max must be scalars");
    }
  }
  const float attr_min = AttrF(ctx, "min", std::numeric_limits<float>::lowest());
  const float attr_max = AttrF(ctx, "max", std::numeric_limits<float>::max());
  GE_ASSIGN_OR_RETURN(Tensor* y, ctx.AllocateOutput(0, x->dims(), x->dtype()));
  return DtypeError(ctx, VisitNumericType(x->dtype(), [&](auto tag) {
                      using T = typename decltype(tag)::type;
                      using C = Compute<T>;
                      C lo = std::numeric_limits<C>::lowest(), hi = std::numeric_limits<C>::max();
                      if (ctx.opset < 11) {
                        if constexpr (std::is_floating_point_v<C>) {
                          lo = static_cast<C>(attr_min);
                          hi = static_cast<C>(attr_max);
                        }
                      } else {
                        if (bounds[0]) lo = static_cast<C>(bounds[0]->data<T>()[0]);
                        if (bounds[1]) hi = static_cast<C>(bounds[1]->data<T>()[0]);
                      }
                      const T* in = x->data<T>();
                      T* out = y->data<T>();
                      for (int64_t i = 0, n = x->numel(); i < n; ++i) {
                        out[i] = FromCompute<T>(std::min(std::max(static_cast<C>(in[i]), lo), hi));
                      }
                    }));
}

}  // namespace

void RegisterActivationKernels(KernelRegistry* r) {
  r->Add(OpId::kRelu, RefRelu);
  r->Add(OpId::kLeakyRelu, RefLeakyRelu);
  r->Add(OpId::kElu, RefElu);
  r->Add(OpId::kSelu, RefSelu);
  r->Add(OpId::kCelu, RefCelu);
  r->Add(OpId::kSigmoid, RefSigmoid);
  r->Add(OpId::kHardSigmoid, RefHardSigmoid);
  r->Add(OpId::kHardSwish, RefHardSwish);
  r->Add(OpId::kSoftplus, RefSoftplus);
  r->Add(OpId::kSoftsign, RefSoftsign);
  r->Add(OpId::kThresholdedRelu, RefThresholdedRelu);
  r->Add(OpId::kTanh, RefTanh);
  r->Add(OpId::kMish, RefMish);
  r->Add(OpId::kShrink, RefShrink);
  r->Add(OpId::kPRelu, RefPRelu);
  r->Add(OpId::kClip, RefClip);
}

}  // namespace ge::ref::elementwise
