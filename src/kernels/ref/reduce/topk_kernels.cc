// Reference kernel of TopK.
#include <algorithm>
#include <cmath>
#include <vector>

#include "kernels/ref/reduce/reduce_kernels_internal.h"
#include "kernels/ref/ref_util.h"

namespace ge::ref {
namespace {

// Orders (value, index) pairs: NaN above every number (as numpy sorts), ties broken by the lower index, so the
// order is a strict weak ordering even with NaNs.
template <typename C>
struct TopKLess {
  bool largest;
  bool operator()(const std::pair<C, int64_t>& a, const std::pair<C, int64_t>& b) const {
    if (a.first != b.first) {
      if constexpr (std::is_floating_point_v<C>) {
        const bool na = std::isnan(a.first), nb = std::isnan(b.first);
        if (na || nb) {
          if (na && nb) return a.second < b.second;
          return largest ? na : nb;
        }
      }
      return largest ? a.first > b.first : a.first < b.first;
    }
    return a.second < b.second;
  }
};

template <typename T>
void RunTopK(const T* x, int64_t outer, int64_t n, int64_t inner, int64_t k, bool largest, T* vals,
             int64_t* idx) {
  using C = typename ComputeTypeOf<T>::type;
  std::vector<std::pair<C, int64_t>> buf(n);
  const TopKLess<C> less{largest};
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t j = 0; j < inner; ++j) {
      const T* col = x + o * n * inner + j;
      for (int64_t i = 0; i < n; ++i) buf[i] = {static_cast<C>(col[i * inner]), i};
      std::partial_sort(buf.begin(), buf.begin() + k, buf.end(), less);
      T* vo = vals + o * k * inner + j;
      int64_t* io = idx + o * k * inner + j;
      for (int64_t i = 0; i < k; ++i) {
        vo[i * inner] = col[buf[i].second * inner];
        io[i * inner] = buf[i].second;
      }
    }
  }
}

Status RefTopK(KernelContext& ctx) {
  const Tensor* x = ctx.input(0);
  if (!x) return ctx.Error("input 'X' must be a tensor");
  int64_t k = 0;
  if (ctx.opset < 10) {
    k = ctx.attr().GetInt("k", -1);
  } else {
    const Tensor* kt = ctx.input(1);
    if (!kt || kt->numel() != 1) return ctx.Error("input 'K' must hold exactly one value");
    k = kt->GetAsInt64(0);
  }
  auto ax = NormalizeAxis(ctx.attr().GetInt("axis", -1), x->rank());
  if (!ax.ok()) return ctx.Error(ax.status().message());
  const Dims& d = x->dims();
  const int64_t n = d[*ax];
  if (k < 0 || k > n) return ctx.Error("k = " + std::to_string(k) + " is outside [0, " + std::to_string(n) + "]");
  const bool largest = ctx.opset < 11 || ctx.attr().GetInt("largest", 1) != 0;
  int64_t outer = 1, inner = 1;
  for (int i = 0; i < *ax; ++i) outer *= d[i];
  for (int i = *ax + 1; i < x->rank(); ++i) inner *= d[i];
  Dims out_dims = d;
  out_dims[*ax] = k;
  GE_ASSIGN_OR_RETURN(Tensor * vals, ctx.AllocateOutput(0, out_dims, x->dtype()));
  Tensor idx_storage;
  Tensor* idx = nullptr;
  if (ctx.num_outputs() > 1) {
    GE_ASSIGN_OR_RETURN(idx, ctx.AllocateOutput(1, out_dims, DataType::kInt64));
  } else {
    GE_ASSIGN_OR_RETURN(idx_storage, Tensor::Create(DataType::kInt64, out_dims));
    idx = &idx_storage;
  }
  // Outputs are always sorted; with sorted = 0 the spec leaves the order open, so sorted order is valid too.
  return VisitNumericType(x->dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    RunTopK<T>(x->data<T>(), outer, n, inner, k, largest, vals->data<T>(), idx->data<int64_t>());
  });
}

}  // namespace

void RegisterTopKRefKernels(KernelRegistry* r) { r->Add(OpId::kTopK, RefTopK); }

}  // namespace ge::ref
