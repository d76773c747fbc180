// Inference for the recurrent ops RNN, GRU and LSTM (opset 7; `layout` attribute since opset 14).
#include "ops/math/math_ops_internal.h"

namespace ge::ops {
namespace {

using math::BadDtype;
using math::DtypeIn;

constexpr std::initializer_list<DataType> kRnnTypes = {DataType::kFloat16, DataType::kFloat, DataType::kDouble,
                                                       DataType::kBFloat16};

int64_t NumDirections(const std::string& direction) {
  if (direction == "forward" || direction == "reverse") return 1;
  if (direction == "bidirectional") return 2;
  return 0;
}

Status InferRecurrent(InferContext& ctx, int num_gates) {
  for (int i : {0, 1, 2})
    if (!DtypeIn(ctx, i, kRnnTypes)) return BadDtype(ctx, i, i == 0 ? "X" : i == 1 ? "W" : "R");
  const DataType dt = ctx.input(0)->dtype;
  const ir::AttrMap& attrs = ctx.attr();
  const std::string direction = attrs.GetString("direction", "forward");
  const int64_t dirs = NumDirections(direction);
  if (dirs == 0) return ctx.Error("attribute direction must be forward, reverse or bidirectional, got '" + direction + "'");
  const int64_t layout = ctx.opset >= 14 ? attrs.GetInt("layout", 0) : 0;
  if (layout != 0 && layout != 1) return ctx.Error("attribute layout must be 0 or 1, got " + std::to_string(layout));
  if (ctx.has_input(4) && !DtypeIn(ctx, 4, {DataType::kInt32})) return BadDtype(ctx, 4, "sequence_lens");

  const Shape& x = ctx.input(0)->shape;
  const Shape& w = ctx.input(1)->shape;
  const Shape& r = ctx.input(2)->shape;
  if (!x.unknown_rank() && x.rank() != 3) return ctx.Error("X must be 3-D, got " + x.ToString());
  if (!w.unknown_rank() && w.rank() != 3) return ctx.Error("W must be 3-D, got " + w.ToString());
  if (!r.unknown_rank() && r.rank() != 3) return ctx.Error("R must be 3-D, got " + r.ToString());
  if (!w.unknown_rank() && w.dim(0) >= 0 && w.dim(0) != dirs) {
    return ctx.Error("W " + w.ToString() + " does not match direction '" + direction + "'");
  }
  int64_t hidden = attrs.GetInt("hidden_size", kUnknownDim);
  if (attrs.Has("hidden_size") && hidden <= 0) return ctx.Error("attribute hidden_size must be positive");
  if (hidden < 0 && !r.unknown_rank()) hidden = r.dim(2);
  if (hidden < 0 && !w.unknown_rank() && w.dim(1) >= 0) hidden = w.dim(1) / num_gates;
  if (hidden >= 0 && !w.unknown_rank() && w.dim(1) >= 0 && w.dim(1) != num_gates * hidden) {
    return ctx.Error("W " + w.ToString() + " does not hold " + std::to_string(num_gates) + " gates of hidden size " +
                     std::to_string(hidden));
  }
  if (hidden >= 0 && !r.unknown_rank() && ((r.dim(1) >= 0 && r.dim(1) != num_gates * hidden) ||
                                           (r.dim(2) >= 0 && r.dim(2) != hidden))) {
    return ctx.Error("R " + r.ToString() + " does not match hidden size " + std::to_string(hidden));
  }

  int64_t seq = kUnknownDim, batch = kUnknownDim;
  std::string seq_sym, batch_sym;
  if (!x.unknown_rank()) {
    seq = x.dim(layout == 0 ? 0 : 1);
    seq_sym = x.symbol(layout == 0 ? 0 : 1);
    batch = x.dim(layout == 0 ? 1 : 0);
    batch_sym = x.symbol(layout == 0 ? 1 : 0);
  }
  Shape y, y_h;
  if (layout == 0) {
    y.AddDim(seq, seq_sym);
    y.AddDim(dirs);
    y.AddDim(batch, batch_sym);
    y_h.AddDim(dirs);
    y_h.AddDim(batch, batch_sym);
  } else {
    y.AddDim(batch, batch_sym);
    y.AddDim(seq, seq_sym);
    y.AddDim(dirs);
    y_h.AddDim(batch, batch_sym);
    y_h.AddDim(dirs);
  }
  y.AddDim(hidden);
  y_h.AddDim(hidden);
  if (ctx.num_outputs() > 0) ctx.output(0) = TensorDesc(dt, y);
  for (int i = 1; i < ctx.num_outputs(); ++i) ctx.output(i) = TensorDesc(dt, y_h);
  return Status::Ok();
}

Status InferRNN(InferContext& ctx) { return InferRecurrent(ctx, 1); }
Status InferGRU(InferContext& ctx) { return InferRecurrent(ctx, 3); }
Status InferLSTM(InferContext& ctx) { return InferRecurrent(ctx, 4); }

}  // namespace

void RegisterRnnOps(OpRegistry* r) {
  r->Add({OpId::kRNN, 3, 6, 0, 2, InferRNN});
  r->Add({OpId::kGRU, 3, 6, 0, 2, InferGRU});
  r->Add({OpId::kLSTM, 3, 8, 0, 3, InferLSTM});
}

}  // namespace ge::ops
