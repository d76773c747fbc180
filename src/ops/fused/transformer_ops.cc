// Inference for the transformer ops the compiler's fusions create (domain "ge", never in ONNX input):
//   ge::LayerNormalization(X, Scale, [B]) -> Y
//       ONNX LayerNormalization (opset 17: attributes axis, epsilon) with output Y only, so models of any opset
//       can hold it. Computed as the decomposed export does: mean, x - mean, mean of squares, / sqrt(var + eps),
//       * Scale, + B.
//   ge::Attention(Q, K, V) -> Y
//       Multi-head scaled dot-product attention over sequence-first tensors, as torch's MultiheadAttention holds
//       them: Q [Sq, B, Cq], K [Sk, B, Ck], V [Sk, B, Cv]. Head h of batch b reads Q[s, b, q_offset + h*D + d]
//       (likewise K with k_offset, V with v_offset), so one packed QKV tensor can feed all three.
//       Y[s, b, h*D + d] = sum_t softmax_t(sum_d (Q * scale)[..] * K[..]) * V[t, b, v_offset + h*D + d];
//       Y is [Sq, B, H*D]. Attributes: num_heads H, head_size D (>= 1), q_offset, k_offset, v_offset (>= 0),
//       scale (float).
#include "ops/fused/transformer_ops.h"

#include <string>

#include "ops/infer_util.h"
#include "ops/nn/nn_ops_internal.h"

namespace ge::ops {
namespace {

constexpr int64_t kLayerNormOpset = 17;

Status InferGeLayerNorm(InferContext& ctx) {
  const int64_t opset = ctx.opset;
  ctx.opset = kLayerNormOpset;
  Status st = nn::InferLayerNorm(ctx);
  ctx.opset = opset;
  return st;
}

Status CheckSeqFirst(const InferContext& ctx, int i, const char* what, int64_t offset, int64_t width,
                     DataType dtype) {
  const TensorDesc* d = ctx.input(i);
  if (d->dtype != DataType::kUndefined && (!IsFloatingPoint(d->dtype) || (dtype != DataType::kUndefined &&
                                                                           d->dtype != dtype))) {
    return ctx.Error(std::string(what) + " must be a floating-point tensor of Q's dtype, got " +
                     DataTypeName(d->dtype));
  }
  if (d->shape.unknown_rank()) return Status::Ok();
  if (d->shape.rank() != 3) return ctx.Error(std::string(what) + " must be 3-D [S, B, C], got " + d->shape.ToString());
  const int64_t c = d->shape.dim(2);
  if (c != kUnknownDim && offset + width > c) {
    return ctx.Error(std::string(what) + " " + d->shape.ToString() + " has no room for heads at offset " +
                     std::to_string(offset) + " of width " + std::to_string(width));
  }
  return Status::Ok();
}

// Merges a known dim of `from` into `to` (dims unknown in one are taken from the other); false on a conflict.
bool MergeDim(int64_t from, int64_t* to) {
  if (from == kUnknownDim) return true;
  if (*to == kUnknownDim) *to = from;
  return *to == from;
}

int64_t DimOf(const TensorDesc& d, int i) { return d.shape.unknown_rank() ? kUnknownDim : d.shape.dim(i); }

Status InferAttention(InferContext& ctx) {
  const ir::AttrMap& a = ctx.attr();
  const int64_t heads = a.GetInt("num_heads", 0), size = a.GetInt("head_size", 0);
  if (heads < 1 || size < 1) return ctx.Error("num_heads and head_size must be >= 1");
  // Bounds that keep heads * size and offset + width far from overflow (a corrupt model must not wrap them).
  constexpr int64_t kMax = int64_t{1} << 30;
  if (heads > kMax / size) return ctx.Error("num_heads * head_size is too large");
  const int64_t offsets[3] = {a.GetInt("q_offset", 0), a.GetInt("k_offset", 0), a.GetInt("v_offset", 0)};
  for (int64_t o : offsets) {
    if (o < 0 || o > kMax) return ctx.Error("q_offset, k_offset and v_offset must be in [0, 2^30]");
  }
  const char* names[3] = {"Q", "K", "V"};
  const DataType dt = ctx.input(0)->dtype;
  for (int i = 0; i < 3; ++i) GE_RETURN_IF_ERROR(CheckSeqFirst(ctx, i, names[i], offsets[i], heads * size, dt));
  int64_t batch = kUnknownDim, keys = kUnknownDim;
  for (int i = 0; i < 3; ++i) {
    if (!MergeDim(DimOf(*ctx.input(i), 1), &batch)) return ctx.Error("Q, K and V must share the batch dim");
  }
  for (int i = 1; i < 3; ++i) {
    if (!MergeDim(DimOf(*ctx.input(i), 0), &keys)) return ctx.Error("K and V must share the sequence dim");
  }
  Shape y;
  y.AddDim(DimOf(*ctx.input(0), 0));
  y.AddDim(batch);
  y.AddDim(heads * size);
  ctx.output(0) = TensorDesc(dt, y);
  return Status::Ok();
}

}  // namespace

void RegisterTransformerOps(OpRegistry* r) {
  r->Add({OpId::kGeLayerNormalization, 2, 3, 1, 1, InferGeLayerNorm});
  r->Add({OpId::kGeAttention, 3, 3, 1, 1, InferAttention});
}

}  // namespace ge::ops
