// SplitToSequence and ConcatFromSequence.
#include <string>

#include "kernels/ref/control/control_kernels.h"
#include "kernels/ref/ref_util.h"

namespace ge::ref::control {
namespace {

Status RefSplitToSequence(KernelContext& ctx) {
  const Tensor* in = ctx.input(0);
  if (!in) return ctx.Error("input must be a tensor");
  if (in->rank() == 0) return ctx.Error("input must have rank >= 1");
  auto axis_or = NormalizeAxis(ctx.attr().GetInt("axis", 0), in->rank());
  if (!axis_or.ok()) return ctx.Error(axis_or.status().message());
  const int axis = *axis_or;
  const int64_t keepdims = ctx.attr().GetInt("keepdims", 1);
  const int64_t len = in->dim(axis);
  std::vector<int64_t> sizes;
  const Tensor* split = ctx.input(1);
  if (!split) {
    sizes.assign(len, 1);
  } else {
    if (split->dtype() != DataType::kInt32 && split->dtype() != DataType::kInt64) {
      return ctx.Error("split must be int32 or int64");
    }
    if (split->rank() == 0) {
      const int64_t s = split->GetAsInt64(0);
      if (s <= 0) return ctx.Error("split must be positive, got " + std::to_string(s));
      for (int64_t start = 0; start < len; start += s) sizes.push_back(std::min(s, len - start));
    } else if (split->rank() == 1) {
      int64_t sum = 0;
      for (int64_t v : split->ToInt64Vector()) {
        if (v < 0) return ctx.Error("split entries must be >= 0");
        sum += v;
        if (sum > len) break;
        sizes.push_back(v);
      }
      if (sum != len) {
        return ctx.Error("split does not add up to the axis length " + std::to_string(len));
      }
    } else {
      return ctx.Error("split must be a scalar or 1-D");
    }
  }
  const bool squeeze = !split && keepdims == 0;
  Dims squeezed = in->dims();
  squeezed.erase(squeezed.begin() + axis);
  std::vector<Tensor> items;
  items.reserve(sizes.size());
  int64_t start = 0;
  for (int64_t s : sizes) {
    auto piece = SliceAxis(*in, axis, start, s);
    if (!piece.ok()) return ctx.Error(piece.status().message());
    if (squeeze) piece = piece->Reshaped(squeezed);
    if (!piece.ok()) return ctx.Error(piece.status().message());
    items.push_back(std::move(piece).value());
    start += s;
  }
  ctx.SetOutputValue(0, Value::Sequence(std::move(items), in->dtype()));
  return Status::Ok();
}

Status RefConcatFromSequence(KernelContext& ctx) {
  const Value* s = ctx.input_value(0);
  if (!s || !s->is_sequence()) return ctx.Error("input must be a sequence");
  if (s->sequence.empty()) return ctx.Error("cannot concatenate an empty sequence");
  const bool new_axis = ctx.attr().GetInt("new_axis", 0) != 0;
  const int r = s->sequence[0].rank();
  if (r == 0 && !new_axis) return ctx.Error("cannot concatenate scalars without new_axis");
  auto axis_or = NormalizeAxis(ctx.attr().GetInt("axis", 0), r + (new_axis ? 1 : 0));
  if (!axis_or.ok()) return ctx.Error(axis_or.status().message());
  auto out = ConcatTensors(s->sequence, *axis_or, new_axis);
  if (!out.ok()) return ctx.Error(out.status().message());
  ctx.SetOutput(0, std::move(out).value());
  return Status::Ok();
}

}  // namespace

void RegisterSplitConcatKernels(KernelRegistry* r) {
  r->Add(OpId::kSplitToSequence, RefSplitToSequence);
  r->Add(OpId::kConcatFromSequence, RefConcatFromSequence);
}

}  // namespace ge::ref::control
