// Per-file registration functions of the shape op family and small helpers shared by their inference functions.
#pragma once
#include <string>
#include <vector>

#include "ops/infer_util.h"
#include "ops/op_schema.h"

namespace ge::ops::shape_family {

void RegisterReshapeOps(OpRegistry* r);    // Reshape, Shape, Size, Flatten, Squeeze, Unsqueeze, Identity
void RegisterLayoutOps(OpRegistry* r);     // Transpose, Concat, Split, Expand, Tile
void RegisterSliceOps(OpRegistry* r);      // Slice
void RegisterPadOps(OpRegistry* r);        // Pad, DepthToSpace, SpaceToDepth
void RegisterGeneratorOps(OpRegistry* r);  // Constant, ConstantOfShape, Range, EyeLike, Trilu
void RegisterResizeOps(OpRegistry* r);     // Resize, Upsample

// Where an int-list argument comes from and whether its value is known at inference time.
enum class ArgState { kAbsent, kUnknown, kKnown };

// Reads an int list that is an attribute before `input_since_opset` and input `input` from then on.
inline ArgState IntsArg(const InferContext& ctx, int input, const char* attr, int64_t input_since_opset,
                        std::vector<int64_t>* out) {
  if (ctx.opset < input_since_opset) {
    if (!ctx.attr().Has(attr)) return ArgState::kAbsent;
    *out = ctx.attr().GetInts(attr);
    return ArgState::kKnown;
  }
  if (!ctx.has_input(input)) return ArgState::kAbsent;
  return KnownInts(ctx, input, out) ? ArgState::kKnown : ArgState::kUnknown;
}

// Length of a 1-D input whose value is unknown, or -1 when its shape does not tell.
inline int64_t Known1DLength(const InferContext& ctx, int input) {
  const TensorDesc* d = ctx.input(input);
  if (!d || d->shape.unknown_rank() || d->shape.rank() != 1) return -1;
  return d->shape.dim(0);
}

// A shape of `rank` unknown dims.
inline Shape UnknownDims(int64_t rank) { return Shape(Dims(static_cast<size_t>(rank), kUnknownDim)); }

// Requires input i to be a tensor (not a sequence or optional).
inline Status RequireTensorInput(const InferContext& ctx, int i) {
  const TensorDesc* d = ctx.input(i);
  if (d && d->kind != ValueKind::kTensor && d->kind != ValueKind::kUnknown) {
    return ctx.Error("input " + std::to_string(i) + " must be a tensor");
  }
  return Status::Ok();
}

// Requires input i, when present, to be an int32/int64 tensor (shape-like inputs: shape, axes, starts, pads ...).
inline Status RequireIntInput(const InferContext& ctx, int i, bool int64_only = true) {
  const TensorDesc* d = ctx.input(i);
  if (!d || d->dtype == DataType::kUndefined) return Status::Ok();
  if (d->dtype == DataType::kInt64 || (!int64_only && d->dtype == DataType::kInt32)) return Status::Ok();
  return ctx.Error("input " + std::to_string(i) + " must be " + (int64_only ? "int64" : "int32 or int64") +
                   ", got " + DataTypeName(d->dtype));
}

}  // namespace ge::ops::shape_family
