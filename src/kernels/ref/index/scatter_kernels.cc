// Scatter (opset 9-10, same as ScatterElements without reduction), ScatterElements, ScatterND.
// The output starts as a copy of data; updates are applied in row-major order of indices, so with reduction
// "none" a duplicated index keeps the last update (as the ONNX reference does).
#include <algorithm>
#include <complex>
#include <type_traits>

#include "kernels/ref/index/index_kernels.h"
#include "kernels/ref/index/index_util.h"
#include "kernels/ref/ref_util.h"

namespace ge::ref {
namespace {

using index_util::DimProduct;
using index_util::ForEachOffset;
using index_util::NormalizeIndices;
using index_util::ReadIndices;

enum class Reduction { kNone, kAdd, kMul, kMax, kMin };

StatusOr<Reduction> ParseReduction(const KernelContext& ctx) {
  const std::string s = ctx.attr().GetString("reduction", "none");
  if (s == "none") return Reduction::kNone;
  if (s == "add") return Reduction::kAdd;
  if (s == "mul") return Reduction::kMul;
  if (s == "max") return Reduction::kMax;
  if (s == "min") return Reduction::kMin;
  return ctx.Error("unknown reduction '" + s + "'");
}

template <typename T>
constexpr bool kIsComplex = std::is_same_v<T, std::complex<float>> || std::is_same_v<T, std::complex<double>>;

// Calls body(op) with op(T& dst, const T& src) combining one update; false when `red` does not apply to T.
// bool add/mul are logical or/and (what bool arithmetic converted back to bool gives).
template <typename T, typename Body>
bool WithReduction(Reduction red, Body&& body) {
  using C = typename ComputeTypeOf<T>::type;
  if (red == Reduction::kNone) {
    body([](T& d, const T& s) { d = s; });
    return true;
  }
  if constexpr (std::is_same_v<T, std::string>) {
    return false;
  } else if constexpr (std::is_same_v<T, bool>) {
    if (red == Reduction::kAdd || red == Reduction::kMax) body([](T& d, const T& s) { d = d || s; });
    else body([](T& d, const T& s) { d = d && s; });
    return true;
  } else {
    switch (red) {
      case Reduction::kAdd: body([](T& d, const T& s) { d = static_cast<T>(static_cast<C>(d) + static_cast<C>(s)); }); return true;
      case Reduction::kMul: body([](T& d, const T& s) { d = static_cast<T>(static_cast<C>(d) * static_cast<C>(s)); }); return true;
      default: break;
    }
    if constexpr (!kIsComplex<T>) {
      if (red == Reduction::kMax) body([](T& d, const T& s) { d = static_cast<T>(std::max(static_cast<C>(d), static_cast<C>(s))); });
      else body([](T& d, const T& s) { d = static_cast<T>(std::min(static_cast<C>(d), static_cast<C>(s))); });
      return true;
    }
    return false;
  }
}

Status RefScatterElements(KernelContext& ctx) {
  const Tensor* data = ctx.input(0);
  const Tensor* indices = ctx.input(1);
  const Tensor* updates = ctx.input(2);
  if (!data || !indices || !updates) return ctx.Error("data, indices and updates must be tensors");
  if (updates->dtype() != data->dtype()) return ctx.Error("updates type differs from data type");
  const int r = data->rank();
  if (r < 1 || indices->rank() != r) return ctx.Error("data and indices must have the same rank >= 1");
  if (updates->dims() != indices->dims()) {
    return ctx.Error("updates shape " + DimsToString(updates->dims()) + " differs from indices shape " +
                     DimsToString(indices->dims()));
  }
  auto axis_or = NormalizeAxis(ctx.attr().GetInt("axis", 0), r);
  if (!axis_or.ok()) return ctx.Error(axis_or.status().message());
  const int axis = *axis_or;
  for (int d = 0; d < r; ++d) {
    if (d != axis && indices->dim(d) > data->dim(d)) {
      return ctx.Error("indices shape " + DimsToString(indices->dims()) + " exceeds data shape " +
                       DimsToString(data->dims()) + " on axis " + std::to_string(d));
    }
  }
  GE_ASSIGN_OR_RETURN(Reduction red, ParseReduction(ctx));
  GE_ASSIGN_OR_RETURN(std::vector<int64_t> idx, ReadIndices(ctx, *indices, "indices"));
  GE_RETURN_IF_ERROR(NormalizeIndices(ctx, &idx, data->dim(axis), "indices"));
  GE_ASSIGN_OR_RETURN(Tensor out, data->Clone());

  std::vector<int64_t> strides = RowMajorStrides(data->dims());
  const int64_t axis_stride = strides[axis];
  strides[axis] = 0;
  bool applies = true;
  GE_RETURN_IF_ERROR(VisitDataType(data->dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* dst = out.data<T>();
    const T* src = updates->data<T>();
    applies = WithReduction<T>(red, [&](auto op) {
      ForEachOffset(indices->dims(), strides,
                    [&](int64_t i, int64_t off) { op(dst[off + idx[i] * axis_stride], src[i]); });
    });
  }));
  if (!applies) return ctx.Unsupported(std::string("this reduction on ") + DataTypeName(data->dtype()));
  ctx.SetOutput(0, std::move(out));
  return Status::Ok();
}

Status RefScatterND(KernelContext& ctx) {
  const Tensor* data = ctx.input(0);
  const Tensor* indices = ctx.input(1);
  const Tensor* updates = ctx.input(2);
  if (!data || !indices || !updates) return ctx.Error("data, indices and updates must be tensors");
  if (updates->dtype() != data->dtype()) return ctx.Error("updates type differs from data type");
  const int r = data->rank(), q = indices->rank();
  if (r < 1 || q < 1) return ctx.Error("data and indices must have rank >= 1");
  const int64_t k = indices->dim(q - 1);
  if (k > r) return ctx.Error("indices last dim " + std::to_string(k) + " exceeds data rank " + std::to_string(r));
  const int ki = static_cast<int>(k);
  Dims want(indices->dims().begin(), indices->dims().end() - 1);
  want.insert(want.end(), data->dims().begin() + ki, data->dims().end());
  if (updates->dims() != want) {
    return ctx.Error("updates shape " + DimsToString(updates->dims()) + " must be " + DimsToString(want));
  }
  GE_ASSIGN_OR_RETURN(Reduction red, ParseReduction(ctx));
  GE_ASSIGN_OR_RETURN(std::vector<int64_t> idx, ReadIndices(ctx, *indices, "indices"));

  const int64_t tuples = DimProduct(indices->dims(), 0, q - 1);
  const int64_t slice = DimProduct(data->dims(), ki, r);
  const std::vector<int64_t> strides = RowMajorStrides(data->dims());
  std::vector<int64_t> offsets(static_cast<size_t>(tuples));
  for (int64_t t = 0; t < tuples; ++t) {
    int64_t off = 0;
    for (int j = 0; j < ki; ++j) {
      int64_t v = idx[t * ki + j];
      const int64_t n = data->dim(j);
      if (v < -n || v >= n) {
        return ctx.Error("indices value " + std::to_string(v) + " is out of range [" + std::to_string(-n) + ", " +
                         std::to_string(n) + ") for data axis " + std::to_string(j));
      }
      off += (v < 0 ? v + n : v) * strides[j];
    }
    offsets[t] = off;
  }
  GE_ASSIGN_OR_RETURN(Tensor out, data->Clone());
  bool applies = true;
  GE_RETURN_IF_ERROR(VisitDataType(data->dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* dst = out.data<T>();
    const T* src = updates->data<T>();
    applies = WithReduction<T>(red, [&](auto op) {
      for (int64_t t = 0; t < tuples; ++t) {
        T* d = dst + offsets[t];
        const T* s = src + t * slice;
        for (int64_t e = 0; e < slice; ++e) op(d[e], s[e]);
      }
    });
  }));
  if (!applies) return ctx.Unsupported(std::string("this reduction on ") + DataTypeName(data->dtype()));
  ctx.SetOutput(0, std::move(out));
  return Status::Ok();
}

}  // namespace

void RegisterScatterRefKernels(KernelRegistry* r) {
  r->Add(OpId::kScatter, RefScatterElements);
  r->Add(OpId::kScatterElements, RefScatterElements);
  r->Add(OpId::kScatterND, RefScatterND);
}

}  // namespace ge::ref
