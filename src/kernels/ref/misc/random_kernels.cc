// Random ops: RandomUniform(Like), RandomNormal(Like), Bernoulli, Multinomial. A 'seed' attribute makes the node
// draw from its own generator seeded from it (same seed, same values); otherwise the run's generator (ctx.rng)
// is used.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <string>

#include "kernels/ref/kernel_context.h"
#include "kernels/ref/misc/misc_kernels.h"

namespace ge::ref::misc {
namespace {

// The generator this node draws from; `local` holds it when the node has a seed (or the run gave none).
std::mt19937_64* Generator(const KernelContext& ctx, std::mt19937_64* local) {
  if (ctx.attr().Has("seed")) {
    const float seed = ctx.attr().GetFloat("seed", 0.0f);
    uint32_t bits = 0;
    std::memcpy(&bits, &seed, sizeof(bits));
    local->seed(bits);
    return local;
  }
  if (ctx.rng) return ctx.rng;
  local->seed(0);
  return local;
}

// Fills a floating-point tensor with draw() (a double) converted to its dtype.
template <typename Draw>
Status FillFloat(const KernelContext& ctx, Tensor* out, Draw&& draw) {
  Status s = VisitFloatType(out->dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using C = typename ComputeTypeOf<T>::type;
    T* p = out->data<T>();
    for (int64_t i = 0, n = out->numel(); i < n; ++i) p[i] = static_cast<T>(static_cast<C>(draw()));
  });
  return s.ok() ? s : ctx.Error(s.message());
}

Status RefRandomUniform(KernelContext& ctx) {
  const double low = ctx.attr().GetFloat("low", 0.0f), high = ctx.attr().GetFloat("high", 1.0f);
  if (!(low <= high)) return ctx.Error("low must be <= high");
  GE_ASSIGN_OR_RETURN(Tensor * out, ctx.AllocateOutput(0));
  std::mt19937_64 local;
  std::mt19937_64* gen = Generator(ctx, &local);
  if (low == high) return FillFloat(ctx, out, [&] { return low; });
  std::uniform_real_distribution<double> dist(low, high);
  return FillFloat(ctx, out, [&] { return dist(*gen); });
}

Status RefRandomNormal(KernelContext& ctx) {
  const double mean = ctx.attr().GetFloat("mean", 0.0f), scale = ctx.attr().GetFloat("scale", 1.0f);
  if (!(scale >= 0)) return ctx.Error("scale must be >= 0");
  GE_ASSIGN_OR_RETURN(Tensor * out, ctx.AllocateOutput(0));
  std::mt19937_64 local;
  std::mt19937_64* gen = Generator(ctx, &local);
  if (scale == 0) return FillFloat(ctx, out, [&] { return mean; });
  std::normal_distribution<double> dist(mean, scale);
  return FillFloat(ctx, out, [&] { return dist(*gen); });
}

Status RefBernoulli(KernelContext& ctx) {
  const Tensor* p = ctx.input(0);
  if (!p) return ctx.Error("input must be a tensor");
  std::vector<double> prob(p->numel());
  Status s = VisitFloatType(p->dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* src = p->data<T>();
    for (size_t i = 0; i < prob.size(); ++i) prob[i] = static_cast<double>(src[i]);
  });
  if (!s.ok()) return ctx.Error(s.message());
  for (double v : prob) {
    if (!(v >= 0 && v <= 1)) return ctx.Error("probabilities must lie in [0, 1], got " + std::to_string(v));
  }
  GE_ASSIGN_OR_RETURN(Tensor * out, ctx.AllocateOutput(0, p->dims(), ctx.inferred[0].dtype));
  std::mt19937_64 local;
  std::mt19937_64* gen = Generator(ctx, &local);
  std::uniform_real_distribution<double> dist(0.0, 1.0);
  if (out->dtype() == DataType::kBool) {
    bool* o = out->data<bool>();
    for (size_t i = 0; i < prob.size(); ++i) o[i] = dist(*gen) < prob[i];
    return Status::Ok();
  }
  s = VisitNumericType(out->dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using C = typename ComputeTypeOf<T>::type;
    T* o = out->data<T>();
    for (size_t i = 0; i < prob.size(); ++i) o[i] = static_cast<T>(static_cast<C>(dist(*gen) < prob[i] ? 1 : 0));
  });
  return s.ok() ? s : ctx.Error(s.message());
}

Status RefMultinomial(KernelContext& ctx) {
  const Tensor* x = ctx.input(0);
  if (!x || x->rank() != 2) return ctx.Error("input must be a 2-D tensor [batch_size, class_size]");
  const int64_t batch = x->dim(0), classes = x->dim(1);
  if (classes == 0 && batch > 0) return ctx.Error("class_size must be >= 1");
  const int64_t samples = ctx.attr().GetInt("sample_size", 1);
  GE_ASSIGN_OR_RETURN(Tensor * out, ctx.AllocateOutput(0, {batch, samples}, ctx.inferred[0].dtype));
  std::vector<double> logits(x->numel());
  Status s = VisitFloatType(x->dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* src = x->data<T>();
    for (size_t i = 0; i < logits.size(); ++i) logits[i] = static_cast<double>(src[i]);
  });
  if (!s.ok()) return ctx.Error(s.message());
  std::mt19937_64 local;
  std::mt19937_64* gen = Generator(ctx, &local);
  std::uniform_real_distribution<double> dist(0.0, 1.0);
  std::vector<double> cdf(classes);
  for (int64_t b = 0; b < batch; ++b) {
    const double* row = logits.data() + b * classes;
    const double mx = *std::max_element(row, row + classes);
    // Input rows are unnormalized log-probabilities.
    double total = 0;
    for (int64_t c = 0; c < classes; ++c) {
      total += std::exp(row[c] - mx);
      cdf[c] = total;
    }
    if (!(total > 0) || !std::isfinite(total)) return ctx.Error("row " + std::to_string(b) + " has no valid probabilities");
    for (int64_t k = 0; k < samples; ++k) {
      const double u = dist(*gen) * total;
      int64_t c = std::upper_bound(cdf.begin(), cdf.end(), u) - cdf.begin();
      c = std::min(c, classes - 1);
      if (out->dtype() == DataType::kInt32) {
        out->data<int32_t>()[b * samples + k] = static_cast<int32_t>(c);
      } else {
        out->data<int64_t>()[b * samples + k] = c;
      }
    }
  }
  return Status::Ok();
}

}  // namespace

void RegisterRandomKernels(KernelRegistry* r) {
  r->Add(OpId::kRandomUniform, RefRandomUniform);
  r->Add(OpId::kRandomUniformLike, RefRandomUniform);
  r->Add(OpId::kRandomNormal, RefRandomNormal);
  r->Add(OpId::kRandomNormalLike, RefRandomNormal);
  r->Add(OpId::kBernoulli, RefBernoulli);
  r->Add(OpId::kMultinomial, RefMultinomial);
}

}  // namespace ge::ref::misc
