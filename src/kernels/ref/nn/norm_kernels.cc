// BatchNormalization (inference and training), InstanceNormalization, LRN. Statistics accumulate in double.
#include <cmath>

#include "kernels/ref/kernel_context.h"
#include "kernels/ref/nn/nn_kernels_internal.h"

namespace ge::ref::nn {
namespace {

Status CheckFloat(const KernelContext& ctx, const Tensor* t, const char* what) {
  if (!t) return ctx.Error(std::string(what) + " is required");
  if (!IsFloatingPoint(t->dtype())) {
    return ctx.Error(std::string(what) + " must be floating-point, got " + DataTypeName(t->dtype()));
  }
  return Status::Ok();
}

// Writes double values into a floating-point tensor.
void StoreDoubles(const std::vector<double>& v, Tensor* out) {
  VisitFloatType(out->dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* d = out->data<T>();
    for (size_t i = 0; i < v.size(); ++i) d[i] = static_cast<T>(v[i]);
  }).IgnoreError();
}

}  // namespace

Status RefBatchNorm(KernelContext& ctx) {
  const Tensor* x = ctx.input(0);
  GE_RETURN_IF_ERROR(CheckFloat(ctx, x, "X"));
  const char* names[] = {"scale", "B", "mean", "var"};
  for (int i = 1; i <= 4; ++i) GE_RETURN_IF_ERROR(CheckFloat(ctx, ctx.input(i), names[i - 1]));
  if (x->rank() < 2) return ctx.Error("X must have rank >= 2");
  const int64_t n = x->dim(0), c = x->dim(1);
  const int64_t s = n * c != 0 ? x->numel() / (n * c) : 0;
  // Opset 7-8 spatial=0: parameters hold one value per (channel, spatial position).
  const bool per_elem = ctx.opset < 9 && ctx.attr().GetInt("spatial", 1) == 0;
  const int64_t pc = per_elem ? c * s : c;
  for (int i = 1; i <= 4; ++i) {
    if (ctx.input(i)->numel() != pc) {
      return ctx.Error(std::string(names[i - 1]) + " must have " + std::to_string(pc) + " elements, got " +
                       DimsToString(ctx.input(i)->dims()));
    }
  }
  const double eps = ctx.attr().GetFloat("epsilon", 1e-5f);
  const double momentum = ctx.attr().GetFloat("momentum", 0.9f);
  const bool training = ctx.opset >= 14 ? ctx.attr().GetInt("training_mode", 0) != 0 : ctx.num_outputs() > 1;
  if (training && per_elem) return ctx.Unsupported("training with spatial=0");
  std::vector<double> scale = ConvertTo<double>(*ctx.input(1));
  std::vector<double> bias = ConvertTo<double>(*ctx.input(2));
  std::vector<double> mean = ConvertTo<double>(*ctx.input(3));
  std::vector<double> var = ConvertTo<double>(*ctx.input(4));
  GE_ASSIGN_OR_RETURN(Tensor * y, ctx.AllocateOutput(0, x->dims(), x->dtype()));
  std::vector<double> bmean(c, 0.0), bvar(c, 0.0);
  GE_RETURN_IF_ERROR(VisitFloatType(x->dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* xd = x->data<T>();
    T* yd = y->data<T>();
    if (training) {
      const double cnt = static_cast<double>(n * s);
      for (int64_t ci = 0; ci < c; ++ci) {
        double sum = 0;
        for (int64_t ni = 0; ni < n; ++ni) {
          const T* xs = xd + (ni * c + ci) * s;
          for (int64_t j = 0; j < s; ++j) sum += static_cast<double>(xs[j]);
        }
        const double mu = cnt > 0 ? sum / cnt : 0;
        double sq = 0;
        for (int64_t ni = 0; ni < n; ++ni) {
          const T* xs = xd + (ni * c + ci) * s;
          for (int64_t j = 0; j < s; ++j) sq += (static_cast<double>(xs[j]) - mu) * (static_cast<double>(xs[j]) - mu);
        }
        bmean[ci] = mu;
        bvar[ci] = cnt > 0 ? sq / cnt : 0;
      }
    }
    const std::vector<double>& um = training ? bmean : mean;
    const std::vector<double>& uv = training ? bvar : var;
    for (int64_t ni = 0; ni < n; ++ni) {
      for (int64_t ci = 0; ci < c; ++ci) {
        const T* xs = xd + (ni * c + ci) * s;
        T* ys = yd + (ni * c + ci) * s;
        if (per_elem) {
          for (int64_t j = 0; j < s; ++j) {
            const int64_t k = ci * s + j;
            ys[j] = static_cast<T>((static_cast<double>(xs[j]) - um[k]) / std::sqrt(uv[k] + eps) * scale[k] + bias[k]);
          }
        } else {
          // y = x * a + b with a = scale / sqrt(var + eps), b = bias - mean * a.
          const double a = scale[ci] / std::sqrt(uv[ci] + eps), b = bias[ci] - um[ci] * a;
          for (int64_t j = 0; j < s; ++j) ys[j] = static_cast<T>(static_cast<double>(xs[j]) * a + b);
        }
      }
    }
  }));
  if (!training) {
    // Opset < 14 inference never has extra outputs; passing the inputs through keeps any requested ones defined.
    for (int i = 1; i < ctx.num_outputs() && i <= 2; ++i) ctx.SetOutput(i, *ctx.input(i + 2));
    return Status::Ok();
  }
  const DataType st = ctx.input(3)->dtype();
  for (int i = 1; i < ctx.num_outputs(); ++i) {
    std::vector<double> v(c);
    for (int64_t ci = 0; ci < c; ++ci) {
      switch (i) {
        case 1: v[ci] = mean[ci] * momentum + bmean[ci] * (1 - momentum); break;
        case 2: v[ci] = var[ci] * momentum + bvar[ci] * (1 - momentum); break;
        case 3: v[ci] = bmean[ci]; break;
        default: v[ci] = bvar[ci]; break;
      }
    }
    GE_ASSIGN_OR_RETURN(Tensor * o, ctx.AllocateOutput(i, {c}, st));
    StoreDoubles(v, o);
  }
  return Status::Ok();
}

namespace {

Status RefInstanceNorm(KernelContext& ctx) {
  const Tensor* x = ctx.input(0);
  GE_RETURN_IF_ERROR(CheckFloat(ctx, x, "input"));
  GE_RETURN_IF_ERROR(CheckFloat(ctx, ctx.input(1), "scale"));
  GE_RETURN_IF_ERROR(CheckFloat(ctx, ctx.input(2), "B"));
  if (x->rank() < 2) return ctx.Error("input must have rank >= 2");
  const int64_t n = x->dim(0), c = x->dim(1);
  const int64_t s = n * c != 0 ? x->numel() / (n * c) : 0;
  if (ctx.input(1)->numel() != c || ctx.input(2)->numel() != c) return ctx.Error("scale and B must have C elements");
  const double eps = ctx.attr().GetFloat("epsilon", 1e-5f);
  std::vector<double> scale = ConvertTo<double>(*ctx.input(1));
  std::vector<double> bias = ConvertTo<double>(*ctx.input(2));
  std::vector<double> xv = ConvertTo<double>(*x);
  std::vector<double> yv(xv.size());
  for (int64_t pl = 0; pl < n * c; ++pl) {
    const int64_t ci = pl % c;
    const double* xs = xv.data() + pl * s;
    double sum = 0;
    for (int64_t j = 0; j < s; ++j) sum += xs[j];
    const double mu = s ? sum / s : 0;
    double sq = 0;
    for (int64_t j = 0; j < s; ++j) sq += (xs[j] - mu) * (xs[j] - mu);
    const double inv = 1.0 / std::sqrt((s ? sq / s : 0) + eps);
    double* ys = yv.data() + pl * s;
    for (int64_t j = 0; j < s; ++j) ys[j] = (xs[j] - mu) * inv * scale[ci] + bias[ci];
  }
  GE_ASSIGN_OR_RETURN(Tensor * y, ctx.AllocateOutput(0, x->dims(), x->dtype()));
  StoreDoubles(yv, y);
  return Status::Ok();
}

Status RefLrn(KernelContext& ctx) {
  const Tensor* x = ctx.input(0);
  GE_RETURN_IF_ERROR(CheckFloat(ctx, x, "X"));
  if (x->rank() < 2) return ctx.Error("X must have rank >= 2");
  const int64_t size = ctx.attr().GetInt("size", 0);
  if (size < 1) return ctx.Error("size must be >= 1");
  const double alpha = ctx.attr().GetFloat("alpha", 1e-4f);
  const double beta = ctx.attr().GetFloat("beta", 0.75f);
  const double bias = ctx.attr().GetFloat("bias", 1.0f);
  const int64_t n = x->dim(0), c = x->dim(1);
  const int64_t s = n * c != 0 ? x->numel() / (n * c) : 0;
  const int64_t before = (size - 1) / 2, after = size - 1 - before;
  std::vector<double> xv = ConvertTo<double>(*x);
  std::vector<double> yv(xv.size());
  for (int64_t ni = 0; ni < n; ++ni) {
    for (int64_t ci = 0; ci < c; ++ci) {
      const int64_t lo = std::max<int64_t>(0, ci - before), hi = std::min<int64_t>(c - 1, ci + after);
      for (int64_t j = 0; j < s; ++j) {
        double sq = 0;
        for (int64_t k = lo; k <= hi; ++k) {
          const double v = xv[(ni * c + k) * s + j];
          sq += v * v;
        }
        const int64_t idx = (ni * c + ci) * s + j;
        yv[idx] = xv[idx] / std::pow(bias + alpha / static_cast<double>(size) * sq, beta);
      }
    }
  }
  GE_ASSIGN_OR_RETURN(Tensor * y, ctx.AllocateOutput(0, x->dims(), x->dtype()));
  StoreDoubles(yv, y);
  return Status::Ok();
}

}  // namespace

void RegisterNormKernels(KernelRegistry* r) {
  r->Add(OpId::kBatchNormalization, RefBatchNorm);
  r->Add(OpId::kInstanceNormalization, RefInstanceNorm);
  r->Add(OpId::kLRN, RefLrn);
}

}  // namespace ge::ref::nn
