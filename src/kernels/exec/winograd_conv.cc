#include "kernels/exec/winograd_conv.h"

#include <algorithm>
#include <vector>

#include "kernels/exec/kernel_util.h"
#include "kernels/exec/packed_gemm.h"
#include "ops/fused/fused_activation.h"

namespace ge::exec {
namespace {

constexpr int64_t kTileChunk = 24;  // output tiles per GEMM work item (4 register tiles of rows)

struct WinogradShape {
  int64_t n = 0, h = 0, w = 0, c = 0, k = 0;
  int64_t th = 0, tw = 0, tiles = 0;  // 2x2 output tiles per image row / column, and in all
};

// Input transform of tiles [t0, t1): V[pos][t][c] = (B^T d B)[pos] of the 4x4 patch around each tile.
__attribute__((target("avx2,fma"))) void InputTransform(const WinogradShape& s, const float* x, float* v, int64_t t0,
                                                        int64_t t1) {
  const int64_t plane = s.tiles * s.c;  // one pos of V
  std::vector<float> zero(static_cast<size_t>(s.c), 0.f);
  const float* rows[4][4];
  for (int64_t t = t0; t < t1; ++t) {
    const int64_t img = t / (s.th * s.tw), ty = t / s.tw % s.th, tx = t % s.tw;
    for (int i = 0; i < 4; ++i) {
      for (int j = 0; j < 4; ++j) {
        const int64_t iy = 2 * ty - 1 + i, ix = 2 * tx - 1 + j;
        const bool in = iy >= 0 && iy < s.h && ix >= 0 && ix < s.w;
        rows[i][j] = in ? x + ((img * s.h + iy) * s.w + ix) * s.c : zero.data();
      }
    }
    float* out = v + t * s.c;
    for (int64_t ch = 0; ch < s.c; ++ch) {
      float d[4][4], u[4][4];
      for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j) d[i][j] = rows[i][j][ch];
      for (int j = 0; j < 4; ++j) {  // B^T d
        u[0][j] = d[0][j] - d[2][j];
        u[1][j] = d[1][j] + d[2][j];
        u[2][j] = d[2][j] - d[1][j];
        u[3][j] = d[1][j] - d[3][j];
      }
      for (int i = 0; i < 4; ++i) {  // (B^T d) B
        out[(i * 4 + 0) * plane + ch] = u[i][0] - u[i][2];
        out[(i * 4 + 1) * plane + ch] = u[i][1] + u[i][2];
        out[(i * 4 + 2) * plane + ch] = u[i][2] - u[i][1];
        out[(i * 4 + 3) * plane + ch] = u[i][1] - u[i][3];
      }
    }
  }
}

// Output transform of tiles [t0, t1): y = A^T m A + bias (+ sum), then Relu, into the NHWC output.
__attribute__((target("avx2,fma"))) void OutputTransform(const WinogradShape& s, const float* m, const float* bias,
                                                         const float* sum, bool relu, float* y, int64_t t0,
                                                         int64_t t1) {
  const int64_t plane = s.tiles * s.k;
  for (int64_t t = t0; t < t1; ++t) {
    const int64_t img = t / (s.th * s.tw), ty = t / s.tw % s.th, tx = t % s.tw;
    const float* in = m + t * s.k;
    float* outs[2][2];
    const float* sums[2][2];
    bool valid[2][2];
    for (int r = 0; r < 2; ++r) {
      for (int c = 0; c < 2; ++c) {
        const int64_t oy = 2 * ty + r, ox = 2 * tx + c;
        valid[r][c] = oy < s.h && ox < s.w;
        const int64_t off = ((img * s.h + std::min(oy, s.h - 1)) * s.w + std::min(ox, s.w - 1)) * s.k;
        outs[r][c] = y + off;
        sums[r][c] = sum != nullptr ? sum + off : nullptr;
      }
    }
    for (int64_t kk = 0; kk < s.k; ++kk) {
      float a[4][4];
      for (int p = 0; p < 16; ++p) a[p / 4][p % 4] = in[p * plane + kk];
      float q[2][4];
      for (int j = 0; j < 4; ++j) {  // A^T m
        q[0][j] = a[0][j] + a[1][j] + a[2][j];
        q[1][j] = a[1][j] - a[2][j] - a[3][j];
      }
      const float b = bias != nullptr ? bias[kk] : 0.f;
      for (int r = 0; r < 2; ++r) {
        const float vals[2] = {q[r][0] + q[r][1] + q[r][2] + b, q[r][1] - q[r][2] - q[r][3] + b};
        for (int c = 0; c < 2; ++c) {
          if (!valid[r][c]) continue;
          float val = vals[c];
          if (sums[r][c] != nullptr) val += sums[r][c][kk];
          if (relu) val = std::max(val, 0.f);
          outs[r][c][kk] = val;
        }
      }
    }
  }
}

class WinogradConvKernel final : public PreparedKernel {
 public:
  WinogradConvKernel(int num_inputs, const WinogradShape& s) : s_(s) {
    fn_ = &WinogradConvKernel::Task;
    num_inputs_ = num_inputs;
    num_outputs_ = 1;
  }
  const char* impl_name() const override { return "exec.winograd_f23_avx2"; }

  std::vector<PackedMatrix> u;  // per pos: the transformed weights [C, K], packed
  std::vector<float> bias;      // [K] or empty
  int sum_input = -1;
  bool relu = false;

 private:
  static Status Task(void* args, rt::TaskContext& ctx) {
    const auto* bd = static_cast<const KernelBinding*>(args);
    const auto* k = &BoundKernel<WinogradConvKernel>(*bd);
    auto* work = static_cast<Workspace*>(bd->state.get());
    const WinogradShape& s = k->s_;
    const float* x = static_cast<const float*>(bd->io.inputs[0]);
    float* y = static_cast<float*>(bd->io.outputs[0]);
    const float* sum = k->sum_input >= 0 ? static_cast<const float*>(bd->io.inputs[k->sum_input]) : nullptr;
    auto run = [&ctx](int64_t items, auto&& body) {
      if (ctx.pool != nullptr && items > 1) {
        ctx.pool->ParallelFor(static_cast<size_t>(items), [&](size_t b, size_t e) { body(b, e); }, 1);
      } else {
        body(size_t{0}, static_cast<size_t>(items));
      }
    };
    const int64_t chunks = (s.tiles + kTileChunk - 1) / kTileChunk;
    float* v = work->v.data();
    float* m = work->m.data();
    run(chunks, [&](size_t b, size_t e) {
      InputTransform(s, x, v, static_cast<int64_t>(b) * kTileChunk,
                     std::min(s.tiles, static_cast<int64_t>(e) * kTileChunk));
    });
    const int64_t panels = (s.k + kPanel - 1) / kPanel;
    run(16 * panels * chunks, [&](size_t b, size_t e) {
      for (size_t item = b; item < e; ++item) {
        const int64_t pos = static_cast<int64_t>(item) / (panels * chunks);
        const int64_t rest = static_cast<int64_t>(item) % (panels * chunks);
        const int64_t q = rest % panels, r = rest / panels;
        PackedGemm(r * kTileChunk, std::min(s.tiles, (r + 1) * kTileChunk), q, q + 1, v + pos * s.tiles * s.c, s.c,
                   k->u[pos], nullptr, GemmActivation::kNone, m + pos * s.tiles * s.k, s.k);
      }
    });
    const float* bias = k->bias.empty() ? nullptr : k->bias.data();
    run(chunks, [&](size_t b, size_t e) {
      OutputTransform(s, m, bias, sum, k->relu, y, static_cast<int64_t>(b) * kTileChunk,
                      std::min(s.tiles, static_cast<int64_t>(e) * kTileChunk));
    });
    return Status::Ok();
  }

  // Per binding: the transformed input and the products.
  struct Workspace final : KernelState {
    std::vector<float> v, m;
  };
  StatusOr<std::unique_ptr<KernelState>> CreateState() const override {
    auto w = std::make_unique<Workspace>();
    w->v.resize(static_cast<size_t>(16 * s_.tiles * s_.c));
    w->m.resize(static_cast<size_t>(16 * s_.tiles * s_.k));
    return std::unique_ptr<KernelState>(std::move(w));
  }

  WinogradShape s_;
};

bool AllEqual(const std::vector<int64_t>& v, size_t n, int64_t value) {
  if (v.empty()) return true;
  if (v.size() != n) return false;
  for (int64_t x : v) {
    if (x != value) return false;
  }
  return true;
}

}  // namespace

std::unique_ptr<PreparedKernel> PrepareWinogradConv(const PrepareRequest& r) {
  if (!PackedGemmAllowed(r.max_isa)) return nullptr;
  const ir::Node& node = *r.node;
  const bool fused = node.domain() == "ge" && node.op_type() == "FusedConv";
  if (!fused && !((node.domain().empty() || node.domain() == "ai.onnx") && node.op_type() == "Conv")) return nullptr;
  if (node.num_outputs() != 1 || !InputPresent(r, 0) || !InputPresent(r, 1)) return nullptr;
  const TensorDesc& xd = r.input_descs[0];
  const TensorDesc& yd = r.output_descs[0];
  if (xd.dtype != DataType::kFloat || yd.dtype != DataType::kFloat) return nullptr;
  if (xd.format != Format::kNHWC || yd.format != Format::kNHWC) return nullptr;
  const Tensor* w = ConstInput(r, 1);
  if (w == nullptr || w->dtype() != DataType::kFloat || w->rank() != 4 || w->dim(2) != 3 || w->dim(3) != 3) {
    return nullptr;
  }
  const Dims& x = xd.shape.dims();
  if (x.size() != 4 || x[1] != w->dim(1) || yd.shape.dims() != Dims{x[0], w->dim(0), x[2], x[3]}) return nullptr;
  const ir::AttrMap& a = node.attrs();
  if (a.GetInt("group", 1) != 1 || !AllEqual(a.GetInts("strides", {}), 2, 1) ||
      !AllEqual(a.GetInts("dilations", {}), 2, 1) || a.GetString("auto_pad", "NOTSET") != "NOTSET" ||
      a.GetInts("pads", {}) != std::vector<int64_t>{1, 1, 1, 1}) {
    return nullptr;
  }
  bool relu = false;
  if (fused) {
    fused::ActivationSpec spec;
    if (!fused::ParseActivation(a, &spec).ok()) return nullptr;
    if (spec.kind != fused::Activation::kNone && spec.kind != fused::Activation::kRelu) return nullptr;
    relu = spec.kind == fused::Activation::kRelu;
  }
  WinogradShape s;
  s.n = x[0];
  s.c = x[1];
  s.h = x[2];
  s.w = x[3];
  s.k = w->dim(0);
  s.th = (s.h + 1) / 2;
  s.tw = (s.w + 1) / 2;
  s.tiles = s.n * s.th * s.tw;
  auto k = std::make_unique<WinogradConvKernel>(node.num_inputs(), s);
  k->relu = relu;
  if (node.num_inputs() > 2 && InputPresent(r, 2)) {
    const Tensor* b = ConstInput(r, 2);
    if (b == nullptr || b->dtype() != DataType::kFloat || b->numel() != s.k) return nullptr;
    k->bias.assign(b->data<float>(), b->data<float>() + s.k);
  }
  if (fused && node.num_inputs() > 3 && InputPresent(r, 3)) {
    if (r.input_descs[3].format != Format::kNHWC || r.input_descs[3].shape.dims() != yd.shape.dims()) return nullptr;
    k->sum_input = 3;
  }
  // U[pos][c][k] = (G g G^T)[pos] for g = W[k][c], G = [[1,0,0],[.5,.5,.5],[.5,-.5,.5],[0,0,1]].
  std::vector<float> u(static_cast<size_t>(16 * s.c * s.k));
  const float* wp = w->data<float>();
  for (int64_t kk = 0; kk < s.k; ++kk) {
    for (int64_t c = 0; c < s.c; ++c) {
      const float* g = wp + (kk * s.c + c) * 9;
      float t[4][3];
      for (int j = 0; j < 3; ++j) {
        t[0][j] = g[j];
        t[1][j] = 0.5f * (g[j] + g[3 + j] + g[6 + j]);
        t[2][j] = 0.5f * (g[j] - g[3 + j] + g[6 + j]);
        t[3][j] = g[6 + j];
      }
      for (int i = 0; i < 4; ++i) {
        const float row[4] = {t[i][0], 0.5f * (t[i][0] + t[i][1] + t[i][2]), 0.5f * (t[i][0] - t[i][1] + t[i][2]),
                              t[i][2]};
        for (int j = 0; j < 4; ++j) u[((i * 4 + j) * s.c + c) * s.k + kk] = row[j];
      }
    }
  }
  for (int pos = 0; pos < 16; ++pos) k->u.push_back(PackB(u.data() + pos * s.c * s.k, s.c, s.k, s.k, false));
  return k;
}

}  // namespace ge::exec
