// ConvTranspose (X, W, [B]) -> Y: oneDNN deconvolution_forward on plain tensors, 1-D to 3-D, with groups,
// dilations, strides, pads, output_padding and output_shape (whose sizes the planned output desc carries). ONNX's
// W [C, M/group, k...] is described to oneDNN by strides; constant weights are reordered once at prepare.
#include <optional>
#include <string>

#include "kernels/dnnl/bf16_util.h"
#include "kernels/dnnl/dnnl_kernel.h"
#include "kernels/dnnl/impl_select.h"
#include "kernels/dnnl/dnnl_ops.h"
#include "ops/nn/window_util.h"

namespace ge::dnnl_kernels {
namespace {

struct DeconvPlan {
  bool has_bias = false;
  int64_t group = 1;
  Dims x, w, y;
  dnnl::memory::dims strides, dilates, pad_l, pad_r;
};

std::optional<DeconvPlan> PlanDeconv(const OpView& v) {
  DeconvPlan p;
  const ir::AttrMap& a = v.attrs();
  if (v.num_in() < 2 || v.num_in() > 3 || !v.has_in(0) || !v.has_in(1)) return std::nullopt;
  if (!OnlyFirstOutputs(v, 1)) return std::nullopt;
  p.has_bias = v.has_in(2);
  if (!ConvFamilyAttrsOk(v, &p.group)) return std::nullopt;
  if (!v.static_shapes) return p;

  p.x = v.in_dims(0);
  p.w = v.in_dims(1);
  p.y = v.out_dims(0);
  const int r = static_cast<int>(p.x.size());
  const int nsp = r - 2;
  if (static_cast<int>(p.w.size()) != r || static_cast<int>(p.y.size()) != r) return std::nullopt;
  const int64_t c = p.x[1], m = p.w[1] * p.group;
  if (p.w[0] != c || c % p.group != 0) return std::nullopt;
  if (p.has_bias && v.in_dims(2) != Dims{m}) return std::nullopt;
  std::vector<int64_t> wk(p.w.begin() + 2, p.w.end());
  nn::Window win;
  nn::TransposeExtras extras;
  if (!nn::ParseWindow(a, nsp, &wk, false, &win).ok() || win.kernel != wk) return std::nullopt;
  if (!nn::ParseTransposeExtras(a, nsp, &extras).ok()) return std::nullopt;
  Dims want = {p.x[0], m};
  for (int i = 0; i < nsp; ++i) {
    auto o = nn::TransposeOutputDim(&win, extras, i, p.x[i + 2]);
    if (!o.ok()) return std::nullopt;
    want.push_back(*o);
    const int64_t extent = (win.kernel[i] - 1) * win.dilations[i] + 1;
    const int64_t pl = win.pads[i];
    // The right pad that makes oneDNN's size ((in - 1) * s + extent - pl - pr) the planned one: output_padding
    // and output_shape only move it. Negative pads (outputs that receive only the bias) stay on ref.
    const int64_t pr = (p.x[i + 2] - 1) * win.strides[i] + extent - pl - *o;
    if (pl < 0 || pr < 0) return std::nullopt;
    p.strides.push_back(win.strides[i]);
    p.dilates.push_back(win.dilations[i] - 1);
    p.pad_l.push_back(pl);
    p.pad_r.push_back(pr);
  }
  if (want != p.y) return std::nullopt;
  return p;
}

}  // namespace

bool ConvTransposeSupported(const OpView& v) { return PlanDeconv(v).has_value(); }

KernelPtr PrepareConvTranspose(const OpView& v) {
  const std::optional<DeconvPlan> plan = PlanDeconv(v);
  if (!plan) return nullptr;
  const DeconvPlan& p = *plan;
  auto k = std::make_unique<DnnlKernel>(*v.node, "dnnl.conv_transpose", v.threads);
  // Logical oneDNN weights: [G,] O/G, I/G, k... over ONNX bytes [G * I/G, O/G, k...].
  const int64_t g = p.group, ig = p.w[0] / g, og = p.w[1];
  int64_t ksize = 1;
  for (size_t i = 2; i < p.w.size(); ++i) ksize *= p.w[i];
  dnnl::memory::dims wd, ws;
  if (g > 1) {
    wd.push_back(g);
    ws.push_back(ig * og * ksize);
  }
  wd.push_back(og);
  ws.push_back(ksize);
  wd.push_back(ig);
  ws.push_back(og * ksize);
  int64_t stride = ksize;
  for (size_t i = 2; i < p.w.size(); ++i) {
    stride /= p.w[i];
    wd.push_back(p.w[i]);
    ws.push_back(stride);
  }
  // Activations in the slots' layouts (NHWC / NC1HWC0 inside convolution chains: no layout change around the
  // chain's upsampling steps).
  const dnnl::memory::desc src_md = ActivationDesc(v.in[0]), dst_md = ActivationDesc(v.out[0]),
                           w_plain = StridedDesc(wd, ws);
  const dnnl::memory::desc w_md = v.const_in(1) || v.variable_in(1)
                                      ? dnnl::memory::desc(wd, ComputeType(v), dnnl::memory::format_tag::any)
                                      : w_plain;
  const dnnl::memory::desc b_md = PlainDesc({og * g});
  using DF = dnnl::deconvolution_forward;
  const auto prop = dnnl::prop_kind::forward_inference;
  const auto alg = dnnl::algorithm::deconvolution_direct;
  const dnnl::memory::desc x_md = AsType(src_md, ComputeType(v));
  auto make_pd = [&](const dnnl::memory::desc& x, const dnnl::memory::desc& y) {
    const DF::desc d = p.has_bias ? DF::desc(prop, alg, x, w_md, b_md, y, p.strides, p.dilates, p.pad_l, p.pad_r)
                                  : DF::desc(prop, alg, x, w_md, y, p.strides, p.dilates, p.pad_l, p.pad_r);
    return SelectImpl(DF::primitive_desc(d, UserScratchpadAttr(), k->engine()), v.max_isa);
  };
  DF::primitive_desc pd = make_pd(x_md, dst_md);
  // In plain slots (and some NHWC ones) oneDNN runs its GEMM-based deconvolution: one GEMM, then a col2im pass that
  // adds up the windows' overlaps. Where windows overlap (a kernel longer than its stride: 4x4 stride 2) its direct
  // kernels in the layout they prefer, behind a reorder each way, are faster; where they do not (2x2 stride 2) the GEMM
  // is all the work there is.
  bool overlapping = false;
  for (size_t i = 0; i < p.strides.size(); ++i) overlapping |= p.w[i + 2] > p.strides[i];
  if (overlapping && std::string(pd.impl_info_str()).find("gemm") != std::string::npos) {
    try {
      const auto any = [](const dnnl::memory::desc& md) {
        return dnnl::memory::desc(md.dims(), md.data_type(), dnnl::memory::format_tag::any);
      };
      DF::primitive_desc direct = make_pd(any(x_md), any(dst_md));
      const std::string impl = direct.impl_info_str();
      if (!IsReferenceImpl(impl) && impl.find("gemm") == std::string::npos) pd = direct;
    } catch (const dnnl::error&) {
    }
  }
  const ActivationBinding act = BindActivations(k.get(), src_md, pd.src_desc(), dst_md, pd.dst_desc());
  std::vector<std::pair<int, dnnl::memory>> args = {
      {DNNL_ARG_SRC, act.src},
      {DNNL_ARG_WEIGHTS, WeightsMemory(k.get(), v, 1, w_plain, pd.weights_desc())},
      {DNNL_ARG_DST, act.dst},
  };
  if (p.has_bias) args.push_back({DNNL_ARG_BIAS, k->BindInput(2, b_md)});
  k->AddStep(DF(pd), pd, args);
  FinishActivations(k.get(), act);
  k->Finalize();
  return k;
}

}  // namespace ge::dnnl_kernels
