#include "kernels/exec/concat_scale_shift_kernel.h"

#include <algorithm>
#include <vector>

#include "base/isa.h"
#include "kernels/exec/kernel_util.h"
#include "ops/fused/fused_activation.h"

namespace ge::exec {
namespace {

// y[k] = act(x[k] * a[k] + b[k]) over k < n (one NHWC pixel of one input), and y[p] = act(x[p] * a + b) over p < n
// (one plain channel plane). The multiply and the add round separately (the file is built with -ffp-contract=off),
// and Relu keeps NaN and -0 as the reference kernel's `v < 0 ? 0 : v`.
#define GE_CSS_LOOPS(suffix, attr)                                                                        \
  attr void Row##suffix(const float* x, const float* a, const float* b, float* y, int64_t n, bool relu) { \
    if (relu) {                                                                                           \
      for (int64_t k = 0; k < n; ++k) {                                                                   \
        const float v = x[k] * a[k] + b[k];                                                               \
        y[k] = v < 0.f ? 0.f : v;                                                                         \
      }                                                                                                   \
    } else {                                                                                              \
      for (int64_t k = 0; k < n; ++k) y[k] = x[k] * a[k] + b[k];                                          \
    }                                                                                                     \
  }                                                                                                       \
  attr void Plane##suffix(const float* x, float a, float b, float* y, int64_t n, bool relu) {             \
    if (relu) {                                                                                           \
      for (int64_t p = 0; p < n; ++p) {                                                                   \
        const float v = x[p] * a + b;                                                                     \
        y[p] = v < 0.f ? 0.f : v;                                                                         \
      }                                                                                                   \
    } else {                                                                                              \
      for (int64_t p = 0; p < n; ++p) y[p] = x[p] * a + b;                                                \
    }                                                                                                     \
  }
GE_CSS_LOOPS(Avx512, __attribute__((target("avx512f,avx512vl,avx512bw,avx512dq"))))
GE_CSS_LOOPS(Avx2, __attribute__((target("avx2,fma"))))
GE_CSS_LOOPS(Baseline, )
#undef GE_CSS_LOOPS

struct CssLoops {
  void (*row)(const float*, const float*, const float*, float*, int64_t, bool);
  void (*plane)(const float*, float, float, float*, int64_t, bool);
};

CssLoops PickLoops(IsaLevel max_level) {
  switch (PickLoopIsa(max_level)) {
    case LoopIsa::kAvx512:
      return {RowAvx512, PlaneAvx512};
    case LoopIsa::kAvx2:
      return {RowAvx2, PlaneAvx2};
    case LoopIsa::kBaseline:
      break;
  }
  return {RowBaseline, PlaneBaseline};
}

class ConcatScaleShiftKernel final : public PreparedKernel {
 public:
  ConcatScaleShiftKernel(bool nhwc, int64_t n, int64_t q, std::vector<int64_t> channels, std::vector<float> a,
                         std::vector<float> b, bool relu, CssLoops loops)
      : nhwc_(nhwc),
        n_(n),
        q_(q),
        channels_(std::move(channels)),
        a_(std::move(a)),
        b_(std::move(b)),
        relu_(relu),
        loops_(loops) {
    for (int64_t ci : channels_) {
      offsets_.push_back(c_);
      c_ += ci;
    }
    fn_ = &Task;
    num_inputs_ = 2 + static_cast<int>(channels_.size());
    num_outputs_ = 1;
  }
  const char* impl_name() const override { return "exec.concat_scale_shift"; }

 private:
  static Status Task(void* args, rt::TaskContext& ctx) {
    const auto& binding = *static_cast<const KernelBinding*>(args);
    const auto& k = BoundKernel<ConcatScaleShiftKernel>(binding);
    auto* y = static_cast<float*>(binding.io.outputs[0]);
    const size_t inputs = k.channels_.size();
    if (k.nhwc_) {  // pixel rows: each input's run of channels lands at its offset in Y's row
      const int64_t pixels = k.n_ * k.q_;
      auto body = [&](size_t p0, size_t p1) {
        for (size_t j = 0; j < inputs; ++j) {
          const auto* x = static_cast<const float*>(binding.io.inputs[2 + j]);
          const int64_t cj = k.channels_[j], oj = k.offsets_[j];
          for (size_t p = p0; p < p1; ++p) {
            k.loops_.row(x + static_cast<int64_t>(p) * cj, k.a_.data() + oj, k.b_.data() + oj,
                         y + static_cast<int64_t>(p) * k.c_ + oj, cj, k.relu_);
          }
        }
      };
      ParallelUnits(ctx, pixels, k.c_, body);
    } else {  // channel planes of q pixels
      auto body = [&](size_t u0, size_t u1) {
        for (size_t u = u0; u < u1; ++u) {
          const int64_t batch = static_cast<int64_t>(u) / k.c_, ch = static_cast<int64_t>(u) % k.c_;
          const size_t j =
              static_cast<size_t>(std::upper_bound(k.offsets_.begin(), k.offsets_.end(), ch) - k.offsets_.begin() - 1);
          const auto* x = static_cast<const float*>(binding.io.inputs[2 + j]);
          const int64_t cj = k.channels_[j], kk = ch - k.offsets_[j];
          k.loops_.plane(x + (batch * cj + kk) * k.q_, k.a_[ch], k.b_[ch], y + (batch * k.c_ + ch) * k.q_, k.q_,
                         k.relu_);
        }
      };
      ParallelUnits(ctx, k.n_ * k.c_, k.q_, body);
    }
    return Status::Ok();
  }

  bool nhwc_;
  int64_t n_, q_, c_ = 0;
  std::vector<int64_t> channels_, offsets_;
  std::vector<float> a_, b_;
  bool relu_;
  CssLoops loops_;
};

bool PlainOrNhwc(Format f) { return f == Format::kNHWC || f == Format::kND || f == Format::kNCHW; }

}  // namespace

std::unique_ptr<PreparedKernel> PrepareConcatScaleShift(const PrepareRequest& r) {
  const ir::Node& node = *r.node;
  const int k = node.num_inputs() - 2;
  if (HasVaryingDims(r) || k < 1 || !OutputPresent(r, 0)) return nullptr;
  const TensorDesc& y = r.output_descs[0];
  const bool nhwc = y.format == Format::kNHWC;
  if (y.dtype != DataType::kFloat || !PlainOrNhwc(y.format) || y.shape.rank() < 3 || (nhwc && y.shape.rank() != 4)) {
    return nullptr;
  }
  const Dims& yd = y.shape.dims();
  std::vector<int64_t> channels;
  int64_t c = 0;
  for (int i = 2; i < node.num_inputs(); ++i) {
    if (!InputPresent(r, i)) return nullptr;
    const TensorDesc& x = r.input_descs[i];
    if (x.dtype != DataType::kFloat || (x.format == Format::kNHWC) != nhwc || !PlainOrNhwc(x.format) ||
        x.shape.rank() != y.shape.rank()) {
      return nullptr;
    }
    for (int d = 0; d < y.shape.rank(); ++d) {
      if (d != 1 && x.shape.dim(d) != yd[d]) return nullptr;
    }
    channels.push_back(x.shape.dim(1));
    c += x.shape.dim(1);
  }
  if (c != yd[1]) return nullptr;
  const Tensor* a = InputPresent(r, 0) ? ConstInput(r, 0) : nullptr;
  const Tensor* b = InputPresent(r, 1) ? ConstInput(r, 1) : nullptr;
  if (a == nullptr || b == nullptr || a->dtype() != DataType::kFloat || b->dtype() != DataType::kFloat ||
      a->numel() != c || b->numel() != c) {
    return nullptr;
  }
  fused::ActivationSpec act;
  if (!fused::ParseActivation(node.attrs(), &act).ok() ||
      (act.kind != fused::Activation::kNone && act.kind != fused::Activation::kRelu)) {
    return nullptr;
  }
  const int64_t n = yd[0];
  const int64_t q = n != 0 && c != 0 ? NumElements(yd) / (n * c) : 0;
  return std::make_unique<ConcatScaleShiftKernel>(nhwc, n, q, std::move(channels),
                                                  std::vector<float>(a->data<float>(), a->data<float>() + c),
                                                  std::vector<float>(b->data<float>(), b->data<float>() + c),
                                                  act.kind == fused::Activation::kRelu, PickLoops(r.max_isa));
}

}  // namespace ge::exec
