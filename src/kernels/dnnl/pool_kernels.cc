// MaxPool (without Indices), AveragePool, GlobalAveragePool, GlobalMaxPool: oneDNN pooling_v2_forward on plain
// tensors, 1-D to 3-D, with strides, dilations, pads, auto_pad and ceil_mode (the planned output dims fix the
// right pad). Unsupported, because oneDNN computes them differently: AveragePool counting padding whose ceil_mode
// windows reach past the end pad (oneDNN divides by the kernel size), and AveragePool excluding padding with a
// window that covers no input element (ref gives 0).
#include <algorithm>
#include <optional>

#include "kernels/dnnl/dnnl_kernel.h"
#include "kernels/dnnl/impl_select.h"
#include "kernels/dnnl/dnnl_ops.h"
#include "ops/nn/window_util.h"

namespace ge::dnnl_kernels {
namespace {

struct PoolPlan {
  dnnl::algorithm alg = dnnl::algorithm::pooling_max;
  Dims x, y;
  dnnl::memory::dims kernel, strides, dilation, pad_l, pad_r;
};

// True when some window along one dim covers no element of [0, in).
bool HasEmptyWindow(int64_t in, int64_t out, int64_t k, int64_t s, int64_t d, int64_t pb) {
  for (int64_t o = 0; o < out; ++o) {
    const int64_t start = o * s - pb;
    bool any = false;
    for (int64_t t = 0; t < k && !any; ++t) any = start + t * d >= 0 && start + t * d < in;
    if (!any) return true;
  }
  return false;
}

std::optional<PoolPlan> PlanPool(const OpView& v) {
  PoolPlan p;
  const std::string& op = v.node->op_type();
  const ir::AttrMap& a = v.attrs();
  const bool global = op == "GlobalAveragePool" || op == "GlobalMaxPool";
  const bool is_max = op == "MaxPool" || op == "GlobalMaxPool";
  if (v.num_in() != 1 || !v.has_in(0) || !OnlyFirstOutputs(v, 1)) return std::nullopt;
  const int r = v.in_rank(0);
  if (r >= 0 && (r < 3 || r > 5)) return std::nullopt;
  const int64_t cip = a.GetInt("count_include_pad", 0);
  if (!global) {
    nn::AutoPad ap;
    const int64_t ceil = a.GetInt("ceil_mode", 0);
    if (!nn::ParseAutoPad(a, &ap).ok() || (ceil != 0 && ceil != 1) || (cip != 0 && cip != 1)) return std::nullopt;
    if (!a.Has("kernel_shape")) return std::nullopt;
  }
  p.alg = is_max ? dnnl::algorithm::pooling_max
          : cip  ? dnnl::algorithm::pooling_avg_include_padding
                 : dnnl::algorithm::pooling_avg_exclude_padding;
  if (global) p.alg = is_max ? dnnl::algorithm::pooling_max : dnnl::algorithm::pooling_avg_exclude_padding;
  if (!v.static_shapes) return p;

  p.x = v.in_dims(0);
  p.y = v.out_dims(0);
  const int nsp = static_cast<int>(p.x.size()) - 2;
  if (static_cast<int>(p.y.size()) != nsp + 2) return std::nullopt;
  Dims want = {p.x[0], p.x[1]};
  if (global) {
    for (int i = 0; i < nsp; ++i) {
      want.push_back(1);
      p.kernel.push_back(p.x[i + 2]);
      p.strides.push_back(1);
      p.dilation.push_back(0);
      p.pad_l.push_back(0);
      p.pad_r.push_back(0);
    }
    return want == p.y ? std::optional<PoolPlan>(p) : std::nullopt;
  }
  nn::Window win;
  if (!nn::ParseWindow(a, nsp, nullptr, true, &win).ok()) return std::nullopt;
  for (int i = 0; i < nsp; ++i) {
    const int64_t in = p.x[i + 2];
    auto o = nn::WindowOutputDim(&win, i, in);
    if (!o.ok()) return std::nullopt;
    want.push_back(*o);
    const int64_t k = win.kernel[i], s = win.strides[i], d = win.dilations[i];
    const int64_t pb = win.pads[i], pe = win.pads[i + nsp];
    const int64_t extent = (k - 1) * d + 1;
    // ceil_mode: the right pad that makes oneDNN's floor formula give the planned size.
    const int64_t pr = std::max(pe, (*o - 1) * s + extent - in - pb);
    if (p.alg == dnnl::algorithm::pooling_avg_include_padding && pr > pe) return std::nullopt;
    if (p.alg == dnnl::algorithm::pooling_avg_exclude_padding && HasEmptyWindow(in, *o, k, s, d, pb)) {
      return std::nullopt;
    }
    p.kernel.push_back(k);
    p.strides.push_back(s);
    p.dilation.push_back(d - 1);
    p.pad_l.push_back(pb);
    p.pad_r.push_back(pr);
  }
  if (want != p.y) return std::nullopt;
  return p;
}

}  // namespace

bool PoolSupported(const OpView& v) { return PlanPool(v).has_value(); }

KernelPtr PreparePool(const OpView& v) {
  const std::optional<PoolPlan> plan = PlanPool(v);
  if (!plan) return nullptr;
  const PoolPlan& p = *plan;
  auto k = std::make_unique<DnnlKernel>(*v.node, "dnnl.pool", v.threads);
  const dnnl::memory::desc src_slot = ActivationDesc(v.in[0]), dst_slot = ActivationDesc(v.out[0]);
  using PF = dnnl::pooling_v2_forward;
  auto make_pd = [&](const dnnl::memory::desc& src_md, const dnnl::memory::desc& dst_md) {
    const PF::desc d(dnnl::prop_kind::forward_inference, p.alg, src_md, dst_md, p.strides, p.kernel, p.dilation,
                     p.pad_l, p.pad_r);
    return SelectImpl(PF::primitive_desc(d, UserScratchpadAttr(), k->engine()), v.max_isa);
  };
  // The slots' layouts, else (when that runs a reference implementation, e.g. plain NCHW on AVX2) the activation
  // layouts with reorders from and to the slots.
  std::optional<PF::primitive_desc> chosen;
  std::vector<std::pair<dnnl::memory::desc, dnnl::memory::desc>> candidates = {{src_slot, dst_slot}};
  for (Format f : {Format::kNHWC, Format::kNC1HWC0}) {
    for (int64_t c0 : {int64_t{8}, int64_t{16}}) {
      if (f == Format::kNHWC && c0 == 16) continue;
      TensorDesc x = v.in[0], y = v.out[0];
      x.format = y.format = f == Format::kNC1HWC0 ? WithC0(f, c0) : f;
      candidates.push_back({ActivationDesc(x), ActivationDesc(y)});
    }
  }
  for (const auto& [src_md, dst_md] : candidates) {
    std::optional<PF::primitive_desc> pd;
    try {
      pd = make_pd(src_md, dst_md);
    } catch (const dnnl::error&) {
      continue;
    }
    if (!chosen) chosen = pd;
    if (!IsReferenceImpl(pd->impl_info_str())) {
      chosen = pd;
      break;
    }
  }
  if (!chosen) return nullptr;
  const PF::primitive_desc& pd = *chosen;
  const ActivationBinding act = BindActivations(k.get(), src_slot, pd.src_desc(), dst_slot, pd.dst_desc());
  k->AddStep(PF(pd), pd, {{DNNL_ARG_SRC, act.src}, {DNNL_ARG_DST, act.dst}});
  FinishActivations(k.get(), act);
  k->Finalize();
  return k;
}

}  // namespace ge::dnnl_kernels
