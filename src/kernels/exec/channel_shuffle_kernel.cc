#include "kernels/exec/channel_shuffle_kernel.h"

#include <cstdint>
#include <algorithm>
#include <cstring>
#include <vector>

#include "base/target_clones.h"
#include "kernels/exec/kernel_util.h"
#include "ops/fused/channel_shuffle_op.h"

namespace ge::exec {
namespace {

// For each of `rows` pixels: o[2i] = a[i], o[2i + 1] = b[i] for i < n, then a, b and o advance by their strides
// (elements): ShuffleNet's shuffle of two branches (groups = 2).
GE_TARGET_CLONES("avx512f", "avx2", "default")
void Interleave2(const uint32_t* __restrict a, int64_t a_stride, const uint32_t* __restrict b, int64_t b_stride,
                 uint32_t* __restrict o, int64_t o_stride, int64_t n, int64_t rows) {
  for (int64_t r = 0; r < rows; ++r, a += a_stride, b += b_stride, o += o_stride) {
    for (int64_t i = 0; i < n; ++i) {
      o[2 * i] = a[i];
      o[2 * i + 1] = b[i];
    }
  }
}

// How one NHWC output gathers its channels at each pixel, recognised at prepare from the sources.
struct OutputPlan {
  enum Kind : uint8_t { kGather, kCopy, kInterleave2 } kind = kGather;
  int in_a = 0, in_b = 0;      // inputs read (kCopy: in_a only)
  int64_t ch_a = 0, ch_b = 0;  // their first channels
};

// kCopy: channel j of the output is channel ch_a + j of one input; kInterleave2 (4-byte elements): channel 2i is
// channel ch_a + i of in_a and channel 2i + 1 is ch_b + i of in_b; else the per-channel gather.
OutputPlan PlanOutput(const ops::ShuffleSource* src, int64_t per_out, size_t elem) {
  OutputPlan plan;
  bool copy = true;
  for (int64_t j = 0; j < per_out && copy; ++j) {
    copy = src[j].input == src[0].input && src[j].channel == src[0].channel + j;
  }
  if (copy) {
    plan.kind = OutputPlan::kCopy;
    plan.in_a = src[0].input;
    plan.ch_a = src[0].channel;
    return plan;
  }
  if (elem != 4 || per_out % 2 != 0) return plan;
  for (int64_t i = 0; i < per_out / 2; ++i) {
    const ops::ShuffleSource& a = src[2 * i];
    const ops::ShuffleSource& b = src[2 * i + 1];
    if (a.input != src[0].input || a.channel != src[0].channel + i || b.input != src[1].input ||
        b.channel != src[1].channel + i) {
      return plan;
    }
  }
  plan.kind = OutputPlan::kInterleave2;
  plan.in_a = src[0].input;
  plan.ch_a = src[0].channel;
  plan.in_b = src[1].input;
  plan.ch_b = src[1].channel;
  return plan;
}

class ChannelShuffleKernel final : public PreparedKernel {
 public:
  ChannelShuffleKernel(int num_inputs, int num_outputs) {
    fn_ = &ChannelShuffleKernel::Task;
    num_inputs_ = num_inputs;
    num_outputs_ = num_outputs;
  }
  const char* impl_name() const override { return "exec.channel_shuffle"; }

  bool nhwc = false;
  int64_t batch = 1, pixels = 1, per_out = 0;
  size_t elem = 4;
  std::vector<int64_t> in_channels;         // per input
  std::vector<ops::ShuffleSource> sources;  // per channel of the shuffled tensor
  std::vector<OutputPlan> plans;            // NHWC: per output

 private:
  static Status Task(void* args, rt::TaskContext& ctx) {
    const auto* bd = static_cast<const KernelBinding*>(args);
    const auto* k = &BoundKernel<ChannelShuffleKernel>(*bd);
    const int m = static_cast<int>(bd->io.outputs.size());
    const size_t e = k->elem;
    if (!k->nhwc) {  // [N, C, pixels]: one plane per channel
      const size_t plane = static_cast<size_t>(k->pixels) * e;
      const int64_t planes = k->batch * m * k->per_out;
      ParallelRange(ctx, planes, [k, bd, plane](size_t b, size_t end) {
        for (size_t p = b; p < end; ++p) {
          const int64_t j = static_cast<int64_t>(p) % (static_cast<int64_t>(bd->io.outputs.size()) * k->per_out);
          const int64_t n = static_cast<int64_t>(p) / (static_cast<int64_t>(bd->io.outputs.size()) * k->per_out);
          const ops::ShuffleSource& s = k->sources[j];
          const char* from = static_cast<const char*>(bd->io.inputs[s.input]) +
                             (n * k->in_channels[s.input] + s.channel) * plane;
          char* to = static_cast<char*>(bd->io.outputs[j / k->per_out]) + (n * k->per_out + j % k->per_out) * plane;
          std::memcpy(to, from, plane);
        }
      }, 1);
      return Status::Ok();
    }
    // NHWC: [N, pixels, C] per tensor; each pixel gathers its output channels.
    auto pixels = [k, bd, e, m](size_t b, size_t end) {
      const int64_t rows = static_cast<int64_t>(end - b);
      for (int t = 0; t < m; ++t) {
        const OutputPlan& plan = k->plans[t];
        char* out = static_cast<char*>(bd->io.outputs[t]) + b * k->per_out * e;
        const int64_t ca = k->in_channels[plan.in_a], cb = k->in_channels[plan.in_b];
        const char* in_a = static_cast<const char*>(bd->io.inputs[plan.in_a]) + (b * ca + plan.ch_a) * e;
        const char* in_b = static_cast<const char*>(bd->io.inputs[plan.in_b]) + (b * cb + plan.ch_b) * e;
        if (plan.kind == OutputPlan::kCopy) {
          for (int64_t r = 0; r < rows; ++r) std::memcpy(out + r * k->per_out * e, in_a + r * ca * e, k->per_out * e);
          continue;
        }
        if (plan.kind == OutputPlan::kInterleave2) {
          Interleave2(reinterpret_cast<const uint32_t*>(in_a), ca, reinterpret_cast<const uint32_t*>(in_b), cb,
                      reinterpret_cast<uint32_t*>(out), k->per_out, k->per_out / 2, rows);
          continue;
        }
        const ops::ShuffleSource* src = &k->sources[t * k->per_out];
        for (size_t p = b; p < end; ++p) {
          char* to = static_cast<char*>(bd->io.outputs[t]) + p * k->per_out * e;
          for (int64_t j = 0; j < k->per_out; ++j) {
            const char* from = static_cast<const char*>(bd->io.inputs[src[j].input]) +
                               (p * k->in_channels[src[j].input] + src[j].channel) * e;
            std::memcpy(to + j * e, from, e);
          }
        }
      }
    };
    // Split over the pool by pixels when the whole shuffle is large (by elements, as other kernels decide).
    const int64_t n_pixels = k->batch * k->pixels;
    const int64_t channels = m * k->per_out;
    if (n_pixels * channels >= kParallelMinElements && ctx.pool != nullptr) {
      const int64_t grain = std::max<int64_t>(1, static_cast<int64_t>(kParallelGrain) / std::max<int64_t>(1, channels));
      ctx.pool->ParallelFor(static_cast<size_t>(n_pixels), pixels, static_cast<size_t>(grain));
    } else {
      pixels(0, static_cast<size_t>(n_pixels));
    }
    return Status::Ok();
  }
};

}  // namespace

std::unique_ptr<PreparedKernel> PrepareChannelShuffle(const PrepareRequest& r) {
  const ir::Node& n = *r.node;
  if (n.domain() != "ge" || n.op_type() != "ChannelShuffle" || r.input_descs.empty() || r.output_descs.empty()) {
    return nullptr;
  }
  const TensorDesc& x0 = r.input_descs[0];
  const Format layout = x0.format;
  const bool nhwc = layout == Format::kNHWC;
  if (IsNonPlainLayout(layout) && !nhwc) return nullptr;
  const Dims& d0 = x0.shape.dims();
  if (d0.size() < 2) return nullptr;
  auto k = std::make_unique<ChannelShuffleKernel>(n.num_inputs(), n.num_outputs());
  k->nhwc = nhwc;
  k->elem = DataTypeSize(x0.dtype);
  k->batch = d0[0];
  for (size_t i = 2; i < d0.size(); ++i) k->pixels *= d0[i];
  for (size_t i = 0; i < r.input_descs.size(); ++i) {
    const TensorDesc& x = r.input_descs[i];
    if (!InputPresent(r, static_cast<int>(i)) || x.dtype != x0.dtype || x.dtype == DataType::kString) return nullptr;
    if ((x.format == Format::kNHWC) != nhwc || x.shape.dims().size() != d0.size()) return nullptr;
    k->in_channels.push_back(x.shape.dims()[1]);
  }
  k->sources = ops::ChannelShuffleSources(k->in_channels, n.attrs().GetInt("groups", 0));
  const int64_t m = static_cast<int64_t>(r.output_descs.size());
  if (k->sources.empty() || static_cast<int64_t>(k->sources.size()) % m != 0) return nullptr;
  k->per_out = static_cast<int64_t>(k->sources.size()) / m;
  for (int t = 0; t < m; ++t) {
    const TensorDesc& y = r.output_descs[t];
    if (!OutputPresent(r, t) || (y.format == Format::kNHWC) != nhwc || y.dtype != x0.dtype) return nullptr;
    Dims want = d0;
    want[1] = k->per_out;
    if (y.shape.dims() != want) return nullptr;
    k->plans.push_back(PlanOutput(&k->sources[t * k->per_out], k->per_out, k->elem));
  }
  return k;
}

}  // namespace ge::exec
