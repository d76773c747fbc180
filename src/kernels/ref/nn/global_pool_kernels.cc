// GlobalAveragePool, GlobalMaxPool, GlobalLpPool (reduce every spatial dim of each (n, c) plane) and MaxUnpool.
#include <cmath>

#include "kernels/ref/kernel_context.h"
#include "kernels/ref/nn/nn_kernels_internal.h"
#include "ops/nn/window_util.h"

namespace ge::ref::nn {
namespace {

enum class GlobalKind { kAvg, kMax, kLp };

template <GlobalKind K>
Status RunGlobalPool(KernelContext& ctx) {
  const Tensor* x = ctx.input(0);
  if (!x) return ctx.Error("X is required");
  if (x->rank() < 3) return ctx.Error("X must have rank >= 3, got " + DimsToString(x->dims()));
  if (!IsFloatingPoint(x->dtype())) return ctx.Error(std::string("unsupported X type ") + DataTypeName(x->dtype()));
  const double p = static_cast<double>(ctx.attr().GetInt("p", 2));
  if (K == GlobalKind::kLp && p < 1) return ctx.Error("p must be >= 1");
  Dims od = {x->dim(0), x->dim(1)};
  for (int i = 2; i < x->rank(); ++i) od.push_back(1);
  GE_ASSIGN_OR_RETURN(Tensor * y, ctx.AllocateOutput(0, od, x->dtype()));
  const int64_t planes = x->dim(0) * x->dim(1);
  const int64_t q = planes ? x->numel() / planes : 0;
  return VisitFloatType(x->dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* xd = x->data<T>();
    T* yd = y->data<T>();
    for (int64_t pl = 0; pl < planes; ++pl) {
      const T* v = xd + pl * q;
      double r = 0;
      if (K == GlobalKind::kMax) {
        r = q > 0 ? static_cast<double>(v[0]) : 0.0;
        for (int64_t i = 1; i < q; ++i) {
          double e = static_cast<double>(v[i]);
          if (e > r || std::isnan(r)) r = e;
        }
      } else if (K == GlobalKind::kAvg) {
        for (int64_t i = 0; i < q; ++i) r += static_cast<double>(v[i]);
        r = q > 0 ? r / static_cast<double>(q) : 0.0;
      } else {
        for (int64_t i = 0; i < q; ++i) r += std::pow(std::fabs(static_cast<double>(v[i])), p);
        r = std::pow(r, 1.0 / p);
      }
      yd[pl] = static_cast<T>(r);
    }
  });
}

Status RefMaxUnpool(KernelContext& ctx) {
  const Tensor* x = ctx.input(0);
  const Tensor* ind = ctx.input(1);
  if (!x || !ind) return ctx.Error("X and I are required");
  if (ind->dtype() != DataType::kInt64) return ctx.Error("I must be int64");
  if (ind->dims() != x->dims()) return ctx.Error("I must have the shape of X");
  if (!IsFloatingPoint(x->dtype())) return ctx.Error(std::string("unsupported X type ") + DataTypeName(x->dtype()));
  if (ctx.inferred.empty() || !ctx.inferred[0].shape.IsFullyKnown()) return ctx.Error("output shape is not known");
  const Dims od = ctx.inferred[0].shape.dims();
  const int r = x->rank();
  if (r < 3) return ctx.Error("X must have rank >= 3");
  if (static_cast<int>(od.size()) != r) return ctx.Error("output_shape must have the rank of X");
  // Indices address the default unpooled shape (from kernel, strides, pads); a larger output_shape pads that
  // result at the end of each spatial dim (as the ONNX reference does).
  ge::nn::Window win;
  Status st = ge::nn::ParseWindow(ctx.attr(), r - 2, nullptr, true, &win);
  if (!st.ok()) return ctx.Error(st.message());
  Dims dd = {x->dim(0), x->dim(1)};
  for (int i = 0; i < r - 2; ++i) {
    dd.push_back((x->dim(i + 2) - 1) * win.strides[i] + win.kernel[i] - win.pads[i] - win.pads[i + r - 2]);
  }
  for (int i = 0; i < r; ++i) {
    if (dd[i] < 0 || od[i] < dd[i] || (i < 2 && od[i] != dd[i])) {
      return ctx.Error("output_shape " + DimsToString(od) + " is smaller than the unpooled shape " + DimsToString(dd));
    }
  }
  GE_ASSIGN_OR_RETURN(Tensor * y, ctx.AllocateOutput(0, od, x->dtype()));
  const int64_t total = NumElements(dd);
  const int64_t* iv = ind->data<int64_t>();
  for (int64_t i = 0; i < ind->numel(); ++i) {
    if (iv[i] < 0 || iv[i] >= total) {
      return ctx.Error("index " + std::to_string(iv[i]) + " is outside the unpooled shape " + DimsToString(dd));
    }
  }
  // Flat index in dd -> flat index in od (same coordinates).
  std::vector<int64_t> map_idx(static_cast<size_t>(ind->numel()));
  for (int64_t i = 0; i < ind->numel(); ++i) {
    int64_t rem = iv[i], out = 0, stride = 1;
    for (int d = r - 1; d >= 0; --d) {
      out += (rem % dd[d]) * stride;
      rem /= dd[d];
      stride *= od[d];
    }
    map_idx[i] = out;
  }
  return VisitFloatType(x->dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* xd = x->data<T>();
    T* yd = y->data<T>();
    for (int64_t i = 0; i < x->numel(); ++i) yd[map_idx[i]] = xd[i];
  });
}

}  // namespace

void RegisterGlobalPoolKernels(KernelRegistry* r) {
  r->Add(OpId::kGlobalAveragePool, RunGlobalPool<GlobalKind::kAvg>);
  r->Add(OpId::kGlobalMaxPool, RunGlobalPool<GlobalKind::kMax>);
  r->Add(OpId::kGlobalLpPool, RunGlobalPool<GlobalKind::kLp>);
  r->Add(OpId::kMaxUnpool, RefMaxUnpool);
}

}  // namespace ge::ref::nn
