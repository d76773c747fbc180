// Reference kernels of the Reduce* ops and of ArgMax / ArgMin.
#include <cmath>
#include <limits>
#include <vector>

#include "kernels/ref/reduce/reduce_kernels_internal.h"
#include "kernels/ref/ref_util.h"
#include "ops/reduce/reduce_common.h"

namespace ge::ref {
namespace {

using reduce_util::kIsFloat;
using reduce_util::StoreAs;
using reduce_util::WideOf;
using reduce_util::WrapAdd;
using reduce_util::WrapMul;

enum class RK { kSum, kMean, kMax, kMin, kProd, kL1, kL2, kLogSum, kLogSumExp, kSumSquare };

// The input viewed as merged dims (size-1 dims dropped, neighbours with the same reduced/kept status merged), so
// the innermost loop runs over one contiguous block that is either all reduced into one output or all kept.
struct ReduceLayout {
  Dims dims;
  std::vector<bool> reduced;
  std::vector<int64_t> out_stride;  // 0 for reduced dims
  int64_t out_count = 1;
  int64_t group = 1;                // input elements per output element
};

ReduceLayout MakeLayout(const Dims& in, const std::vector<bool>& mask) {
  ReduceLayout L;
  for (size_t i = 0; i < in.size(); ++i) {
    if (mask[i]) {
      L.group *= in[i];
    } else {
      L.out_count *= in[i];
    }
    if (in[i] == 1) continue;
    if (!L.dims.empty() && L.reduced.back() == mask[i]) {
      L.dims.back() *= in[i];
    } else {
      L.dims.push_back(in[i]);
      L.reduced.push_back(mask[i]);
    }
  }
  if (L.dims.empty()) {
    L.dims.push_back(1);
    L.reduced.push_back(false);
  }
  L.out_stride.assign(L.dims.size(), 0);
  int64_t s = 1;
  for (int d = static_cast<int>(L.dims.size()) - 1; d >= 0; --d) {
    if (L.reduced[d]) continue;
    L.out_stride[d] = s;
    s *= L.dims[d];
  }
  return L;
}

// Calls f(out_index, block, n, inner_reduced) for each innermost block of n contiguous input elements: when
// inner_reduced, the whole block belongs to output out_index; else element j belongs to output out_index + j.
template <typename T, typename F>
void ForEachBlock(const T* x, const ReduceLayout& L, F&& f) {
  const int r = static_cast<int>(L.dims.size());
  const int64_t n = L.dims[r - 1];
  int64_t total = 1;
  for (int64_t d : L.dims) total *= d;
  if (total == 0) return;
  const bool inner_reduced = L.reduced[r - 1];
  std::vector<int64_t> idx(r, 0);
  int64_t o = 0;
  for (int64_t s = 0, blocks = total / n; s < blocks; ++s) {
    f(o, x + s * n, n, inner_reduced);
    for (int d = r - 2; d >= 0; --d) {
      if (++idx[d] < L.dims[d]) {
        o += L.out_stride[d];
        break;
      }
      o -= L.out_stride[d] * (L.dims[d] - 1);
      idx[d] = 0;
    }
  }
}

template <typename A>
inline A MaxOf(A acc, A v) {
  if constexpr (std::is_floating_point_v<A>) {
    if (std::isnan(v)) return v;
  }
  return v > acc ? v : acc;
}
template <typename A>
inline A MinOf(A acc, A v) {
  if constexpr (std::is_floating_point_v<A>) {
    if (std::isnan(v)) return v;
  }
  return v < acc ? v : acc;
}

template <RK K, typename T>
void RunReduce(const T* x, const ReduceLayout& L, T* y) {
  constexpr bool kDoubleAcc = K == RK::kL2 || K == RK::kLogSum || K == RK::kLogSumExp;
  using A = std::conditional_t<kDoubleAcc, double, WideOf<T>>;
  A init = A(0);
  if constexpr (K == RK::kProd) init = A(1);
  if constexpr (K == RK::kMax || K == RK::kLogSumExp) {
    if constexpr (kIsFloat<T>) {
      init = -std::numeric_limits<A>::infinity();
    } else {
      init = static_cast<A>(std::numeric_limits<T>::lowest());
    }
  }
  if constexpr (K == RK::kMin) {
    if constexpr (kIsFloat<T>) {
      init = std::numeric_limits<A>::infinity();
    } else {
      init = static_cast<A>(std::numeric_limits<T>::max());
    }
  }
  std::vector<A> acc(L.out_count, init);

  // LogSumExp: first the max of each group, then the sum of exp(x - max) (shifted by 0 when max is infinite).
  std::vector<A> shift;
  if constexpr (K == RK::kLogSumExp) {
    ForEachBlock(x, L, [&](int64_t o, const T* b, int64_t n, bool red) {
      if (red) {
        A m = acc[o];
        for (int64_t j = 0; j < n; ++j) m = MaxOf(m, static_cast<A>(b[j]));
        acc[o] = m;
      } else {
        for (int64_t j = 0; j < n; ++j) acc[o + j] = MaxOf(acc[o + j], static_cast<A>(b[j]));
      }
    });
    shift.swap(acc);
    for (A& m : shift) m = std::isfinite(m) ? m : A(0);
    acc.assign(L.out_count, A(0));
  }

  auto map = [&](T v, int64_t o) -> A {
    A a = static_cast<A>(v);
    if constexpr (K == RK::kL1) {
      if constexpr (std::is_signed_v<A>) return a < A(0) ? WrapMul(a, A(-1)) : a;
      return a;
    } else if constexpr (K == RK::kL2 || K == RK::kSumSquare) {
      return WrapMul(a, a);
    } else if constexpr (K == RK::kLogSumExp) {
      return std::exp(a - shift[o]);
    } else {
      (void)o;
      return a;
    }
  };
  auto combine = [](A c, A v) -> A {
    if constexpr (K == RK::kMax) return MaxOf(c, v);
    if constexpr (K == RK::kMin) return MinOf(c, v);
    if constexpr (K == RK::kProd) return WrapMul(c, v);
    return WrapAdd(c, v);
  };
  ForEachBlock(x, L, [&](int64_t o, const T* b, int64_t n, bool red) {
    if (red) {
      A c = acc[o];
      for (int64_t j = 0; j < n; ++j) c = combine(c, map(b[j], o));
      acc[o] = c;
    } else {
      for (int64_t j = 0; j < n; ++j) acc[o + j] = combine(acc[o + j], map(b[j], o + j));
    }
  });

  const int64_t count = L.group;
  for (int64_t o = 0; o < L.out_count; ++o) {
    A a = acc[o];
    if constexpr (K == RK::kMean) {
      if constexpr (std::is_integral_v<A>) {
        a = count == 0 ? A(0) : a / static_cast<A>(count);
      } else {
        a = a / static_cast<A>(count);
      }
    } else if constexpr (K == RK::kL2) {
      a = std::sqrt(a);
    } else if constexpr (K == RK::kLogSum) {
      a = std::log(a);
    } else if constexpr (K == RK::kLogSumExp) {
      a = shift[o] + std::log(a);
    }
    y[o] = StoreAs<T>(a);
  }
}

template <RK K>
Status RefReduce(KernelContext& ctx) {
  const Tensor* x = ctx.input(0);
  if (!x) return ctx.Error("input 'data' must be a tensor");
  const int rank = x->rank();
  std::vector<int64_t> axes;
  const bool from_input = ops::reduce::ReduceAxesFromInput(ctx.op_type, ctx.opset);
  if (from_input) {
    if (ctx.has_input(1)) {
      const Tensor* a = ctx.input(1);
      if (!a) return ctx.Error("input 'axes' must be a tensor");
      axes = a->ToInt64Vector();
    }
    if (axes.empty() && ctx.attr().GetInt("noop_with_empty_axes", 0) != 0) {
      ctx.SetOutput(0, *x);
      return Status::Ok();
    }
  } else {
    axes = ctx.attr().GetInts("axes");
  }
  std::vector<bool> mask(rank, true);
  if (!axes.empty()) {
    Status st = ops::reduce::ReduceMask(axes, rank, &mask);
    if (!st.ok()) return ctx.Error(st.message());
  }
  const bool keepdims = ctx.attr().GetInt("keepdims", 1) != 0;
  GE_ASSIGN_OR_RETURN(Tensor * y, ctx.AllocateOutput(0, ops::reduce::ReducedDims(x->dims(), mask, keepdims), x->dtype()));
  const ReduceLayout layout = MakeLayout(x->dims(), mask);
  return VisitNumericType(x->dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    RunReduce<K, T>(x->data<T>(), layout, y->data<T>());
  });
}

// ArgMax / ArgMin: per (outer, inner) position the index along the axis of the first (or, with
// select_last_index, the last) extreme value. NaN counts as the extreme, like numpy.
template <bool kMax, typename T>
void RunArg(const T* x, int64_t outer, int64_t n, int64_t inner, bool last, int64_t* y) {
  using C = typename ComputeTypeOf<T>::type;
  std::vector<C> best(inner);
  for (int64_t o = 0; o < outer; ++o) {
    const T* base = x + o * n * inner;
    int64_t* yo = y + o * inner;
    for (int64_t j = 0; j < inner; ++j) {
      best[j] = static_cast<C>(base[j]);
      yo[j] = 0;
    }
    for (int64_t k = 1; k < n; ++k) {
      const T* row = base + k * inner;
      for (int64_t j = 0; j < inner; ++j) {
        const C v = static_cast<C>(row[j]);
        bool better = kMax ? v > best[j] : v < best[j];
        if (last && v == best[j]) better = true;
        if constexpr (std::is_floating_point_v<C>) {
          if (std::isnan(best[j])) {
            better = last && std::isnan(v);
          } else if (std::isnan(v)) {
            better = true;
          }
        }
        if (better) {
          best[j] = v;
          yo[j] = k;
        }
      }
    }
  }
}

template <bool kMax>
Status RefArgMinMax(KernelContext& ctx) {
  const Tensor* x = ctx.input(0);
  if (!x) return ctx.Error("input 'data' must be a tensor");
  auto ax = NormalizeAxis(ctx.attr().GetInt("axis", 0), x->rank());
  if (!ax.ok()) return ctx.Error(ax.status().message());
  const int axis = *ax;
  const bool keepdims = ctx.attr().GetInt("keepdims", 1) != 0;
  const bool last = ctx.attr().GetInt("select_last_index", 0) != 0;
  const Dims& d = x->dims();
  int64_t outer = 1, inner = 1;
  for (int i = 0; i < axis; ++i) outer *= d[i];
  for (int i = axis + 1; i < x->rank(); ++i) inner *= d[i];
  const int64_t n = d[axis];
  std::vector<bool> mask(x->rank(), false);
  mask[axis] = true;
  Dims out_dims = ops::reduce::ReducedDims(d, mask, keepdims);
  if (n == 0 && NumElements(out_dims) > 0) return ctx.Error("cannot take the arg extreme of an empty axis");
  GE_ASSIGN_OR_RETURN(Tensor * y, ctx.AllocateOutput(0, out_dims, DataType::kInt64));
  return VisitNumericType(x->dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    RunArg<kMax, T>(x->data<T>(), outer, n, inner, last, y->data<int64_t>());
  });
}

}  // namespace

void RegisterReductionRefKernels(KernelRegistry* r) {
  r->Add(OpId::kReduceSum, RefReduce<RK::kSum>);
  r->Add(OpId::kReduceMean, RefReduce<RK::kMean>);
  r->Add(OpId::kReduceMax, RefReduce<RK::kMax>);
  r->Add(OpId::kReduceMin, RefReduce<RK::kMin>);
  r->Add(OpId::kReduceProd, RefReduce<RK::kProd>);
  r->Add(OpId::kReduceL1, RefReduce<RK::kL1>);
  r->Add(OpId::kReduceL2, RefReduce<RK::kL2>);
  r->Add(OpId::kReduceLogSum, RefReduce<RK::kLogSum>);
  r->Add(OpId::kReduceLogSumExp, RefReduce<RK::kLogSumExp>);
  r->Add(OpId::kReduceSumSquare, RefReduce<RK::kSumSquare>);
  r->Add(OpId::kArgMax, RefArgMinMax<true>);
  r->Add(OpId::kArgMin, RefArgMinMax<false>);
}

}  // namespace ge::ref
