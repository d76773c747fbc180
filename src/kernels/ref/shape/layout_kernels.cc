// Transpose, Concat, Split, Expand, Tile, DepthToSpace, SpaceToDepth: pure element moves, dtype-agnostic.
#include <algorithm>

#include "kernels/ref/shape/shape_kernels_internal.h"

namespace ge::ref::shape_family {
namespace {

// Output 0 (already shaped by inference) = strided gather from input 0.
Status GatherInto(KernelContext& ctx, int64_t offset, const std::vector<int64_t>& strides, const Dims& iter_dims) {
  const Tensor* x = ctx.input(0);
  if (!x) return ctx.Error("input 0 must be a tensor");
  GE_ASSIGN_OR_RETURN(Tensor * y, ctx.AllocateOutput(0));
  if (NumElements(iter_dims) != y->numel()) return ctx.Error("internal: gather size does not match the output");
  return VisitCopyType(x->dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    StridedCopy(x->data<T>(), offset, strides, iter_dims, y->data<T>());
  });
}

// Output = input viewed as `view` dims, transposed by `perm`.
Status PermuteView(KernelContext& ctx, const Dims& view, const std::vector<int>& perm) {
  std::vector<int64_t> vs = RowMajorStrides(view);
  std::vector<int64_t> strides;
  Dims dims;
  for (int p : perm) {
    strides.push_back(vs[p]);
    dims.push_back(view[p]);
  }
  return GatherInto(ctx, 0, strides, dims);
}

Status RefTranspose(KernelContext& ctx) {
  const Tensor* x = ctx.input(0);
  if (!x) return ctx.Error("input must be a tensor");
  const int r = x->rank();
  std::vector<int64_t> perm = ctx.attr().GetInts("perm");
  if (!ctx.attr().Has("perm"))
    for (int i = r - 1; i >= 0; --i) perm.push_back(i);
  if (static_cast<int>(perm.size()) != r) return ctx.Error("perm does not match the input rank");
  std::vector<int> p;
  for (int64_t v : perm) {
    if (v < 0 || v >= r) return ctx.Error("perm entry out of range");
    p.push_back(static_cast<int>(v));
  }
  return PermuteView(ctx, x->dims(), p);
}

Status RefConcat(KernelContext& ctx) {
  GE_ASSIGN_OR_RETURN(Tensor * y, ctx.AllocateOutput(0));
  const int r = y->rank();
  auto axis_or = NormalizeAxis(ctx.attr().GetInt("axis", 1), r);
  if (!axis_or.ok()) return ctx.Error(axis_or.status().message());
  const int axis = *axis_or;
  int64_t outer = 1, inner = 1;
  for (int i = 0; i < axis; ++i) outer *= y->dim(i);
  for (int i = axis + 1; i < r; ++i) inner *= y->dim(i);
  const int64_t out_chunk = y->dim(axis) * inner;
  int64_t offset = 0;
  for (int k = 0; k < ctx.num_inputs(); ++k) {
    const Tensor* x = ctx.input(k);
    if (!x || x->dtype() != y->dtype() || x->rank() != r) return ctx.Error("inputs must be tensors of one type and rank");
    const int64_t chunk = x->dim(axis) * inner;
    if (offset + chunk > out_chunk) return ctx.Error("inputs do not fit the output");
    GE_RETURN_IF_ERROR(VisitCopyType(y->dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      const T* s = x->data<T>();
      T* d = y->data<T>() + offset;
      for (int64_t o = 0; o < outer; ++o) std::copy_n(s + o * chunk, chunk, d + o * out_chunk);
    }));
    offset += chunk;
  }
  return Status::Ok();
}

Status RefSplit(KernelContext& ctx) {
  const Tensor* x = ctx.input(0);
  if (!x) return ctx.Error("input must be a tensor");
  const int r = x->rank();
  auto axis_or = NormalizeAxis(ctx.attr().GetInt("axis", 0), r);
  if (!axis_or.ok()) return ctx.Error(axis_or.status().message());
  const int axis = *axis_or;
  int64_t outer = 1, inner = 1;
  for (int i = 0; i < axis; ++i) outer *= x->dim(i);
  for (int i = axis + 1; i < r; ++i) inner *= x->dim(i);
  const int64_t in_chunk = x->dim(axis) * inner;
  int64_t offset = 0;
  for (int k = 0; k < ctx.num_outputs(); ++k) {
    GE_ASSIGN_OR_RETURN(Tensor * y, ctx.AllocateOutput(k));
    if (y->rank() != r) return ctx.Error("internal: output rank differs from the input's");
    const int64_t chunk = y->dim(axis) * inner;
    if (offset + chunk > in_chunk) return ctx.Error("split sizes exceed the input");
    GE_RETURN_IF_ERROR(VisitCopyType(x->dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      const T* s = x->data<T>() + offset;
      T* d = y->data<T>();
      for (int64_t o = 0; o < outer; ++o) std::copy_n(s + o * in_chunk, chunk, d + o * chunk);
    }));
    offset += chunk;
  }
  return Status::Ok();
}

Status RefExpand(KernelContext& ctx) {
  const Tensor* x = ctx.input(0);
  if (!x) return ctx.Error("input must be a tensor");
  const TensorDesc& d = ctx.inferred[0];
  if (!d.shape.IsFullyKnown()) return ctx.Error("output shape is not known");
  const Dims& out = d.shape.dims();
  if (out.size() < x->dims().size()) return ctx.Error("internal: expanded rank is smaller than the input's");
  return GatherInto(ctx, 0, BroadcastStrides(x->dims(), out), out);
}

Status RefTile(KernelContext& ctx) {
  const Tensor* x = ctx.input(0);
  const Tensor* reps = ctx.input(1);
  if (!x || !reps) return ctx.Error("input and repeats must be tensors");
  std::vector<int64_t> rep = reps->ToInt64Vector();
  if (static_cast<int>(rep.size()) != x->rank()) return ctx.Error("repeats must have one entry per input dim");
  // Output dim k = rep_k * d_k, iterated as the pair (r_k, j_k) with source stride 0 for r_k.
  std::vector<int64_t> xs = RowMajorStrides(x->dims());
  std::vector<int64_t> strides;
  Dims dims;
  for (int k = 0; k < x->rank(); ++k) {
    if (rep[k] < 0) return ctx.Error("repeats must be non-negative");
    dims.push_back(rep[k]);
    strides.push_back(0);
    dims.push_back(x->dim(k));
    strides.push_back(xs[k]);
  }
  return GatherInto(ctx, 0, strides, dims);
}

int64_t BlockSizeAttr(const KernelContext& ctx) { return ctx.attr().GetInt("blocksize", 0); }

Status RefDepthToSpace(KernelContext& ctx) {
  const Tensor* x = ctx.input(0);
  const int64_t b = BlockSizeAttr(ctx);
  if (!x || x->rank() != 4 || b <= 0 || x->dim(1) % (b * b) != 0) return ctx.Error("invalid input or blocksize");
  const int64_t n = x->dim(0), c = x->dim(1) / (b * b), h = x->dim(2), w = x->dim(3);
  if (ctx.attr().GetString("mode", "DCR") == "CRD") return PermuteView(ctx, {n, c, b, b, h, w}, {0, 1, 4, 2, 5, 3});
  return PermuteView(ctx, {n, b, b, c, h, w}, {0, 3, 4, 1, 5, 2});
}

Status RefSpaceToDepth(KernelContext& ctx) {
  const Tensor* x = ctx.input(0);
  const int64_t b = BlockSizeAttr(ctx);
  if (!x || x->rank() != 4 || b <= 0 || x->dim(2) % b != 0 || x->dim(3) % b != 0) {
    return ctx.Error("invalid input or blocksize");
  }
  const int64_t n = x->dim(0), c = x->dim(1), h = x->dim(2) / b, w = x->dim(3) / b;
  return PermuteView(ctx, {n, c, h, b, w, b}, {0, 3, 5, 1, 2, 4});
}

}  // namespace

void RegisterLayoutKernels(KernelRegistry* r) {
  r->Add(OpId::kTranspose, RefTranspose);
  r->Add(OpId::kConcat, RefConcat);
  r->Add(OpId::kSplit, RefSplit);
  r->Add(OpId::kExpand, RefExpand);
  r->Add(OpId::kTile, RefTile);
  r->Add(OpId::kDepthToSpace, RefDepthToSpace);
  r->Add(OpId::kSpaceToDepth, RefSpaceToDepth);
}

}  // namespace ge::ref::shape_family
