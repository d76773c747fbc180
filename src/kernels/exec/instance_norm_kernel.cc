#include "kernels/exec/instance_norm_kernel.h"

#include <algorithm>
#include <cmath>
#include <vector>

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

// Few planes (GroupNorm with one group, a 3-channel image) leave threads idle: such planes are cut into chunks of at
// least kMinChunk elements, up to kSplitUnits units in all, whose sums are taken in parallel and added in chunk order
// (the cut depends only on the shape, so results do not depend on the thread count).
constexpr int64_t kSplitUnits = 16;
constexpr int64_t kMinChunk = 16 * 1024;

int64_t ChunksPerPlane(int64_t planes, int64_t plane_size) {
  if (planes >= kSplitUnits / 2) return 1;
  const int64_t wanted = (kSplitUnits + planes - 1) / planes;
  return std::max<int64_t>(1, std::min(wanted, plane_size / kMinChunk));
}

// Per-binding scratch of the chunked path: one partial sum per chunk, then each plane's mean and multiplier.
struct ChunkState : KernelState {
  std::vector<double> partial, mean, multiplier;
};

class InstanceNormKernel final : public PreparedKernel {
 public:
  InstanceNormKernel(int64_t planes, int64_t channels, int64_t plane_size, double epsilon, PlaneLoops loops)
      : planes_(planes),
        channels_(channels),
        plane_size_(plane_size),
        chunks_(ChunksPerPlane(planes, plane_size)),
        chunk_size_((plane_size + chunks_ - 1) / chunks_),
        epsilon_(epsilon),
        loops_(loops) {
    fn_ = &Task;
    num_inputs_ = 3;
    num_outputs_ = 1;
  }
  const char* impl_name() const override { return "exec.instance_norm"; }

 private:
  StatusOr<std::unique_ptr<KernelState>> CreateState() const override {
    if (chunks_ == 1) return std::unique_ptr<KernelState>();
    auto st = std::make_unique<ChunkState>();
    st->partial.assign(static_cast<size_t>(planes_ * chunks_), 0.0);
    st->mean.assign(static_cast<size_t>(planes_), 0.0);
    st->multiplier.assign(static_cast<size_t>(planes_), 0.0);
    return std::unique_ptr<KernelState>(std::move(st));
  }

  double Multiplier(double sum_of_squares, float scale) const {
    const double var = sum_of_squares / static_cast<double>(plane_size_);
    return static_cast<double>(scale) / std::sqrt(var + epsilon_);
  }

  void NormalizePlane(const float* x, float scale, float bias, float* y) const {
    const int64_t s = plane_size_;
    const double mean = loops_.sum(x, s) / static_cast<double>(s);
    const double a = Multiplier(loops_.squared_deviations(x, s, mean), scale);
    loops_.normalize(x, s, mean, a, static_cast<double>(bias), y);
  }

  // Calls body(plane, offset, length) for each chunk of units [u0, u1) (unit = plane * chunks_ + chunk).
  template <typename Body>
  void ForChunks(rt::TaskContext& ctx, Body&& body) const {
    ParallelUnits(ctx, planes_ * chunks_, chunk_size_, [&](int64_t u0, int64_t u1) {
      for (int64_t u = u0; u < u1; ++u) {
        const int64_t plane = u / chunks_, begin = (u % chunks_) * chunk_size_;
        const int64_t len = std::min(chunk_size_, plane_size_ - begin);
        if (len > 0) body(u, plane, plane * plane_size_ + begin, len);
      }
    });
  }

  void RunChunked(const float* x, const float* scale, const float* bias, float* y, ChunkState& st,
                  rt::TaskContext& ctx) const {
    double* partial = st.partial.data();
    auto plane_total = [&](int64_t plane) {
      double t = 0;
      for (int64_t k = 0; k < chunks_; ++k) t += partial[plane * chunks_ + k];
      return t;
    };
    std::fill(st.partial.begin(), st.partial.end(), 0.0);
    ForChunks(ctx, [&](int64_t u, int64_t, int64_t off, int64_t len) { partial[u] = loops_.sum(x + off, len); });
    for (int64_t p = 0; p < planes_; ++p) st.mean[p] = plane_total(p) / static_cast<double>(plane_size_);
    ForChunks(ctx, [&](int64_t u, int64_t p, int64_t off, int64_t len) {
      partial[u] = loops_.squared_deviations(x + off, len, st.mean[p]);
    });
    for (int64_t p = 0; p < planes_; ++p) st.multiplier[p] = Multiplier(plane_total(p), scale[p % channels_]);
    ForChunks(ctx, [&](int64_t, int64_t p, int64_t off, int64_t len) {
      loops_.normalize(x + off, len, st.mean[p], st.multiplier[p], static_cast<double>(bias[p % channels_]), y + off);
    });
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
    if (k.chunks_ > 1) {
      k.RunChunked(x, scale, bias, y, static_cast<ChunkState&>(*binding.state), ctx);
      return Status::Ok();
    }
    ParallelUnits(ctx, k.planes_, s, [&](int64_t p0, int64_t p1) {
      for (int64_t p = p0; p < p1; ++p) {
        const int64_t c = p % k.channels_;
        k.NormalizePlane(x + p * s, scale[c], bias[c], y + p * s);
      }
    });
    return Status::Ok();
  }

  int64_t planes_, channels_, plane_size_, chunks_, chunk_size_;
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
