// OneHot (opset 9, 11) and ReverseSequence (opset 10).
#include <cmath>
#include <limits>
#include <type_traits>

#include "kernels/ref/index/index_kernels.h"
#include "kernels/ref/index/index_util.h"
#include "kernels/ref/ref_util.h"

namespace ge::ref {
namespace {

using index_util::DimProduct;
using index_util::ReadIndices;
using index_util::RowCopier;

constexpr int64_t kNoIndex = std::numeric_limits<int64_t>::min();

// Indices of any numeric type as int64, truncated toward zero; NaN, infinities and values beyond int64 become
// kNoIndex (out of range, so their row is all off_value).
StatusOr<std::vector<int64_t>> ReadAnyIndices(const KernelContext& ctx, const Tensor& t) {
  std::vector<int64_t> v(static_cast<size_t>(t.numel()));
  Status s = VisitNumericType(t.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using C = typename ComputeTypeOf<T>::type;
    const T* p = t.data<T>();
    for (size_t i = 0; i < v.size(); ++i) {
      const C x = static_cast<C>(p[i]);
      if constexpr (std::is_floating_point_v<C>) {
        v[i] = std::isfinite(x) && std::fabs(x) < 9.0e18 ? static_cast<int64_t>(x) : kNoIndex;
      } else if constexpr (std::is_same_v<C, uint64_t>) {
        v[i] = x > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()) ? kNoIndex : static_cast<int64_t>(x);
      } else {
        v[i] = static_cast<int64_t>(x);
      }
    }
  });
  if (!s.ok()) return ctx.Error(std::string("indices must be numeric, got ") + DataTypeName(t.dtype()));
  return v;
}

Status RefOneHot(KernelContext& ctx) {
  const Tensor* indices = ctx.input(0);
  const Tensor* depth_t = ctx.input(1);
  const Tensor* values = ctx.input(2);
  if (!indices || !depth_t || !values) return ctx.Error("indices, depth and values must be tensors");
  if (depth_t->numel() != 1) return ctx.Error("depth must hold exactly one element");
  if (depth_t->dtype() == DataType::kString || depth_t->dtype() == DataType::kBool) return ctx.Error("depth must be numeric");
  const double dd = depth_t->GetAsDouble(0);
  if (!std::isfinite(dd) || dd < 1 || dd > 9.0e15) return ctx.Error("depth must be a positive number, got " + depth_t->DebugString());
  const int64_t depth = static_cast<int64_t>(dd);
  if (values->numel() != 2) return ctx.Error("values must hold 2 elements [off_value, on_value]");
  const int out_rank = indices->rank() + 1;
  auto a = NormalizeAxis(ctx.attr().GetInt("axis", -1), out_rank);
  if (!a.ok()) return ctx.Error(a.status().message());
  const int axis = *a;
  GE_ASSIGN_OR_RETURN(std::vector<int64_t> idx, ReadAnyIndices(ctx, *indices));

  Dims out_dims = indices->dims();
  out_dims.insert(out_dims.begin() + axis, depth);
  GE_ASSIGN_OR_RETURN(Tensor* out, ctx.AllocateOutput(0, out_dims, values->dtype()));
  const int64_t outer = DimProduct(indices->dims(), 0, axis);
  const int64_t inner = DimProduct(indices->dims(), axis, indices->rank());
  // OneHot-9 maps only [0, depth) to on_value; opset 11 added negative indices counted from the back.
  const int64_t lowest = ctx.opset >= 11 ? -depth : 0;
  return VisitDataType(values->dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T off = values->data<T>()[0], on = values->data<T>()[1];
    T* o = out->data<T>();
    const int64_t total = out->numel();
    for (int64_t i = 0; i < total; ++i) o[i] = off;
    for (int64_t p = 0; p < outer; ++p) {
      for (int64_t i = 0; i < inner; ++i) {
        int64_t v = idx[p * inner + i];
        if (v == kNoIndex || v < lowest || v >= depth) continue;
        if (v < 0) v += depth;
        o[(p * depth + v) * inner + i] = on;
      }
    }
  });
}

Status RefReverseSequence(KernelContext& ctx) {
  const Tensor* input = ctx.input(0);
  const Tensor* lens_t = ctx.input(1);
  if (!input || !lens_t) return ctx.Error("input and sequence_lens must be tensors");
  const int64_t batch_axis = ctx.attr().GetInt("batch_axis", 1);
  const int64_t time_axis = ctx.attr().GetInt("time_axis", 0);
  if ((batch_axis != 0 && batch_axis != 1) || (time_axis != 0 && time_axis != 1) || batch_axis == time_axis) {
    return ctx.Error("batch_axis and time_axis must be 0 and 1 in some order");
  }
  if (input->rank() < 2) return ctx.Error("input must have rank >= 2");
  const int64_t batch = input->dim(static_cast<int>(batch_axis));
  const int64_t steps = input->dim(static_cast<int>(time_axis));
  GE_ASSIGN_OR_RETURN(std::vector<int64_t> lens, ReadIndices(ctx, *lens_t, "sequence_lens"));
  if (lens_t->rank() != 1 || static_cast<int64_t>(lens.size()) != batch) {
    return ctx.Error("sequence_lens shape " + DimsToString(lens_t->dims()) + " must be [" + std::to_string(batch) + "]");
  }
  for (int64_t l : lens) {
    if (l < 0 || l > steps) {
      return ctx.Error("sequence_lens value " + std::to_string(l) + " is out of range [0, " + std::to_string(steps) + "]");
    }
  }
  GE_ASSIGN_OR_RETURN(Tensor* out, ctx.AllocateOutput(0, input->dims(), input->dtype()));
  const int64_t inner = DimProduct(input->dims(), 2, input->rank());
  auto row = [&](int64_t b, int64_t t) { return (batch_axis == 0 ? b * steps + t : t * batch + b) * inner; };
  const RowCopier copy(input->dtype());
  for (int64_t b = 0; b < batch; ++b) {
    for (int64_t t = 0; t < steps; ++t) {
      const int64_t src_t = t < lens[b] ? lens[b] - 1 - t : t;
      copy.Copy(input->raw_data(), row(b, src_t), out->raw_data(), row(b, t), inner);
    }
  }
  return Status::Ok();
}

}  // namespace

void RegisterOneHotRefKernels(KernelRegistry* r) {
  r->Add(OpId::kOneHot, RefOneHot);
  r->Add(OpId::kReverseSequence, RefReverseSequence);
}

}  // namespace ge::ref
