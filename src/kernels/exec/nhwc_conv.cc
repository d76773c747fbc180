#include "kernels/exec/nhwc_conv.h"

#include "kernels/exec/kernel_util.h"
#include "ops/fused/fused_activation.h"

namespace ge::exec {

bool ParseConvEpilogue(const ir::Node& node, ConvEpilogue* e) {
  if (node.domain().empty()) return true;
  fused::ActivationSpec spec;
  if (!fused::ParseActivation(node.attrs(), &spec).ok()) return false;
  switch (spec.kind) {
    case fused::Activation::kNone: e->act = ConvAct::kNone; return true;
    case fused::Activation::kRelu: e->act = ConvAct::kRelu; return true;
    case fused::Activation::kClip:
      e->act = ConvAct::kClip;
      e->lo = spec.param[0];
      e->hi = spec.param[1];
      return e->lo <= e->hi;
    default: return false;
  }
}

namespace {

bool IsNhwcFloat4d(const TensorDesc& d) {
  return d.dtype == DataType::kFloat && d.format == Format::kNHWC && d.shape.rank() == 4 && d.shape.IsFullyKnown();
}

}  // namespace

std::optional<NhwcConv> ParseNhwcConv(const PrepareRequest& r) {
  if (r.node == nullptr || HasVaryingDims(r) || r.allow_bf16) return std::nullopt;
  const ir::Node& node = *r.node;
  const bool fused = node.domain() == "ge" && node.op_type() == "FusedConv";
  if (!fused && !(node.domain().empty() && node.op_type() == "Conv")) return std::nullopt;
  const size_t n_in = r.input_descs.size();
  if (n_in < 2 || n_in > (fused ? 4u : 3u) || r.output_descs.size() != 1 || !InputPresent(r, 0) ||
      !OutputPresent(r, 0)) {
    return std::nullopt;
  }
  NhwcConv c;
  c.has_bias = n_in > 2 && InputPresent(r, 2);
  c.has_sum = n_in > 3 && InputPresent(r, 3);
  c.w = ConstInput(r, 1);
  const TensorDesc& xd = r.input_descs[0];
  const TensorDesc& yd = r.output_descs[0];
  if (c.w == nullptr || c.w->dtype() != DataType::kFloat || !IsNhwcFloat4d(xd) || !IsNhwcFloat4d(yd)) {
    return std::nullopt;
  }
  if (node.attrs().GetInt("group", 1) != 1 || !ParseConvEpilogue(node, &c.epilogue)) return std::nullopt;
  c.x = xd.shape.dims();
  const Dims& wd = c.w->dims();
  if (wd.size() != 4 || wd[1] != c.x[1] || wd[2] < 1 || wd[3] < 1) return std::nullopt;
  std::vector<int64_t> wk = {wd[2], wd[3]};
  if (!nn::ParseWindow(node.attrs(), 2, &wk, false, &c.window).ok() || c.window.kernel != wk) return std::nullopt;
  c.y = {c.x[0], wd[0]};
  for (int i = 0; i < 2; ++i) {
    StatusOr<int64_t> o = nn::WindowOutputDim(&c.window, i, c.x[i + 2]);
    if (!o.ok()) return std::nullopt;
    c.y.push_back(*o);
  }
  if (c.y != yd.shape.dims() || c.window.dilations != std::vector<int64_t>{1, 1}) return std::nullopt;
  if (c.has_bias && (r.input_descs[2].dtype != DataType::kFloat || r.input_descs[2].shape.dims() != Dims{wd[0]})) {
    return std::nullopt;
  }
  if (c.has_sum && (!IsNhwcFloat4d(r.input_descs[3]) || r.input_descs[3].shape.dims() != c.y)) return std::nullopt;
  return c;
}

ScratchState::ScratchState(size_t floats) : owned_(floats + 16) {
  buffer_ = reinterpret_cast<float*>((reinterpret_cast<uintptr_t>(owned_.data()) + 63) & ~uintptr_t{63});
}

}  // namespace ge::exec
