// NonZero and Compress: outputs sized by the data.
#include <complex>
#include <type_traits>

#include "kernels/ref/index/index_kernels.h"
#include "kernels/ref/index/index_util.h"
#include "kernels/ref/ref_util.h"

namespace ge::ref {
namespace {

using index_util::DimProduct;
using index_util::RowCopier;

template <typename T>
bool IsNonZero(const T& v) {
  if constexpr (std::is_same_v<T, std::string>) {
    return !v.empty();
  } else if constexpr (std::is_same_v<T, float16> || std::is_same_v<T, bfloat16>) {
    return static_cast<float>(v) != 0.0f;
  } else {
    return v != T(0);
  }
}

Status RefNonZero(KernelContext& ctx) {
  const Tensor* x = ctx.input(0);
  if (!x) return ctx.Error("X must be a tensor");
  const int64_t n = x->numel();
  std::vector<int64_t> hits;  // flat positions of the non-zero elements, ascending
  GE_RETURN_IF_ERROR(VisitDataType(x->dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* p = x->data<T>();
    for (int64_t i = 0; i < n; ++i)
      if (IsNonZero(p[i])) hits.push_back(i);
  }));
  // A scalar counts as a 1-D tensor of one element (as numpy.nonzero and ONNX Runtime treat it).
  const Dims dims = x->rank() == 0 ? Dims{1} : x->dims();
  const int rank = static_cast<int>(dims.size());
  const int64_t nnz = static_cast<int64_t>(hits.size());
  GE_ASSIGN_OR_RETURN(Tensor* out, ctx.AllocateOutput(0, {rank, nnz}, DataType::kInt64));
  int64_t* o = out->data<int64_t>();
  for (int64_t j = 0; j < nnz; ++j) {
    int64_t rem = hits[j];
    for (int d = rank - 1; d >= 0; --d) {
      o[d * nnz + j] = rem % dims[d];
      rem /= dims[d];
    }
  }
  return Status::Ok();
}

Status RefCompress(KernelContext& ctx) {
  const Tensor* input = ctx.input(0);
  const Tensor* cond = ctx.input(1);
  if (!input || !cond) return ctx.Error("input and condition must be tensors");
  if (cond->dtype() != DataType::kBool) return ctx.Error(std::string("condition must be bool, got ") + DataTypeName(cond->dtype()));
  if (cond->rank() != 1) return ctx.Error("condition must be 1-D, got " + DimsToString(cond->dims()));
  const bool has_axis = ctx.attr().Has("axis");
  int axis = 0;
  Dims dims = input->dims();
  if (has_axis) {
    auto a = NormalizeAxis(ctx.attr().GetInt("axis", 0), input->rank());
    if (!a.ok()) return ctx.Error(a.status().message());
    axis = *a;
  } else {
    dims = {input->numel()};  // flattened
  }
  const int64_t n = dims[axis];
  std::vector<int64_t> keep;
  const bool* c = cond->data<bool>();
  for (int64_t i = 0; i < cond->numel(); ++i) {
    if (!c[i]) continue;
    if (i >= n) {
      return ctx.Error("condition is true at position " + std::to_string(i) + " beyond the axis size " + std::to_string(n));
    }
    keep.push_back(i);
  }
  Dims out_dims = dims;
  out_dims[axis] = static_cast<int64_t>(keep.size());
  GE_ASSIGN_OR_RETURN(Tensor* out, ctx.AllocateOutput(0, out_dims, input->dtype()));
  const int64_t outer = DimProduct(dims, 0, axis);
  const int64_t inner = DimProduct(dims, axis + 1, static_cast<int>(dims.size()));
  const int64_t m = static_cast<int64_t>(keep.size());
  const RowCopier copy(input->dtype());
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t j = 0; j < m; ++j) {
      copy.Copy(input->raw_data(), (o * n + keep[j]) * inner, out->raw_data(), (o * m + j) * inner, inner);
    }
  }
  return Status::Ok();
}

}  // namespace

void RegisterSelectRefKernels(KernelRegistry* r) {
  r->Add(OpId::kNonZero, RefNonZero);
  r->Add(OpId::kCompress, RefCompress);
}

}  // namespace ge::ref
