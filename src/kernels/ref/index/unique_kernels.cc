// Unique (opset 11): unique elements of the flattened input, or unique slices along `axis`, with first-occurrence
// indices, inverse indices and counts. Slices compare lexicographically in row-major order of their elements,
// which is numpy.unique's order; NaNs sort last and equal each other.
#include <algorithm>
#include <complex>
#include <numeric>
#include <type_traits>

#include "kernels/ref/index/index_kernels.h"
#include "kernels/ref/index/index_util.h"
#include "kernels/ref/ref_util.h"

namespace ge::ref {
namespace {

using index_util::DimProduct;
using index_util::RowCopier;

template <typename T>
int CompareElems(const T& a, const T& b) {
  if constexpr (std::is_same_v<T, std::complex<float>> || std::is_same_v<T, std::complex<double>>) {
    int c = CompareElems(a.real(), b.real());
    return c != 0 ? c : CompareElems(a.imag(), b.imag());
  } else if constexpr (std::is_same_v<T, std::string>) {
    int c = a.compare(b);
    return (c > 0) - (c < 0);
  } else if constexpr (std::is_same_v<T, bool>) {
    return static_cast<int>(a) - static_cast<int>(b);
  } else {
    using C = typename ComputeTypeOf<T>::type;
    const C x = static_cast<C>(a), y = static_cast<C>(b);
    if constexpr (std::is_floating_point_v<C>) {
      const bool nx = x != x, ny = y != y;
      if (nx || ny) return static_cast<int>(nx) - static_cast<int>(ny);
    }
    return (x > y) - (x < y);
  }
}

struct Groups {
  std::vector<int64_t> first;    // per unique slice: position of its first occurrence
  std::vector<int64_t> counts;   // per unique slice
  std::vector<int64_t> inverse;  // per input slice: its unique slice
};

// Groups the n slices (slice k = elements (o * n + k) * inner + i) in ascending order.
template <typename T>
Groups GroupSlices(const T* p, int64_t outer, int64_t n, int64_t inner) {
  auto compare = [&](int64_t a, int64_t b) {
    for (int64_t o = 0; o < outer; ++o) {
      const T* pa = p + (o * n + a) * inner;
      const T* pb = p + (o * n + b) * inner;
      for (int64_t i = 0; i < inner; ++i) {
        int c = CompareElems(pa[i], pb[i]);
        if (c != 0) return c;
      }
    }
    return 0;
  };
  std::vector<int64_t> order(static_cast<size_t>(n));
  std::iota(order.begin(), order.end(), int64_t{0});
  // Stable: among equal slices the earliest comes first, so it is the group's first occurrence.
  std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) { return compare(a, b) < 0; });
  Groups g;
  g.inverse.resize(static_cast<size_t>(n));
  for (int64_t j = 0; j < n; ++j) {
    if (j == 0 || compare(order[j - 1], order[j]) != 0) {
      g.first.push_back(order[j]);
      g.counts.push_back(0);
    }
    g.counts.back()++;
    g.inverse[order[j]] = static_cast<int64_t>(g.first.size()) - 1;
  }
  return g;
}

// Reorders groups by first occurrence (sorted=0).
void ToOccurrenceOrder(Groups* g) {
  const size_t m = g->first.size();
  std::vector<int64_t> perm(m);
  std::iota(perm.begin(), perm.end(), int64_t{0});
  std::sort(perm.begin(), perm.end(), [&](int64_t a, int64_t b) { return g->first[a] < g->first[b]; });
  std::vector<int64_t> rank(m);
  Groups out;
  for (size_t j = 0; j < m; ++j) {
    rank[perm[j]] = static_cast<int64_t>(j);
    out.first.push_back(g->first[perm[j]]);
    out.counts.push_back(g->counts[perm[j]]);
  }
  out.inverse.reserve(g->inverse.size());
  for (int64_t v : g->inverse) out.inverse.push_back(rank[v]);
  *g = std::move(out);
}

Status SetInt64Output(KernelContext& ctx, int i, const std::vector<int64_t>& v) {
  if (i >= ctx.num_outputs()) return Status::Ok();
  GE_ASSIGN_OR_RETURN(Tensor* t, ctx.AllocateOutput(i, {static_cast<int64_t>(v.size())}, DataType::kInt64));
  std::copy(v.begin(), v.end(), t->data<int64_t>());
  return Status::Ok();
}

Status RefUnique(KernelContext& ctx) {
  const Tensor* x = ctx.input(0);
  if (!x) return ctx.Error("X must be a tensor");
  const int64_t sorted = ctx.attr().GetInt("sorted", 1);
  if (sorted != 0 && sorted != 1) return ctx.Error("attribute sorted must be 0 or 1");
  Dims dims = {x->numel()};
  int axis = 0;
  if (ctx.attr().Has("axis")) {
    auto a = NormalizeAxis(ctx.attr().GetInt("axis", 0), x->rank());
    if (!a.ok()) return ctx.Error(a.status().message());
    axis = *a;
    dims = x->dims();
  }
  const int64_t outer = DimProduct(dims, 0, axis);
  const int64_t n = dims[axis];
  const int64_t inner = DimProduct(dims, axis + 1, static_cast<int>(dims.size()));
  Groups g;
  GE_RETURN_IF_ERROR(VisitDataType(x->dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    g = GroupSlices(x->data<T>(), outer, n, inner);
  }));
  if (sorted == 0) ToOccurrenceOrder(&g);

  const int64_t m = static_cast<int64_t>(g.first.size());
  Dims y_dims = dims;
  y_dims[axis] = m;
  GE_ASSIGN_OR_RETURN(Tensor* y, ctx.AllocateOutput(0, y_dims, x->dtype()));
  const RowCopier copy(x->dtype());
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t j = 0; j < m; ++j) copy.Copy(x->raw_data(), (o * n + g.first[j]) * inner, y->raw_data(), (o * m + j) * inner, inner);
  }
  GE_RETURN_IF_ERROR(SetInt64Output(ctx, 1, g.first));
  GE_RETURN_IF_ERROR(SetInt64Output(ctx, 2, g.inverse));
  GE_RETURN_IF_ERROR(SetInt64Output(ctx, 3, g.counts));
  return Status::Ok();
}

}  // namespace

void RegisterUniqueRefKernels(KernelRegistry* r) { r->Add(OpId::kUnique, RefUnique); }

}  // namespace ge::ref
