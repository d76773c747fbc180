// Helpers shared by the inference functions of every op family.
#pragma once
#include <vector>

#include "base/shape.h"
#include "base/status.h"
#include "ops/op_schema.h"

namespace ge::ops {

// Numpy-style multidirectional broadcast of shapes that may hold unknown dims or unknown rank.
StatusOr<Shape> BroadcastShapes(const Shape& a, const Shape& b);
// Broadcast of all present inputs of ctx (Add, Where, Max, Sum, ...).
StatusOr<Shape> BroadcastInputs(const InferContext& ctx);
// Maps axis in [-rank, rank) to [0, rank); OutOfRange otherwise.
StatusOr<int> NormalizeAxis(int64_t axis, int rank);
// Output i gets input j's dtype and shape.
Status PassThrough(InferContext& ctx, int input = 0, int output = 0);
// Input i as a vector of int64 when its value is known; nullopt-like: returns false when unknown.
bool KnownInts(const InferContext& ctx, int input, std::vector<int64_t>* out);

// Ready-made InferFns.
// One input of a channel (axis 1) concatenation whose first input has shape `first` (same rank): fails naming input
// i when x differs from it outside axis 1, else adds x's channels to *channels, which stays kUnknownDim once any
// input's channel count is unknown.
Status AddConcatChannels(const InferContext& ctx, int i, const Shape& x, const Shape& first, int64_t* channels);

Status InferSameAsInput0(InferContext& ctx);  // every output = input 0
Status InferBroadcast(InferContext& ctx);     // output dtype = input 0, shape = broadcast of inputs
Status InferBroadcastBool(InferContext& ctx); // output bool, shape = broadcast of inputs

}  // namespace ge::ops
