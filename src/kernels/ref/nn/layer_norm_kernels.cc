// LayerNormalization (opset 17) and MeanVarianceNormalization. Statistics accumulate in double.
#include <cmath>

#include "kernels/ref/kernel_context.h"
#include "kernels/ref/nn/nn_kernels_internal.h"
#include "kernels/ref/ref_util.h"

namespace ge::ref::nn {
namespace {

void StoreDoubles(const std::vector<double>& v, Tensor* out) {
  VisitFloatType(out->dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* d = out->data<T>();
    for (size_t i = 0; i < v.size(); ++i) d[i] = static_cast<T>(v[i]);
  }).IgnoreError();
}

// p (unidirectionally broadcast to `target`) expanded to NumElements(target) doubles.
StatusOr<std::vector<double>> ExpandTo(const KernelContext& ctx, const Tensor& p, const Dims& target,
                                       const char* what) {
  const Dims& pd = p.dims();
  bool ok = pd.size() <= target.size();
  for (size_t i = 0; ok && i < pd.size(); ++i) {
    const int64_t t = target[target.size() - pd.size() + i];
    ok = pd[i] == t || pd[i] == 1;
  }
  if (!ok) return ctx.Error(std::string(what) + " " + DimsToString(pd) + " does not broadcast to " + DimsToString(target));
  std::vector<double> src = ConvertTo<double>(p);
  std::vector<double> out(static_cast<size_t>(NumElements(target)));
  ForEachBroadcast(target, {pd}, [&](int64_t i, const int64_t* off) { out[i] = src[off[0]]; });
  return out;
}

Status RefLayerNorm(KernelContext& ctx) {
  const Tensor* x = ctx.input(0);
  const Tensor* sc = ctx.input(1);
  const Tensor* b = ctx.input(2);
  if (!x || !sc) return ctx.Error("X and Scale are required");
  if (!IsFloatingPoint(x->dtype())) return ctx.Error(std::string("unsupported X type ") + DataTypeName(x->dtype()));
  const int r = x->rank();
  auto axis_or = NormalizeAxis(ctx.attr().GetInt("axis", -1), r);
  if (!axis_or.ok()) return ctx.Error(axis_or.status().message());
  const int axis = *axis_or;
  const double eps = ctx.attr().GetFloat("epsilon", 1e-5f);
  const int64_t stash = ctx.attr().GetInt("stash_type", 1);
  if (!IsValidDataType(static_cast<int32_t>(stash)) || !IsFloatingPoint(static_cast<DataType>(stash))) {
    return ctx.Error("stash_type must name a floating-point type");
  }
  const Dims tail(x->dims().begin() + axis, x->dims().end());
  const int64_t cols = NumElements(tail);
  const int64_t rows = cols ? x->numel() / cols : 0;
  GE_ASSIGN_OR_RETURN(std::vector<double> scale, ExpandTo(ctx, *sc, tail, "Scale"));
  std::vector<double> bias(static_cast<size_t>(cols), 0.0);
  if (b) {
    GE_ASSIGN_OR_RETURN(bias, ExpandTo(ctx, *b, tail, "B"));
  }
  std::vector<double> xv = ConvertTo<double>(*x);
  std::vector<double> yv(xv.size()), mean(rows), inv(rows);
  for (int64_t i = 0; i < rows; ++i) {
    const double* xs = xv.data() + i * cols;
    double sum = 0;
    for (int64_t j = 0; j < cols; ++j) sum += xs[j];
    const double mu = sum / static_cast<double>(cols);
    double sq = 0;
    for (int64_t j = 0; j < cols; ++j) sq += (xs[j] - mu) * (xs[j] - mu);
    const double is = 1.0 / std::sqrt(sq / static_cast<double>(cols) + eps);
    double* ys = yv.data() + i * cols;
    for (int64_t j = 0; j < cols; ++j) ys[j] = (xs[j] - mu) * is * scale[j] + bias[j];
    mean[i] = mu;
    inv[i] = is;
  }
  GE_ASSIGN_OR_RETURN(Tensor * y, ctx.AllocateOutput(0, x->dims(), x->dtype()));
  StoreDoubles(yv, y);
  Dims sd(x->dims().begin(), x->dims().begin() + axis);
  sd.resize(r, 1);
  for (int i = 1; i < ctx.num_outputs() && i <= 2; ++i) {
    GE_ASSIGN_OR_RETURN(Tensor * o, ctx.AllocateOutput(i, sd, static_cast<DataType>(stash)));
    StoreDoubles(i == 1 ? mean : inv, o);
  }
  return Status::Ok();
}

// y = (x - mean) / (sqrt(var) + 1e-9) over `axes` (default [0, 2, 3]), the ONNX function's formula.
Status RefMvn(KernelContext& ctx) {
  const Tensor* x = ctx.input(0);
  if (!x) return ctx.Error("X is required");
  if (!IsFloatingPoint(x->dtype())) return ctx.Error(std::string("unsupported X type ") + DataTypeName(x->dtype()));
  const int r = x->rank();
  std::vector<bool> reduced(r, false);
  for (int64_t a : ctx.attr().GetInts("axes", {0, 2, 3})) {
    auto ax = NormalizeAxis(a, r);
    if (!ax.ok()) return ctx.Error(ax.status().message());
    reduced[*ax] = true;
  }
  // Group id of each element: its index over the kept dims.
  Dims kept_dims(r, 1);
  int64_t groups = 1;
  for (int i = 0; i < r; ++i)
    if (!reduced[i]) {
      kept_dims[i] = x->dim(i);
      groups *= x->dim(i);
    }
  const int64_t total = x->numel();
  std::vector<int64_t> gid(static_cast<size_t>(total));
  ForEachBroadcast(x->dims(), {kept_dims}, [&](int64_t i, const int64_t* off) { gid[i] = off[0]; });
  std::vector<double> xv = ConvertTo<double>(*x);
  std::vector<double> sum(groups, 0.0), sq(groups, 0.0);
  std::vector<int64_t> cnt(groups, 0);
  for (int64_t i = 0; i < total; ++i) {
    sum[gid[i]] += xv[i];
    ++cnt[gid[i]];
  }
  for (int64_t g = 0; g < groups; ++g) sum[g] = cnt[g] ? sum[g] / cnt[g] : 0;
  for (int64_t i = 0; i < total; ++i) sq[gid[i]] += (xv[i] - sum[gid[i]]) * (xv[i] - sum[gid[i]]);
  for (int64_t g = 0; g < groups; ++g) sq[g] = std::sqrt(cnt[g] ? sq[g] / cnt[g] : 0) + 1e-9;
  std::vector<double> yv(xv.size());
  for (int64_t i = 0; i < total; ++i) yv[i] = (xv[i] - sum[gid[i]]) / sq[gid[i]];
  GE_ASSIGN_OR_RETURN(Tensor * y, ctx.AllocateOutput(0, x->dims(), x->dtype()));
  StoreDoubles(yv, y);
  return Status::Ok();
}

}  // namespace

void RegisterLayerNormKernels(KernelRegistry* r) {
  r->Add(OpId::kLayerNormalization, RefLayerNorm);
  r->Add(OpId::kMeanVarianceNormalization, RefMvn);
}

}  // namespace ge::ref::nn
