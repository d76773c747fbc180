// Reference kernel of ge::SqueezeExcite (ops/fused/squeeze_excite_op.h) on plain [N, C, spatial...] float32 tensors:
// the spatial mean as GlobalAveragePool computes it (double accumulation), the gate (squeeze_excite.h), then X * s.
#include <algorithm>
#include <string>
#include <vector>

#include "kernels/ref/families.h"
#include "kernels/ref/fused/fused_epilogue.h"
#include "kernels/ref/fused/squeeze_excite.h"
#include "kernels/ref/kernel_context.h"

namespace ge::ref {

namespace fused {

namespace {

// out[k] += m[j, k] * v[j] for j = 0..rows-1 in order.
void AddRows(const float* m, const float* v, int64_t rows, int64_t cols, float* out) {
  for (int64_t j = 0; j < rows; ++j) {
    const float vj = v[j];
    const float* row = m + j * cols;
    for (int64_t k = 0; k < cols; ++k) out[k] += row[k] * vj;
  }
}

}  // namespace

void SqueezeExciteGate(const float* p, const float* w1t, const float* b1, const float* w2t, const float* b2, int64_t c,
                       int64_t r, const ge::fused::ActivationSpec& act, const ge::fused::ActivationSpec& gate, float* h,
                       float* s) {
  std::fill(h, h + r, 0.f);
  AddRows(w1t, p, c, r, h);
  ApplyEpilogue<float>(act, b1, 0, h, r);
  std::fill(s, s + c, 0.f);
  AddRows(w2t, h, r, c, s);
  ApplyEpilogue<float>(gate, b2, 0, s, c);
}

std::vector<float> Transposed(const float* m, int64_t rows, int64_t cols) {
  std::vector<float> t(static_cast<size_t>(rows * cols));
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j) t[j * rows + i] = m[i * cols + j];
  return t;
}

}  // namespace fused

namespace {

Status RefSqueezeExcite(KernelContext& ctx) {
  const Tensor* x = ctx.input(0);
  const Tensor* w1 = ctx.input(1);
  const Tensor* b1 = ctx.input(2);
  const Tensor* w2 = ctx.input(3);
  const Tensor* b2 = ctx.input(4);
  if (!x || !w1 || !w2) return ctx.Error("X, W1 and W2 are required");
  for (const Tensor* t : {x, w1, b1, w2, b2}) {
    if (t != nullptr && t->dtype() != DataType::kFloat) {
      return ctx.Unsupported(std::string("dtype ") + DataTypeName(t->dtype()) + " (float32 only)");
    }
  }
  if (x->rank() < 3 || w1->rank() < 2) return ctx.Error("X must be [N, C, spatial...] and W1 [R, C, 1...]");
  const int64_t n = x->dim(0), c = x->dim(1), r = w1->dim(0);
  const int64_t q = n != 0 && c != 0 ? x->numel() / (n * c) : 0;
  if (w1->numel() != r * c || w2->numel() != c * r || (w2->rank() >= 1 && w2->dim(0) != c) ||
      (b1 && b1->numel() != r) || (b2 && b2->numel() != c)) {
    return ctx.Error("weights W1 " + DimsToString(w1->dims()) + ", W2 " + DimsToString(w2->dims()) + " do not fit X " +
                     DimsToString(x->dims()));
  }
  ge::fused::ActivationSpec act, gate;
  Status st = ge::fused::ParseActivation(ctx.attr(), &act);
  if (st.ok()) st = ge::fused::ParseActivation(ctx.attr(), &gate, "gate_activation", "gate_activation_params");
  if (!st.ok()) return ctx.Error(st.message());
  GE_ASSIGN_OR_RETURN(Tensor * y, ctx.AllocateOutput(0, x->dims(), DataType::kFloat));
  std::vector<float> p(static_cast<size_t>(c)), h(static_cast<size_t>(r)), s(static_cast<size_t>(c));
  const std::vector<float> w1t = fused::Transposed(w1->data<float>(), r, c);
  const std::vector<float> w2t = fused::Transposed(w2->data<float>(), c, r);
  for (int64_t b = 0; b < n; ++b) {
    const float* xb = x->data<float>() + b * c * q;
    float* yb = y->data<float>() + b * c * q;
    for (int64_t k = 0; k < c; ++k) {
      double sum = 0;
      for (int64_t i = 0; i < q; ++i) sum += static_cast<double>(xb[k * q + i]);
      p[k] = static_cast<float>(q > 0 ? sum / static_cast<double>(q) : 0.0);
    }
    fused::SqueezeExciteGate(p.data(), w1t.data(), b1 ? b1->data<float>() : nullptr, w2t.data(),
                             b2 ? b2->data<float>() : nullptr, c, r, act, gate, h.data(), s.data());
    for (int64_t k = 0; k < c; ++k) {
      for (int64_t i = 0; i < q; ++i) yb[k * q + i] = xb[k * q + i] * s[k];
    }
  }
  return Status::Ok();
}

}  // namespace

void RegisterSqueezeExciteRefKernel(KernelRegistry* r) { r->Add(OpId::kGeSqueezeExcite, RefSqueezeExcite); }

}  // namespace ge::ref
