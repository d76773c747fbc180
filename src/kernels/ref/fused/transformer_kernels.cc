// Reference kernels of ge::LayerNormalization and ge::Attention (ops/fused/transformer_ops.cc), float32 and
// float64. Each follows the unfused ops the compiler replaced, in their order and compute types: LayerNorm as the
// decomposed export (ReduceMean accumulating in double, then Sub, Pow 2, ReduceMean, Add eps, Sqrt, Div, Mul, Add
// in T); Attention as Q * scale, MatMul (accumulating in T), Softmax over the keys (max-shifted, like the ref
// Softmax), MatMul.
#include <cmath>
#include <string>
#include <vector>

#include "kernels/ref/families.h"
#include "kernels/ref/kernel_context.h"
#include "kernels/ref/ref_util.h"

namespace ge::ref {
namespace {

template <typename T>
void LayerNormRows(const T* x, const T* scale, const T* bias, T eps, int64_t rows, int64_t cols, T* y) {
  std::vector<T> d(static_cast<size_t>(cols));
  for (int64_t r = 0; r < rows; ++r) {
    const T* xr = x + r * cols;
    double sum = 0;
    for (int64_t c = 0; c < cols; ++c) sum += static_cast<double>(xr[c]);
    const T mean = static_cast<T>(sum / static_cast<double>(cols));
    double sq = 0;
    for (int64_t c = 0; c < cols; ++c) {
      d[c] = xr[c] - mean;
      sq += static_cast<double>(static_cast<T>(d[c] * d[c]));
    }
    const T var = static_cast<T>(sq / static_cast<double>(cols));
    const T den = std::sqrt(static_cast<T>(var + eps));
    T* yr = y + r * cols;
    for (int64_t c = 0; c < cols; ++c) {
      const T v = static_cast<T>(d[c] / den) * scale[c];
      yr[c] = bias ? static_cast<T>(v + bias[c]) : v;
    }
  }
}

Status RefGeLayerNorm(KernelContext& ctx) {
  const Tensor* x = ctx.input(0);
  const Tensor* sc = ctx.input(1);
  const Tensor* b = ctx.input(2);
  if (!x || !sc) return ctx.Error("X and Scale are required");
  if (x->dtype() != DataType::kFloat && x->dtype() != DataType::kDouble) {
    return ctx.Unsupported(std::string("dtype ") + DataTypeName(x->dtype()));
  }
  auto axis = NormalizeAxis(ctx.attr().GetInt("axis", -1), x->rank());
  if (!axis.ok()) return ctx.Error(axis.status().message());
  const Dims tail(x->dims().begin() + *axis, x->dims().end());
  const int64_t cols = NumElements(tail);
  if (sc->dtype() != x->dtype() || sc->numel() != cols || (b && (b->dtype() != x->dtype() || b->numel() != cols))) {
    return ctx.Error("Scale and B must hold one value of X's dtype per normalized element " + DimsToString(tail));
  }
  GE_ASSIGN_OR_RETURN(Tensor * y, ctx.AllocateOutput(0, x->dims(), x->dtype()));
  const int64_t rows = cols ? x->numel() / cols : 0;
  const double eps = ctx.attr().GetFloat("epsilon", 1e-5f);
  if (x->dtype() == DataType::kFloat) {
    LayerNormRows<float>(x->data<float>(), sc->data<float>(), b ? b->data<float>() : nullptr,
                         static_cast<float>(eps), rows, cols, y->data<float>());
  } else {
    LayerNormRows<double>(x->data<double>(), sc->data<double>(), b ? b->data<double>() : nullptr, eps, rows, cols,
                          y->data<double>());
  }
  return Status::Ok();
}

struct AttentionDims {
  int64_t sq, sk, batch, heads, size, cq, ck, cv, oq, ok, ov;
};

template <typename T>
void AttentionTyped(const AttentionDims& a, T scale, const T* q, const T* k, const T* v, T* y) {
  std::vector<T> qs(static_cast<size_t>(a.size)), p(static_cast<size_t>(a.sk));
  const int64_t e = a.heads * a.size;
  for (int64_t b = 0; b < a.batch; ++b) {
    for (int64_t h = 0; h < a.heads; ++h) {
      for (int64_t s = 0; s < a.sq; ++s) {
        const T* qr = q + (s * a.batch + b) * a.cq + a.oq + h * a.size;
        for (int64_t d = 0; d < a.size; ++d) qs[d] = qr[d] * scale;
        T mx = -INFINITY;
        for (int64_t t = 0; t < a.sk; ++t) {
          const T* kr = k + (t * a.batch + b) * a.ck + a.ok + h * a.size;
          T acc = 0;
          for (int64_t d = 0; d < a.size; ++d) acc += qs[d] * kr[d];
          p[t] = acc;
          if (acc > mx || (t == 0 && !(acc <= mx))) mx = acc;
        }
        T sum = 0;
        for (int64_t t = 0; t < a.sk; ++t) {
          p[t] = std::exp(p[t] - mx);
          sum += p[t];
        }
        const T inv = T(1) / sum;
        for (int64_t t = 0; t < a.sk; ++t) p[t] *= inv;
        T* yr = y + (s * a.batch + b) * e + h * a.size;
        for (int64_t d = 0; d < a.size; ++d) {
          T acc = 0;
          for (int64_t t = 0; t < a.sk; ++t) acc += p[t] * v[(t * a.batch + b) * a.cv + a.ov + h * a.size + d];
          yr[d] = acc;
        }
      }
    }
  }
}

Status RefAttention(KernelContext& ctx) {
  const Tensor* q = ctx.input(0);
  const Tensor* k = ctx.input(1);
  const Tensor* v = ctx.input(2);
  if (!q || !k || !v) return ctx.Error("Q, K and V are required");
  if (q->dtype() != DataType::kFloat && q->dtype() != DataType::kDouble) {
    return ctx.Unsupported(std::string("dtype ") + DataTypeName(q->dtype()));
  }
  if (k->dtype() != q->dtype() || v->dtype() != q->dtype() || q->rank() != 3 || k->rank() != 3 || v->rank() != 3) {
    return ctx.Error("Q, K and V must be 3-D tensors of one dtype");
  }
  const ir::AttrMap& at = ctx.attr();
  AttentionDims a{q->dim(0), k->dim(0), q->dim(1), at.GetInt("num_heads", 0), at.GetInt("head_size", 0),
                  q->dim(2), k->dim(2), v->dim(2), at.GetInt("q_offset", 0), at.GetInt("k_offset", 0),
                  at.GetInt("v_offset", 0)};
  const int64_t e = a.heads * a.size;
  if (a.heads < 1 || a.size < 1 || a.oq < 0 || a.ok < 0 || a.ov < 0 || a.oq + e > a.cq || a.ok + e > a.ck ||
      a.ov + e > a.cv || k->dim(1) != a.batch || v->dim(1) != a.batch || v->dim(0) != a.sk) {
    return ctx.Error("Q " + DimsToString(q->dims()) + ", K " + DimsToString(k->dims()) + " and V " +
                     DimsToString(v->dims()) + " do not match the heads' attributes");
  }
  GE_ASSIGN_OR_RETURN(Tensor * y, ctx.AllocateOutput(0, {a.sq, a.batch, e}, q->dtype()));
  const double scale = at.GetFloat("scale", 1.f);
  if (q->dtype() == DataType::kFloat) {
    AttentionTyped<float>(a, static_cast<float>(scale), q->data<float>(), k->data<float>(), v->data<float>(),
                          y->data<float>());
  } else {
    AttentionTyped<double>(a, scale, q->data<double>(), k->data<double>(), v->data<double>(), y->data<double>());
  }
  return Status::Ok();
}

}  // namespace

void RegisterTransformerRefKernels(KernelRegistry* r) {
  r->Add(OpId::kGeLayerNormalization, RefGeLayerNorm);
  r->Add(OpId::kGeAttention, RefAttention);
}

}  // namespace ge::ref
