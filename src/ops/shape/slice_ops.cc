// Slice: attributes starts/ends/axes before opset 10, inputs starts/ends/axes/steps from opset 10.
#include "ops/shape/shape_ops_internal.h"
#include "ops/shape/shape_params.h"

namespace ge::ops::shape_family {
namespace {

constexpr int64_t kFullRange = int64_t{1} << 31;  // ends at or past this mean "to the end" in practice

Status InferSlice(InferContext& ctx) {
  GE_RETURN_IF_ERROR(RequireTensorInput(ctx, 0));
  for (int i = 1; i < 5; ++i) GE_RETURN_IF_ERROR(RequireIntInput(ctx, i, false));
  const TensorDesc& in = *ctx.input(0);
  ctx.output(0) = TensorDesc(in.dtype, Shape::UnknownRank());
  std::vector<int64_t> starts, ends, axes, steps;
  ArgState s_starts = IntsArg(ctx, 1, "starts", 10, &starts);
  ArgState s_ends = IntsArg(ctx, 2, "ends", 10, &ends);
  ArgState s_axes = IntsArg(ctx, 3, "axes", 10, &axes);
  ArgState s_steps = ctx.opset >= 10 ? IntsArg(ctx, 4, "steps", 10, &steps) : ArgState::kAbsent;
  if (s_starts == ArgState::kAbsent || s_ends == ArgState::kAbsent) return ctx.Error("starts and ends are required");
  if (in.shape.unknown_rank()) return Status::Ok();
  const int r = in.shape.rank();
  if (s_starts == ArgState::kUnknown || s_ends == ArgState::kUnknown || s_axes == ArgState::kUnknown ||
      s_steps == ArgState::kUnknown) {
    Shape out = in.shape;
    if (s_axes == ArgState::kUnknown) {
      out = UnknownDims(r);
    } else {
      if (s_axes == ArgState::kAbsent) {
        int64_t n = std::max(Known1DLength(ctx, 1), Known1DLength(ctx, 2));
        if (n < 0) n = r;
        for (int64_t i = 0; i < n && i < r; ++i) axes.push_back(i);
      }
      for (int64_t a : axes) {
        if (a < -r || a >= r) return ctx.Error("axis " + std::to_string(a) + " is out of range");
        int k = static_cast<int>(a < 0 ? a + r : a);
        out.set_dim(k, kUnknownDim);
        out.set_symbol(k, "");
      }
    }
    ctx.output(0).shape = out;
    return Status::Ok();
  }
  Status st = NormalizeSliceArgs(r, starts, ends, &axes, &steps);
  if (!st.ok()) return ctx.Error(st.message());
  Shape out = in.shape;
  for (size_t i = 0; i < starts.size(); ++i) {
    int k = static_cast<int>(axes[i]);
    int64_t d = in.shape.dim(k);
    if (d != kUnknownDim) {
      out.set_dim(k, ClampSlice(d, starts[i], ends[i], steps[i]).length);
      out.set_symbol(k, "");
      continue;
    }
    // An unknown dim stays the same (symbol included) only when the slice provably takes all of it.
    bool whole = (steps[i] == 1 && (starts[i] == 0 || starts[i] <= -kFullRange) && ends[i] >= kFullRange);
    if (!whole) {
      out.set_dim(k, kUnknownDim);
      out.set_symbol(k, "");
    }
  }
  ctx.output(0).shape = out;
  return Status::Ok();
}

}  // namespace

void RegisterSliceOps(OpRegistry* r) { r->Add({OpId::kSlice, 1, 5, 1, 1, InferSlice}); }

}  // namespace ge::ops::shape_family
