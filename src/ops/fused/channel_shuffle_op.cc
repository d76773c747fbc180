#include "ops/fused/channel_shuffle_op.h"

#include <string>

#include "ops/infer_util.h"

namespace ge::ops {

std::vector<ShuffleSource> ChannelShuffleSources(const std::vector<int64_t>& input_channels, int64_t groups) {
  int64_t c = 0;
  for (int64_t ci : input_channels) c += ci;
  if (groups < 1 || c % groups != 0) return {};
  std::vector<ShuffleSource> concat;  // channel of X -> (input, channel)
  concat.reserve(static_cast<size_t>(c));
  for (size_t i = 0; i < input_channels.size(); ++i) {
    for (int64_t k = 0; k < input_channels[i]; ++k) concat.push_back({static_cast<int>(i), k});
  }
  std::vector<ShuffleSource> out(static_cast<size_t>(c));
  const int64_t per_group = c / groups;
  for (int64_t j = 0; j < c; ++j) out[j] = concat[(j % groups) * per_group + j / groups];
  return out;
}

Status InferChannelShuffle(InferContext& ctx) {
  const int64_t groups = ctx.attr().GetInt("groups", 0);
  if (groups < 1) return ctx.Error("groups must be at least 1, got " + std::to_string(groups));
  const int m = static_cast<int>(ctx.outputs.size());
  const TensorDesc* first = ctx.input(0);
  if (first == nullptr) return ctx.Error("X1 is required");
  DataType dt = first->dtype;
  Shape shape = first->shape;
  int64_t c = 0;  // kUnknownDim once any input's channels are unknown
  for (int i = 0; i < ctx.num_inputs(); ++i) {
    const TensorDesc* x = ctx.input(i);
    if (x == nullptr) return ctx.Error("input " + std::to_string(i) + " is missing");
    if (x->kind != ValueKind::kTensor) return ctx.Error("inputs must be tensors");
    if (dt == DataType::kUndefined) dt = x->dtype;
    if (x->dtype != DataType::kUndefined && x->dtype != dt) {
      return ctx.Error(std::string("every input must have X1's dtype ") + DataTypeName(dt) + ", input " +
                       std::to_string(i) + " is " + DataTypeName(x->dtype));
    }
    if (x->shape.unknown_rank()) return ctx.Error("inputs need a known rank");
    if (x->shape.rank() < 2) return ctx.Error("inputs must be [N, C, ...], input " + std::to_string(i) + " is " +
                                              x->shape.ToString());
    if (x->shape.rank() != shape.rank()) return ctx.Error("every input must have X1's rank");
    GE_RETURN_IF_ERROR(AddConcatChannels(ctx, i, x->shape, shape, &c));
  }
  const bool c_known = c != kUnknownDim;
  if (c_known && (c % groups != 0 || c % m != 0)) {
    return ctx.Error(std::to_string(c) + " channels do not divide into " + std::to_string(groups) + " groups and " +
                     std::to_string(m) + " outputs");
  }
  Dims dims = shape.dims();
  dims[1] = c_known ? c / m : kUnknownDim;
  for (int t = 0; t < m; ++t) {
    TensorDesc& y = ctx.output(t);
    y = *first;
    y.dtype = dt;
    y.shape = Shape(dims);
  }
  return Status::Ok();
}

}  // namespace ge::ops
