// Slice (attributes before opset 10, inputs after; negative steps) and Pad (constant / reflect / edge).
#include "kernels/ref/shape/shape_kernels_internal.h"
#include "ops/shape/shape_params.h"

namespace ge::ref::shape_family {
namespace {

using ops::shape_family::ClampSlice;
using ops::shape_family::NormalizeSliceArgs;
using ops::shape_family::PaddedDims;

Status RefSlice(KernelContext& ctx) {
  const Tensor* x = ctx.input(0);
  if (!x) return ctx.Error("input must be a tensor");
  bool p_starts, p_ends, p_axes, p_steps = false;
  std::vector<int64_t> starts = IntsArg(ctx, 1, "starts", 10, &p_starts);
  std::vector<int64_t> ends = IntsArg(ctx, 2, "ends", 10, &p_ends);
  std::vector<int64_t> axes = IntsArg(ctx, 3, "axes", 10, &p_axes);
  std::vector<int64_t> steps;
  if (ctx.opset >= 10) steps = IntsArg(ctx, 4, "steps", 10, &p_steps);
  if (!p_starts || !p_ends) return ctx.Error("starts and ends are required");
  Status st = NormalizeSliceArgs(x->rank(), starts, ends, &axes, &steps);
  if (!st.ok()) return ctx.Error(st.message());
  std::vector<int64_t> strides = RowMajorStrides(x->dims());
  Dims dims = x->dims();
  int64_t offset = 0;
  for (size_t i = 0; i < starts.size(); ++i) {
    const int k = static_cast<int>(axes[i]);
    auto a = ClampSlice(x->dim(k), starts[i], ends[i], steps[i]);
    dims[k] = a.length;
    if (a.length > 0) offset += a.start * strides[k];
    strides[k] *= a.step;
  }
  GE_ASSIGN_OR_RETURN(Tensor * y, ctx.AllocateOutput(0, dims, x->dtype()));
  return VisitCopyType(x->dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    StridedCopy(x->data<T>(), offset, strides, dims, y->data<T>());
  });
}

// Source index for padded position `src` (may be outside [0, d)) under reflect: mirror without repeating the edge,
// as numpy's "reflect" does, folding again when the pad is wider than the dim.
int64_t ReflectIndex(int64_t src, int64_t d) {
  if (d == 1) return 0;
  const int64_t period = 2 * (d - 1);
  int64_t m = src % period;
  if (m < 0) m += period;
  return m < d ? m : period - m;
}

Status RefPad(KernelContext& ctx) {
  const Tensor* x = ctx.input(0);
  if (!x) return ctx.Error("input must be a tensor");
  const std::string mode = ctx.attr().GetString("mode", "constant");
  std::vector<int64_t> pads;
  if (ctx.opset < 11) {
    pads = ctx.attr().Has("pads") ? ctx.attr().GetInts("pads") : ctx.attr().GetInts("paddings");
  } else {
    const Tensor* p = ctx.input(1);
    if (!p) return ctx.Error("pads input is required");
    pads = p->ToInt64Vector();
  }
  auto out_or = PaddedDims(x->dims(), pads);
  if (!out_or.ok()) return ctx.Error(out_or.status().message());
  const Dims out = *out_or;
  const int r = x->rank();
  std::vector<std::vector<int64_t>> maps(r);
  for (int k = 0; k < r; ++k) {
    const int64_t d = x->dim(k);
    maps[k].resize(out[k]);
    for (int64_t j = 0; j < out[k]; ++j) {
      int64_t src = j - pads[k];
      if (src >= 0 && src < d) {
        maps[k][j] = src;
      } else if (mode == "constant") {
        maps[k][j] = -1;
      } else if (d == 0) {
        return ctx.Error("cannot " + mode + "-pad an empty dim");
      } else if (mode == "edge") {
        maps[k][j] = src < 0 ? 0 : d - 1;
      } else if (mode == "reflect") {
        maps[k][j] = ReflectIndex(src, d);
      } else {
        return ctx.Error("unsupported pad mode '" + mode + "'");
      }
    }
  }
  // The fill value as one element of the data's type.
  GE_ASSIGN_OR_RETURN(Tensor fill, Tensor::Create(x->dtype(), {}));
  if (ctx.opset < 11) {
    const double v = ctx.attr().GetFloat("value", 0.0f);
    GE_RETURN_IF_ERROR(VisitNumericType(x->dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      fill.data<T>()[0] = static_cast<T>(static_cast<typename ComputeTypeOf<T>::type>(v));
    }));
  } else if (const Tensor* cv = ctx.input(2)) {
    if (cv->dtype() != x->dtype() || cv->numel() != 1) {
      return ctx.Error("constant_value must be one element of the data's type");
    }
    GE_ASSIGN_OR_RETURN(fill, cv->Clone());
  }
  GE_ASSIGN_OR_RETURN(Tensor * y, ctx.AllocateOutput(0, out, x->dtype()));
  const std::vector<int64_t> strides = RowMajorStrides(x->dims());
  return VisitCopyType(x->dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    GatherByAxisMaps(x->data<T>(), strides, out, maps, fill.data<T>()[0], y->data<T>());
  });
}

}  // namespace

void RegisterSliceKernels(KernelRegistry* r) {
  r->Add(OpId::kSlice, RefSlice);
  r->Add(OpId::kPad, RefPad);
}

}  // namespace ge::ref::shape_family
