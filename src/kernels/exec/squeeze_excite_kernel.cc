#include "kernels/exec/squeeze_excite_kernel.h"

#include <algorithm>
#include <vector>

#include "base/isa.h"
#include "kernels/exec/kernel_util.h"
#include "kernels/exec/fast_exp.h"
#include "kernels/ref/fused/fused_epilogue.h"

namespace ge::exec {
namespace {

// Pixels per pooling block in NHWC: each block keeps one double sum per channel.
constexpr int64_t kPoolBlockPixels = 512;

// The loops of the kernel, compiled for AVX-512, AVX2 and the baseline (they auto-vectorize; the file is built with
// -ffp-contract=off, so no variant fuses a multiply-add and every variant gives the same bits). sums[k] += x[i, k]
// over NHWC pixel rows [p0, p1); y[i, k] = x[i, k] * s[k] over rows [r0, r1); out[k] = m[k, :] . v for the rows of
// m (the gate's products with W1 [R, C] and W2 [C, R] as stored: no transposed copy at load), each dot product in
// kDotLanes independent chains summed in lane order, then the tail.
constexpr int kDotLanes = 16;

#define GE_SE_PASSES(suffix, attr)                                                                           \
  attr void SumRows##suffix(const float* x, int64_t p0, int64_t p1, int64_t c, double* sums) {               \
    for (int64_t i = p0; i < p1; ++i) {                                                                      \
      const float* row = x + i * c;                                                                          \
      for (int64_t k = 0; k < c; ++k) sums[k] += static_cast<double>(row[k]);                                \
    }                                                                                                        \
  }                                                                                                          \
  attr void ScaleRows##suffix(const float* x, const float* s, float* y, int64_t r0, int64_t r1, int64_t c) { \
    for (int64_t i = r0; i < r1; ++i) {                                                                      \
      const float* xr = x + i * c;                                                                           \
      float* yr = y + i * c;                                                                                 \
      for (int64_t k = 0; k < c; ++k) yr[k] = xr[k] * s[k];                                                  \
    }                                                                                                        \
  }                                                                                                          \
  attr void DotRows##suffix(const float* m, const float* v, int64_t rows, int64_t cols, float* out) {        \
    for (int64_t k = 0; k < rows; ++k) {                                                                     \
      const float* row = m + k * cols;                                                                       \
      float acc[kDotLanes] = {};                                                                             \
      int64_t j = 0;                                                                                         \
      for (; j + kDotLanes <= cols; j += kDotLanes) {                                                        \
        for (int l = 0; l < kDotLanes; ++l) acc[l] += row[j + l] * v[j + l];                                 \
      }                                                                                                      \
      float sum = 0.f;                                                                                       \
      for (int l = 0; l < kDotLanes; ++l) sum += acc[l];                                                     \
      for (; j < cols; ++j) sum += row[j] * v[j];                                                            \
      out[k] = sum;                                                                                          \
    }                                                                                                        \
  }
GE_SE_PASSES(Avx512, __attribute__((target("avx512f,avx512vl,avx512bw,avx512dq"))))
GE_SE_PASSES(Avx2, __attribute__((target("avx2,fma"))))
GE_SE_PASSES(Baseline, )
#undef GE_SE_PASSES

struct SePasses {
  void (*sum_rows)(const float*, int64_t, int64_t, int64_t, double*);
  void (*scale_rows)(const float*, const float*, float*, int64_t, int64_t, int64_t);
  void (*dot_rows)(const float*, const float*, int64_t, int64_t, float*);
};

SePasses PickPasses(IsaLevel max_level) {
  switch (PickLoopIsa(max_level)) {
    case LoopIsa::kAvx512:
      return {SumRowsAvx512, ScaleRowsAvx512, DotRowsAvx512};
    case LoopIsa::kAvx2:
      return {SumRowsAvx2, ScaleRowsAvx2, DotRowsAvx2};
    case LoopIsa::kBaseline:
      break;
  }
  return {SumRowsBaseline, ScaleRowsBaseline, DotRowsBaseline};
}

// Elements from which a pass over X is shared by the pool: lower than kParallelMinElements, since both passes
// stream X from beyond L1 (EfficientNet's 7x7x1152 blocks ran 2x slower on one thread).
constexpr int64_t kSeParallelMinElements = 16 * 1024;

struct SeState : KernelState {
  std::vector<double> partial;  // [blocks, C]
  std::vector<float> p, h, s;   // pooled means [C], hidden [R], scales [C]
};

class SqueezeExciteKernel final : public PreparedKernel {
 public:
  SqueezeExciteKernel(bool nhwc, int64_t n, int64_t c, int64_t q, int64_t r, Tensor w1, std::vector<float> b1,
                      Tensor w2, std::vector<float> b2, const fused::ActivationSpec& act,
                      const fused::ActivationSpec& gate, SePasses passes)
      : nhwc_(nhwc),
        n_(n),
        c_(c),
        q_(q),
        r_(r),
        blocks_(nhwc ? std::max<int64_t>({1, std::min<int64_t>(2, q), std::min<int64_t>(16, q / kPoolBlockPixels)})
                     : 1),
        w1_(std::move(w1)),
        b1_(std::move(b1)),
        w2_(std::move(w2)),
        b2_(std::move(b2)),
        act_(act),
        gate_(gate),
        passes_(passes) {
    fn_ = &Task;
    num_inputs_ = 5;
    num_outputs_ = 1;
  }
  const char* impl_name() const override { return "exec.squeeze_excite"; }

 private:
  StatusOr<std::unique_ptr<KernelState>> CreateState() const override {
    auto st = std::make_unique<SeState>();
    st->partial.assign(static_cast<size_t>(blocks_ * c_), 0.0);
    st->p.assign(static_cast<size_t>(c_), 0.f);
    st->h.assign(static_cast<size_t>(r_), 0.f);
    st->s.assign(static_cast<size_t>(c_), 0.f);
    return std::unique_ptr<KernelState>(std::move(st));
  }

  void Pool(const float* x, SeState& st, rt::TaskContext& ctx) const {
    const double inv = q_ > 0 ? 1.0 / static_cast<double>(q_) : 0.0;
    if (!nhwc_) {  // planes of q pixels per channel
      ParallelUnits(
          ctx, c_, q_,
          [&](int64_t k0, int64_t k1) {
            for (int64_t k = k0; k < k1; ++k) {
              double sum = 0;
              for (int64_t i = 0; i < q_; ++i) sum += static_cast<double>(x[k * q_ + i]);
              st.p[k] = static_cast<float>(q_ > 0 ? sum / static_cast<double>(q_) : 0.0);
            }
          },
          kSeParallelMinElements);
      return;
    }
    std::fill(st.partial.begin(), st.partial.end(), 0.0);
    const int64_t per = (q_ + blocks_ - 1) / blocks_;
    ParallelUnits(
        ctx, blocks_, per * c_,
        [&](int64_t b0, int64_t b1) {
          for (int64_t b = b0; b < b1; ++b) {
            const int64_t p0 = b * per, p1 = std::min(q_, p0 + per);
            passes_.sum_rows(x, p0, p1, c_, st.partial.data() + b * c_);
          }
        },
        kSeParallelMinElements);
    for (int64_t k = 0; k < c_; ++k) {
      double sum = 0;
      for (int64_t b = 0; b < blocks_; ++b) sum += st.partial[b * c_ + k];
      st.p[k] = static_cast<float>(q_ > 0 ? sum * inv : 0.0);
    }
  }

  void Scale(const float* x, const float* s, float* y, rt::TaskContext& ctx) const {
    if (nhwc_) {
      ParallelUnits(
          ctx, q_, c_, [&](int64_t i0, int64_t i1) { passes_.scale_rows(x, s, y, i0, i1, c_); },
          kSeParallelMinElements);
    } else {
      ParallelUnits(
          ctx, c_, q_,
          [&](int64_t k0, int64_t k1) {
            for (int64_t k = k0; k < k1; ++k) {
              const float sk = s[k];
              for (int64_t i = 0; i < q_; ++i) y[k * q_ + i] = x[k * q_ + i] * sk;
            }
          },
          kSeParallelMinElements);
    }
  }

  // s from the pooled means: ref::fused::SqueezeExciteGate's steps with the weights as stored (dot products in
  // lanes, so not its bits), and a Sigmoid gate through FastExp (within 1 ulp of std::exp).
  void Gate(SeState& st) const {
    passes_.dot_rows(w1_.data<float>(), st.p.data(), r_, c_, st.h.data());
    ref::fused::ApplyEpilogue<float>(act_, b1_.empty() ? nullptr : b1_.data(), 0, st.h.data(), r_);
    passes_.dot_rows(w2_.data<float>(), st.h.data(), c_, r_, st.s.data());
    float* s = st.s.data();
    if (!b2_.empty()) {
      for (int64_t k = 0; k < c_; ++k) s[k] += b2_[k];
    }
    if (gate_.kind == fused::Activation::kSigmoid) {
      for (int64_t k = 0; k < c_; ++k) s[k] = 1.0f / (1.0f + FastExp(std::min(-s[k], 80.0f)));
    } else {
      ref::fused::ApplyEpilogue<float>(gate_, nullptr, 0, s, c_);
    }
  }

  static Status Task(void* args, rt::TaskContext& ctx) {
    const auto& binding = *static_cast<const KernelBinding*>(args);
    const auto& k = BoundKernel<SqueezeExciteKernel>(binding);
    auto& st = static_cast<SeState&>(*binding.state);
    const auto* x = static_cast<const float*>(binding.io.inputs[0]);
    auto* y = static_cast<float*>(binding.io.outputs[0]);
    const int64_t image = k.c_ * k.q_;
    for (int64_t b = 0; b < k.n_; ++b) {
      k.Pool(x + b * image, st, ctx);
      k.Gate(st);
      k.Scale(x + b * image, st.s.data(), y + b * image, ctx);
    }
    return Status::Ok();
  }

  bool nhwc_;
  int64_t n_, c_, q_, r_, blocks_;
  Tensor w1_, w2_;  // the constants W1 [R, C] and W2 [C, R], sharing their storage (mapped weights at load)
  std::vector<float> b1_, b2_;
  fused::ActivationSpec act_, gate_;
  SePasses passes_;
};

bool PlainOrNhwc(Format f) { return f == Format::kNHWC || f == Format::kND || f == Format::kNCHW; }

// A constant float32 input (nullptr when absent); false when present but not a constant float32 tensor.
bool ConstFloatTensor(const PrepareRequest& r, int i, const Tensor** out) {
  *out = nullptr;
  if (!InputPresent(r, i)) return true;
  const Tensor* t = ConstInput(r, i);
  if (t == nullptr || t->dtype() != DataType::kFloat) return false;
  *out = t;
  return true;
}

// Its values (empty for nullptr).
std::vector<float> Floats(const Tensor* t) {
  return t != nullptr ? std::vector<float>(t->data<float>(), t->data<float>() + t->numel()) : std::vector<float>();
}

int64_t NumFloats(const Tensor* t) { return t != nullptr ? t->numel() : 0; }

}  // namespace

std::unique_ptr<PreparedKernel> PrepareSqueezeExcite(const PrepareRequest& r) {
  const ir::Node& node = *r.node;
  if (HasVaryingDims(r) || node.num_inputs() < 4 || !InputPresent(r, 0) || !OutputPresent(r, 0)) return nullptr;
  const TensorDesc& x = r.input_descs[0];
  const TensorDesc& y = r.output_descs[0];
  if (x.dtype != DataType::kFloat || y.dtype != DataType::kFloat || x.shape.rank() < 3 ||
      x.shape.dims() != y.shape.dims() || !PlainOrNhwc(x.format) || !PlainOrNhwc(y.format) ||
      (x.format == Format::kNHWC) != (y.format == Format::kNHWC) ||
      (x.format == Format::kNHWC && x.shape.rank() != 4)) {
    return nullptr;
  }
  // W1 and W2 are used where they lie (mapped weights): a copy would touch as many fresh pages at load, the
  // main cost of a load (mobilenet_v3_large's eight blocks hold 7.9 MB of them).
  const Tensor *w1 = nullptr, *b1 = nullptr, *w2 = nullptr, *b2 = nullptr;
  if (!InputPresent(r, 1) || !InputPresent(r, 3) || !ConstFloatTensor(r, 1, &w1) || !ConstFloatTensor(r, 2, &b1) ||
      !ConstFloatTensor(r, 3, &w2) || !ConstFloatTensor(r, 4, &b2)) {
    return nullptr;
  }
  const Dims& d = x.shape.dims();
  const int64_t n = d[0], c = d[1];
  const int64_t q = n != 0 && c != 0 ? NumElements(d) / (n * c) : 0;
  const int64_t rr = r.input_descs[1].shape.rank() >= 1 ? r.input_descs[1].shape.dim(0) : 0;
  if (c <= 0 || rr <= 0 || NumFloats(w1) != rr * c || NumFloats(w2) != c * rr ||
      (b1 != nullptr && NumFloats(b1) != rr) || (b2 != nullptr && NumFloats(b2) != c)) {
    return nullptr;
  }
  fused::ActivationSpec act, gate;
  if (!fused::ParseActivation(node.attrs(), &act).ok() ||
      !fused::ParseActivation(node.attrs(), &gate, "gate_activation", "gate_activation_params").ok()) {
    return nullptr;
  }
  return std::make_unique<SqueezeExciteKernel>(x.format == Format::kNHWC, n, c, q, rr, *w1, Floats(b1), *w2, Floats(b2),
                                               act, gate, PickPasses(r.max_isa));
}

}  // namespace ge::exec
