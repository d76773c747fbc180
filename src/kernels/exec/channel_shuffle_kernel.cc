#include "kernels/exec/channel_shuffle_kernel.h"

#include <cstdint>
#include <cstring>
#include <vector>

#include "kernels/exec/kernel_util.h"
#include "ops/fused/channel_shuffle_op.h"

namespace ge::exec {
namespace {

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
    ParallelRange(ctx, k->batch * k->pixels, [k, bd, e, m](size_t b, size_t end) {
      for (size_t p = b; p < end; ++p) {
        for (int t = 0; t < m; ++t) {
          char* to = static_cast<char*>(bd->io.outputs[t]) + p * k->per_out * e;
          const ops::ShuffleSource* src = &k->sources[t * k->per_out];
          if (e == 4) {  // float32: word copies the compiler keeps in registers
            auto* to4 = reinterpret_cast<uint32_t*>(to);
            for (int64_t j = 0; j < k->per_out; ++j) {
              to4[j] = static_cast<const uint32_t*>(bd->io.inputs[src[j].input])[p * k->in_channels[src[j].input] +
                                                                                 src[j].channel];
            }
            continue;
          }
          for (int64_t j = 0; j < k->per_out; ++j) {
            const char* from = static_cast<const char*>(bd->io.inputs[src[j].input]) +
                               (p * k->in_channels[src[j].input] + src[j].channel) * e;
            std::memcpy(to + j * e, from, e);
          }
        }
      }
    }, 64);
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
  }
  return k;
}

}  // namespace ge::exec
