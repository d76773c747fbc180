// Reference kernels of Softmax, LogSoftmax, Hardmax and CumSum.
#include <algorithm>
#include <cmath>
#include <vector>

#include "kernels/ref/reduce/reduce_kernels_internal.h"
#include "kernels/ref/ref_util.h"

namespace ge::ref {
namespace {

using reduce_util::StoreAs;
using reduce_util::WideOf;
using reduce_util::WrapAdd;

enum class SM { kSoftmax, kLogSoftmax, kHardmax };

// Works along the middle dim of x viewed as [outer, n, inner]. The common inner == 1 case (softmax over the last
// axis, as in attention) runs one contiguous row at a time; otherwise rows of `inner` run side by side.
template <SM K, typename T>
void RunSoftmaxRows(const T* x, T* y, int64_t rows, int64_t n) {
  using C = typename ComputeTypeOf<T>::type;
  for (int64_t r = 0; r < rows; ++r) {
    const T* xr = x + r * n;
    T* yr = y + r * n;
    C mx = -INFINITY;
    int64_t arg = 0;
    for (int64_t k = 0; k < n; ++k) {
      const C v = static_cast<C>(xr[k]);
      if (v > mx || (k == 0 && !(v <= mx))) {
        mx = v;
        arg = k;
      }
    }
    if constexpr (K == SM::kHardmax) {
      for (int64_t k = 0; k < n; ++k) yr[k] = StoreAs<T>(k == arg ? C(1) : C(0));
      continue;
    }
    C sum = 0;
    if constexpr (K == SM::kSoftmax && std::is_same_v<T, C>) {
      for (int64_t k = 0; k < n; ++k) {
        yr[k] = std::exp(xr[k] - mx);
        sum += yr[k];
      }
      const C inv = C(1) / sum;
      for (int64_t k = 0; k < n; ++k) yr[k] *= inv;
    } else {
      for (int64_t k = 0; k < n; ++k) sum += std::exp(static_cast<C>(xr[k]) - mx);
      if constexpr (K == SM::kSoftmax) {
        const C inv = C(1) / sum;
        for (int64_t k = 0; k < n; ++k) yr[k] = StoreAs<T>(std::exp(static_cast<C>(xr[k]) - mx) * inv);
      } else {
        const C shift = mx + std::log(sum);
        for (int64_t k = 0; k < n; ++k) yr[k] = StoreAs<T>(static_cast<C>(xr[k]) - shift);
      }
    }
  }
}

template <SM K, typename T>
void RunSoftmax(const T* x, T* y, int64_t outer, int64_t n, int64_t inner) {
  using C = typename ComputeTypeOf<T>::type;
  if (inner == 1) {
    RunSoftmaxRows<K, T>(x, y, outer, n);
    return;
  }
  std::vector<C> mx(inner), sum(inner);
  std::vector<int64_t> arg(inner);
  for (int64_t o = 0; o < outer; ++o) {
    const T* xo = x + o * n * inner;
    T* yo = y + o * n * inner;
    for (int64_t j = 0; j < inner; ++j) {
      mx[j] = -INFINITY;
      sum[j] = C(0);
      arg[j] = 0;
    }
    for (int64_t k = 0; k < n; ++k) {
      const T* row = xo + k * inner;
      for (int64_t j = 0; j < inner; ++j) {
        const C v = static_cast<C>(row[j]);
        if (v > mx[j] || (k == 0 && !(v <= mx[j]))) {
          mx[j] = v;
          arg[j] = k;
        }
      }
    }
    if constexpr (K == SM::kHardmax) {
      for (int64_t k = 0; k < n; ++k) {
        T* row = yo + k * inner;
        for (int64_t j = 0; j < inner; ++j) row[j] = StoreAs<T>(arg[j] == k ? C(1) : C(0));
      }
      continue;
    }
    for (int64_t k = 0; k < n; ++k) {
      const T* row = xo + k * inner;
      for (int64_t j = 0; j < inner; ++j) sum[j] += std::exp(static_cast<C>(row[j]) - mx[j]);
    }
    if constexpr (K == SM::kSoftmax) {
      for (int64_t j = 0; j < inner; ++j) sum[j] = C(1) / sum[j];
      for (int64_t k = 0; k < n; ++k) {
        const T* row = xo + k * inner;
        T* out = yo + k * inner;
        for (int64_t j = 0; j < inner; ++j) out[j] = StoreAs<T>(std::exp(static_cast<C>(row[j]) - mx[j]) * sum[j]);
      }
    } else {
      for (int64_t j = 0; j < inner; ++j) sum[j] = mx[j] + std::log(sum[j]);
      for (int64_t k = 0; k < n; ++k) {
        const T* row = xo + k * inner;
        T* out = yo + k * inner;
        for (int64_t j = 0; j < inner; ++j) out[j] = StoreAs<T>(static_cast<C>(row[j]) - sum[j]);
      }
    }
  }
}

template <SM K>
Status RefSoftmax(KernelContext& ctx) {
  const Tensor* x = ctx.input(0);
  if (!x) return ctx.Error("input must be a tensor");
  const int rank = x->rank();
  const Dims& d = x->dims();
  int64_t axis = ctx.attr().GetInt("axis", ctx.opset < 13 ? 1 : -1);
  int64_t outer = 1, n = 1, inner = 1;
  if (ctx.opset < 13) {
    // Opsets 1-12 coerce the input to 2-D [prod(d[:axis]), prod(d[axis:])] and normalize each row.
    if (axis < -rank || axis > rank) return ctx.Error("axis " + std::to_string(axis) + " is out of range");
    if (axis < 0) axis += rank;
    for (int i = 0; i < rank; ++i) (i < axis ? outer : n) *= d[i];
  } else {
    auto ax = NormalizeAxis(axis, rank);
    if (!ax.ok()) return ctx.Error(ax.status().message());
    for (int i = 0; i < rank; ++i) (i < *ax ? outer : i == *ax ? n : inner) *= d[i];
  }
  GE_ASSIGN_OR_RETURN(Tensor * y, ctx.AllocateOutput(0, d, x->dtype()));
  return VisitFloatType(x->dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    RunSoftmax<K, T>(x->data<T>(), y->data<T>(), outer, n, inner);
  });
}

template <typename T>
void RunCumSum(const T* x, T* y, int64_t outer, int64_t n, int64_t inner, bool exclusive, bool reverse) {
  using A = std::conditional_t<reduce_util::kIsFloat<T>, typename ComputeTypeOf<T>::type, WideOf<T>>;
  std::vector<A> acc(inner);
  for (int64_t o = 0; o < outer; ++o) {
    std::fill(acc.begin(), acc.end(), A(0));
    for (int64_t s = 0; s < n; ++s) {
      const int64_t k = reverse ? n - 1 - s : s;
      const T* row = x + (o * n + k) * inner;
      T* out = y + (o * n + k) * inner;
      for (int64_t j = 0; j < inner; ++j) {
        const A next = WrapAdd(acc[j], static_cast<A>(row[j]));
        out[j] = StoreAs<T>(exclusive ? acc[j] : next);
        acc[j] = next;
      }
    }
  }
}

Status RefCumSum(KernelContext& ctx) {
  const Tensor* x = ctx.input(0);
  const Tensor* a = ctx.input(1);
  if (!x || !a) return ctx.Error("inputs 'x' and 'axis' must be tensors");
  if (a->numel() != 1) return ctx.Error("input 'axis' must hold exactly one value");
  auto ax = NormalizeAxis(a->GetAsInt64(0), x->rank());
  if (!ax.ok()) return ctx.Error(ax.status().message());
  const Dims& d = x->dims();
  int64_t outer = 1, n = d[*ax], inner = 1;
  for (int i = 0; i < *ax; ++i) outer *= d[i];
  for (int i = *ax + 1; i < x->rank(); ++i) inner *= d[i];
  const bool exclusive = ctx.attr().GetInt("exclusive", 0) != 0;
  const bool reverse = ctx.attr().GetInt("reverse", 0) != 0;
  GE_ASSIGN_OR_RETURN(Tensor * y, ctx.AllocateOutput(0, d, x->dtype()));
  return VisitNumericType(x->dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    RunCumSum<T>(x->data<T>(), y->data<T>(), outer, n, inner, exclusive, reverse);
  });
}

}  // namespace

void RegisterSoftmaxRefKernels(KernelRegistry* r) {
  r->Add(OpId::kSoftmax, RefSoftmax<SM::kSoftmax>);
  r->Add(OpId::kLogSoftmax, RefSoftmax<SM::kLogSoftmax>);
  r->Add(OpId::kHardmax, RefSoftmax<SM::kHardmax>);
  r->Add(OpId::kCumSum, RefCumSum);
}

}  // namespace ge::ref
