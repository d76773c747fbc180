// Gather (one memcpy per gathered row: it serves embedding lookups), GatherElements, GatherND.
#include "kernels/ref/index/index_kernels.h"
#include "kernels/ref/index/index_util.h"
#include "kernels/ref/ref_util.h"

namespace ge::ref {
namespace {

using index_util::DimProduct;
using index_util::ForEachOffset;
using index_util::NormalizeIndices;
using index_util::ReadIndices;
using index_util::RowCopier;

Status RefGather(KernelContext& ctx) {
  const Tensor* data = ctx.input(0);
  const Tensor* indices = ctx.input(1);
  if (!data || !indices) return ctx.Error("data and indices must be tensors");
  const int r = data->rank();
  if (r < 1) return ctx.Error("data must have rank >= 1");
  auto axis_or = NormalizeAxis(ctx.attr().GetInt("axis", 0), r);
  if (!axis_or.ok()) return ctx.Error(axis_or.status().message());
  const int axis = *axis_or;
  const int64_t n = data->dim(axis);
  GE_ASSIGN_OR_RETURN(std::vector<int64_t> idx, ReadIndices(ctx, *indices, "indices"));
  GE_RETURN_IF_ERROR(NormalizeIndices(ctx, &idx, n, "indices"));

  Dims out_dims(data->dims().begin(), data->dims().begin() + axis);
  out_dims.insert(out_dims.end(), indices->dims().begin(), indices->dims().end());
  out_dims.insert(out_dims.end(), data->dims().begin() + axis + 1, data->dims().end());
  GE_ASSIGN_OR_RETURN(Tensor* out, ctx.AllocateOutput(0, out_dims, data->dtype()));

  const int64_t outer = DimProduct(data->dims(), 0, axis);
  const int64_t inner = DimProduct(data->dims(), axis + 1, r);
  const int64_t m = static_cast<int64_t>(idx.size());
  const RowCopier copy(data->dtype());
  const void* src = data->raw_data();
  void* dst = out->raw_data();
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t j = 0; j < m; ++j) copy.Copy(src, (o * n + idx[j]) * inner, dst, (o * m + j) * inner, inner);
  }
  return Status::Ok();
}

Status RefGatherElements(KernelContext& ctx) {
  const Tensor* data = ctx.input(0);
  const Tensor* indices = ctx.input(1);
  if (!data || !indices) return ctx.Error("data and indices must be tensors");
  const int r = data->rank();
  if (r < 1 || indices->rank() != r) return ctx.Error("data and indices must have the same rank >= 1");
  auto axis_or = NormalizeAxis(ctx.attr().GetInt("axis", 0), r);
  if (!axis_or.ok()) return ctx.Error(axis_or.status().message());
  const int axis = *axis_or;
  for (int d = 0; d < r; ++d) {
    if (d != axis && indices->dim(d) > data->dim(d)) {
      return ctx.Error("indices shape " + DimsToString(indices->dims()) + " exceeds data shape " +
                       DimsToString(data->dims()) + " on axis " + std::to_string(d));
    }
  }
  GE_ASSIGN_OR_RETURN(std::vector<int64_t> idx, ReadIndices(ctx, *indices, "indices"));
  GE_RETURN_IF_ERROR(NormalizeIndices(ctx, &idx, data->dim(axis), "indices"));
  GE_ASSIGN_OR_RETURN(Tensor* out, ctx.AllocateOutput(0, indices->dims(), data->dtype()));

  std::vector<int64_t> strides = RowMajorStrides(data->dims());
  const int64_t axis_stride = strides[axis];
  strides[axis] = 0;
  return VisitDataType(data->dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* src = data->data<T>();
    T* dst = out->data<T>();
    ForEachOffset(indices->dims(), strides, [&](int64_t i, int64_t off) { dst[i] = src[off + idx[i] * axis_stride]; });
  });
}

Status RefGatherND(KernelContext& ctx) {
  const Tensor* data = ctx.input(0);
  const Tensor* indices = ctx.input(1);
  if (!data || !indices) return ctx.Error("data and indices must be tensors");
  const int r = data->rank(), q = indices->rank();
  const int64_t b = ctx.opset >= 12 ? ctx.attr().GetInt("batch_dims", 0) : 0;
  if (r < 1 || q < 1) return ctx.Error("data and indices must have rank >= 1");
  if (b < 0 || b >= std::min(r, q)) return ctx.Error("batch_dims " + std::to_string(b) + " is out of range");
  const int64_t k = indices->dim(q - 1);
  if (k > r - b) return ctx.Error("indices last dim " + std::to_string(k) + " exceeds data rank minus batch_dims");
  for (int i = 0; i < b; ++i) {
    if (data->dim(i) != indices->dim(i)) {
      return ctx.Error("batch dims differ between data " + DimsToString(data->dims()) + " and indices " +
                       DimsToString(indices->dims()));
    }
  }
  GE_ASSIGN_OR_RETURN(std::vector<int64_t> idx, ReadIndices(ctx, *indices, "indices"));

  const int bi = static_cast<int>(b), ki = static_cast<int>(k);
  const int64_t batches = DimProduct(data->dims(), 0, bi);
  const int64_t tuples = DimProduct(indices->dims(), bi, q - 1);  // index tuples per batch
  const int64_t slice = DimProduct(data->dims(), bi + ki, r);
  const int64_t batch_stride = DimProduct(data->dims(), bi, r);
  const std::vector<int64_t> strides = RowMajorStrides(data->dims());

  // Offset of every tuple's slice inside its batch, range-checked before anything is copied.
  std::vector<int64_t> offsets(static_cast<size_t>(batches * tuples));
  for (size_t t = 0; t < offsets.size(); ++t) {
    int64_t off = 0;
    for (int j = 0; j < ki; ++j) {
      int64_t v = idx[t * ki + j];
      const int64_t n = data->dim(bi + j);
      if (v < -n || v >= n) {
        return ctx.Error("indices value " + std::to_string(v) + " is out of range [" + std::to_string(-n) + ", " +
                         std::to_string(n) + ") for data axis " + std::to_string(bi + j));
      }
      off += (v < 0 ? v + n : v) * strides[bi + j];
    }
    offsets[t] = off;
  }

  Dims out_dims(indices->dims().begin(), indices->dims().end() - 1);
  out_dims.insert(out_dims.end(), data->dims().begin() + bi + ki, data->dims().end());
  GE_ASSIGN_OR_RETURN(Tensor* out, ctx.AllocateOutput(0, out_dims, data->dtype()));
  const RowCopier copy(data->dtype());
  for (int64_t bb = 0; bb < batches; ++bb) {
    for (int64_t t = 0; t < tuples; ++t) {
      const int64_t g = bb * tuples + t;
      copy.Copy(data->raw_data(), bb * batch_stride + offsets[g], out->raw_data(), g * slice, slice);
    }
  }
  return Status::Ok();
}

}  // namespace

void RegisterGatherRefKernels(KernelRegistry* r) {
  r->Add(OpId::kGather, RefGather);
  r->Add(OpId::kGatherElements, RefGatherElements);
  r->Add(OpId::kGatherND, RefGatherND);
}

}  // namespace ge::ref
