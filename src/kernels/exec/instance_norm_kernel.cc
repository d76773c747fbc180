#include "kernels/exec/instance_norm_kernel.h"

#include <cmath>

#include "base/format.h"
#include "kernels/exec/kernel_util.h"

namespace ge::exec {
namespace {

// Independent double accumulators per sum: enough to keep two AVX-512 (or four AVX2) adds in flight, and written as
// a fixed-width inner loop so that it vectorizes without reassociation flags.
constexpr int64_t kLanes = 16;

// The plane loops, compiled for AVX-512, AVX2 + FMA and the baseline: Sum (x), SquaredDeviations (sum of
// (x - mean)^2) and Normalize (y = (x - mean) * a + b, computed in double).
#define GE_INSTANCE_NORM_LOOPS(suffix, attr)                                                               \
  attr double Sum##suffix(const float* x, int64_t n) {                                                     \
    double acc[kLanes] = {};                                                                               \
    int64_t i = 0;                                                                                         \
    for (; i + kLanes <= n; i += kLanes) {                                                                 \
      for (int64_t k = 0; k < kLanes; ++k) acc[k] += static_cast<double>(x[i + k]);                        \
    }                                                                                                      \
    for (int64_t k = 0; i < n; ++i, ++k) acc[k] += static_cast<double>(x[i]);                              \
    double s = 0;                                                                                          \
    for (int64_t k = 0; k < kLanes; ++k) s += acc[k];                                                      \
    return s;                                                                                              \
  }                                                                                                        \
  attr double SquaredDeviations##suffix(const float* x, int64_t n, double mean) {                          \
    double acc[kLanes] = {};                                                                               \
    int64_t i = 0;                                                                                         \
    for (; i + kLanes <= n; i += kLanes) {                                                                 \
      for (int64_t k = 0; k < kLanes; ++k) {                                                               \
        const double d = static_cast<double>(x[i + k]) - mean;                                             \
        acc[k] += d * d;                                                                                   \
      }                                                                                                    \
    }                                                                                                      \
    for (int64_t k = 0; i < n; ++i, ++k) {                                                                 \
      const double d = static_cast<double>(x[i]) - mean;                                                   \
      acc[k] += d * d;                                                                                     \
    }                                                                                                      \
    double s = 0;                                                                                          \
    for (int64_t k = 0; k < kLanes; ++k) s += acc[k];                                                      \
    return s;                                                                                              \
  }                                                                                                        \
  attr void Normalize##suffix(const float* x, int64_t n, double mean, double a, double b, float* y) {      \
    for (int64_t i = 0; i < n; ++i) y[i] = static_cast<float>((static_cast<double>(x[i]) - mean) * a + b); \
  }
GE_INSTANCE_NORM_LOOPS(Avx512, __attribute__((target("avx512f,avx512vl,avx512bw,avx512dq"))))
GE_INSTANCE_NORM_LOOPS(Avx2, __attribute__((target("avx2,fma"))))
GE_INSTANCE_NORM_LOOPS(Baseline, )
#undef GE_INSTANCE_NORM_LOOPS

struct PlaneLoops {
  double (*sum)(const float*, int64_t);
  double (*squared_deviations)(const float*, int64_t, double);
  void (*normalize)(const float*, int64_t, double, double, double, float*);
};

PlaneLoops PickLoops(IsaLevel max_level) {
  switch (PickLoopIsa(max_level)) {
    case LoopIsa::kAvx512:
      return {SumAvx512, SquaredDeviationsAvx512, NormalizeAvx512};
    case LoopIsa::kAvx2:
      return {SumAvx2, SquaredDeviationsAvx2, NormalizeAvx2};
    case LoopIsa::kBaseline:
      break;
  }
  return {SumBaseline, SquaredDeviationsBaseline, NormalizeBaseline};
}

class InstanceNormKernel final : public PreparedKernel {
 public:
  InstanceNormKernel(int64_t planes, int64_t channels, int64_t plane_size, double epsilon, PlaneLoops loops)
      : planes_(planes), channels_(channels), plane_size_(plane_size), epsilon_(epsilon), loops_(loops) {
    fn_ = &Task;
    num_inputs_ = 3;
    num_outputs_ = 1;
  }
  const char* impl_name() const override { return "exec.instance_norm"; }

 private:
  void NormalizePlane(const float* x, float scale, float bias, float* y) const {
    const int64_t s = plane_size_;
    const double mean = loops_.sum(x, s) / static_cast<double>(s);
    const double var = loops_.squared_deviations(x, s, mean) / static_cast<double>(s);
    const double a = static_cast<double>(scale) / std::sqrt(var + epsilon_);
    loops_.normalize(x, s, mean, a, static_cast<double>(bias), y);
  }

  static Status Task(void* args, rt::TaskContext& ctx) {
    const auto& binding = *static_cast<const KernelBinding*>(args);
    const auto& k = BoundKernel<InstanceNormKernel>(binding);
    const auto* x = static_cast<const float*>(binding.io.inputs[0]);
    const auto* scale = static_cast<const float*>(binding.io.inputs[1]);
    const auto* bias = static_cast<const float*>(binding.io.inputs[2]);
    auto* y = static_cast<float*>(binding.io.outputs[0]);
    const int64_t s = k.plane_size_;
    if (s == 0) return Status::Ok();
    ParallelUnits(ctx, k.planes_, s, [&](int64_t p0, int64_t p1) {
      for (int64_t p = p0; p < p1; ++p) {
        const int64_t c = p % k.channels_;
        k.NormalizePlane(x + p * s, scale[c], bias[c], y + p * s);
      }
    });
    return Status::Ok();
  }

  int64_t planes_, channels_, plane_size_;
  double epsilon_;
  PlaneLoops loops_;
};

bool PlainFloat(const TensorDesc& d) { return d.dtype == DataType::kFloat && !IsNonPlainLayout(d.format); }

}  // namespace

std::unique_ptr<PreparedKernel> PrepareInstanceNorm(const PrepareRequest& r) {
  const ir::Node& node = *r.node;
  if (HasVaryingDims(r) || node.num_inputs() != 3 || node.num_outputs() != 1 || !OutputPresent(r, 0)) return nullptr;
  for (int i = 0; i < 3; ++i) {
    if (!InputPresent(r, i) || !PlainFloat(r.input_descs[i])) return nullptr;
  }
  const TensorDesc& x = r.input_descs[0];
  const TensorDesc& y = r.output_descs[0];
  if (!PlainFloat(y) || x.shape.rank() < 2 || x.shape.dims() != y.shape.dims()) return nullptr;
  const Dims& d = x.shape.dims();
  const int64_t n = d[0], c = d[1];
  if (NumElements(r.input_descs[1].shape.dims()) != c || NumElements(r.input_descs[2].shape.dims()) != c) {
    return nullptr;
  }
  const int64_t plane_size = n * c != 0 ? NumElements(d) / (n * c) : 0;
  const double epsilon = node.attrs().GetFloat("epsilon", 1e-5f);
  return std::make_unique<InstanceNormKernel>(n * c, c, plane_size, epsilon, PickLoops(r.max_isa));
}

}  // namespace ge::exec
