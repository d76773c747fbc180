// Reference kernel of Einsum: one loop nest over the output labels, then over the summed labels, with per-input
// strides (a label repeated within an input sums its strides, which walks the diagonal; a broadcast dim of size 1
// has stride 0).
#include <algorithm>
#include <vector>

#include "kernels/ref/reduce/reduce_kernels_internal.h"
#include "kernels/ref/ref_util.h"
#include "ops/reduce/einsum_equation.h"

namespace ge::ref {
namespace {

using reduce_util::StoreAs;
using reduce_util::WideOf;
using reduce_util::WrapAdd;
using reduce_util::WrapMul;

struct EinsumLoops {
  std::vector<int64_t> out_sizes, sum_sizes;
  std::vector<std::vector<int64_t>> out_strides, sum_strides;  // [input][loop]
};

// Advances a multi-index over `sizes` (all but the last dim), updating every input's offset.
inline void Advance(std::vector<int64_t>& idx, const std::vector<int64_t>& sizes,
                    const std::vector<std::vector<int64_t>>& strides, std::vector<int64_t>& off, int last) {
  for (int d = last; d >= 0; --d) {
    if (++idx[d] < sizes[d]) {
      for (size_t i = 0; i < off.size(); ++i) off[i] += strides[i][d];
      return;
    }
    for (size_t i = 0; i < off.size(); ++i) off[i] -= strides[i][d] * (sizes[d] - 1);
    idx[d] = 0;
  }
}

template <typename T>
void RunEinsum(const std::vector<const T*>& in, const EinsumLoops& L, T* y) {
  using A = WideOf<T>;
  const size_t m = in.size();
  int64_t out_count = 1, sum_count = 1;
  for (int64_t s : L.out_sizes) out_count *= s;
  for (int64_t s : L.sum_sizes) sum_count *= s;
  const int ns = static_cast<int>(L.sum_sizes.size());
  const int64_t inner = ns ? L.sum_sizes[ns - 1] : 1;
  std::vector<int64_t> inner_stride(m, 0);
  for (size_t i = 0; i < m; ++i) inner_stride[i] = ns ? L.sum_strides[i][ns - 1] : 0;
  std::vector<int64_t> out_idx(L.out_sizes.size(), 0), out_off(m, 0), sum_idx(ns, 0), off(m);
  for (int64_t o = 0; o < out_count; ++o) {
    A acc = A(0);
    if (sum_count > 0) {
      off = out_off;
      std::fill(sum_idx.begin(), sum_idx.end(), 0);
      for (int64_t s = 0, blocks = sum_count / inner; s < blocks; ++s) {
        for (int64_t j = 0; j < inner; ++j) {
          A p = static_cast<A>(in[0][off[0] + j * inner_stride[0]]);
          for (size_t i = 1; i < m; ++i) p = WrapMul(p, static_cast<A>(in[i][off[i] + j * inner_stride[i]]));
          acc = WrapAdd(acc, p);
        }
        Advance(sum_idx, L.sum_sizes, L.sum_strides, off, ns - 2);
      }
    }
    y[o] = StoreAs<T>(acc);
    Advance(out_idx, L.out_sizes, L.out_strides, out_off, static_cast<int>(L.out_sizes.size()) - 1);
  }
}

Status RefEinsum(KernelContext& ctx) {
  const int m = ctx.num_inputs();
  if (m == 0) return ctx.Error("needs at least one input");
  std::vector<const Tensor*> xs(m);
  std::vector<int> ranks(m);
  for (int i = 0; i < m; ++i) {
    xs[i] = ctx.input(i);
    if (!xs[i]) return ctx.Error("input " + std::to_string(i) + " must be a tensor");
    if (xs[i]->dtype() != xs[0]->dtype()) return ctx.Error("all inputs must have the same data type");
    ranks[i] = xs[i]->rank();
  }
  ops::reduce::EinsumPlan plan;
  Status st = ops::reduce::ParseEinsum(ctx.attr().GetString("equation", ""), ranks, &plan);
  if (!st.ok()) return ctx.Error(st.message());

  std::vector<int64_t> size(plan.num_labels, 1);
  std::vector<bool> used(plan.num_labels, false);
  for (int i = 0; i < m; ++i) {
    for (int d = 0; d < ranks[i]; ++d) {
      const int l = plan.in_labels[i][d];
      const int64_t v = xs[i]->dim(d);
      used[l] = true;
      if (v == 1) continue;
      if (size[l] != 1 && size[l] != v) {
        return ctx.Error("dimension mismatch for an einsum label: " + std::to_string(size[l]) + " vs " +
                         std::to_string(v));
      }
      size[l] = v;
    }
  }
  // Per input and label, the summed stride of the dims carrying that label (0 where a size-1 dim broadcasts).
  std::vector<std::vector<int64_t>> stride(m, std::vector<int64_t>(plan.num_labels, 0));
  for (int i = 0; i < m; ++i) {
    const std::vector<int64_t> rs = RowMajorStrides(xs[i]->dims());
    for (int d = 0; d < ranks[i]; ++d) {
      if (xs[i]->dim(d) != 1) stride[i][plan.in_labels[i][d]] += rs[d];
    }
  }
  EinsumLoops L;
  L.out_strides.resize(m);
  L.sum_strides.resize(m);
  std::vector<bool> in_out(plan.num_labels, false);
  Dims out_dims;
  for (int l : plan.out_labels) {
    in_out[l] = true;
    out_dims.push_back(size[l]);
    L.out_sizes.push_back(size[l]);
    for (int i = 0; i < m; ++i) L.out_strides[i].push_back(stride[i][l]);
  }
  for (int l = 0; l < plan.num_labels; ++l) {
    if (!used[l] || in_out[l]) continue;
    L.sum_sizes.push_back(size[l]);
    for (int i = 0; i < m; ++i) L.sum_strides[i].push_back(stride[i][l]);
  }
  GE_ASSIGN_OR_RETURN(Tensor * y, ctx.AllocateOutput(0, out_dims, xs[0]->dtype()));
  return VisitNumericType(xs[0]->dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    std::vector<const T*> in(m);
    for (int i = 0; i < m; ++i) in[i] = xs[i]->data<T>();
    RunEinsum<T>(in, L, y->data<T>());
  });
}

}  // namespace

void RegisterEinsumRefKernels(KernelRegistry* r) { r->Add(OpId::kEinsum, RefEinsum); }

}  // namespace ge::ref
