// MatMul and ge::FusedMatMul (A, B, [Bias]) -> Y = activation(MatMul(A, B) + Bias): oneDNN matmul with numpy
// semantics. 1-D operands get the unit dim ONNX adds; batch dims are unsqueezed to equal rank (oneDNN broadcasts
// batch dims of size 1 on either side); when B has no batch dims, A's batch dims fold into M (one 2-D matmul).
// A constant B is reordered once into the layout the primitive prefers. Bias is 1-D over N.
#include <algorithm>
#include <optional>

#include "kernels/dnnl/bf16_util.h"
#include "kernels/dnnl/dnnl_kernel.h"
#include "kernels/dnnl/impl_select.h"
#include "kernels/dnnl/dnnl_ops.h"

namespace ge::dnnl_kernels {
namespace {

struct MatMulPlan {
  bool fused = false, has_bias = false;
  Dims a, b, y, bias;  // oneDNN dims, all of one rank
  std::vector<EltStep> act;
};

std::optional<MatMulPlan> PlanMatMul(const OpView& v) {
  MatMulPlan p;
  p.fused = v.node->domain() == "ge";
  if (v.num_in() < 2 || v.num_in() > (p.fused ? 3 : 2) || !v.has_in(0) || !v.has_in(1)) return std::nullopt;
  if (!OnlyFirstOutputs(v, 1)) return std::nullopt;
  p.has_bias = p.fused && v.has_in(2);
  if (p.fused && (!ParseActivation(v.attrs(), &p.act) || !EltwiseChainOk(p.act))) return std::nullopt;
  if (v.in_rank(0) == 0 || v.in_rank(1) == 0) return std::nullopt;
  if (!v.static_shapes) return p;

  Dims a = v.in_dims(0), b = v.in_dims(1);
  const bool a_vec = a.size() == 1, b_vec = b.size() == 1;
  if (a_vec) a.insert(a.begin(), 1);
  if (b_vec) b.push_back(1);
  const int64_t m = a[a.size() - 2], k = a.back(), n = b.back();
  if (b[b.size() - 2] != k) return std::nullopt;
  const size_t r = std::max(a.size(), b.size());
  Dims onnx_y;  // what ONNX's output dims must be
  Dims batch;
  for (size_t i = 0; i + 2 < r; ++i) {
    const int64_t da = i + a.size() >= r ? a[i + a.size() - r] : 1;
    const int64_t db = i + b.size() >= r ? b[i + b.size() - r] : 1;
    if (da != db && da != 1 && db != 1) return std::nullopt;
    batch.push_back(std::max(da, db));
  }
  onnx_y = batch;
  if (!a_vec) onnx_y.push_back(m);
  if (!b_vec) onnx_y.push_back(n);
  if (onnx_y != v.out_dims(0)) return std::nullopt;
  if (p.has_bias && v.in_dims(2) != Dims{n}) return std::nullopt;
  if (b.size() == 2) {
    const int64_t rows = NumElements(a) / k;
    p.a = {rows, k};
    p.b = b;
    p.y = {rows, n};
  } else {
    p.a = a;
    p.b = b;
    p.a.insert(p.a.begin(), r - a.size(), 1);
    p.b.insert(p.b.begin(), r - b.size(), 1);
    p.y = batch;
    p.y.push_back(m);
    p.y.push_back(n);
  }
  p.bias.assign(p.y.size(), 1);
  p.bias.back() = n;
  return p;
}

}  // namespace

bool MatMulSupported(const OpView& v) { return PlanMatMul(v).has_value(); }

KernelPtr PrepareMatMul(const OpView& v) {
  const std::optional<MatMulPlan> plan = PlanMatMul(v);
  if (!plan) return nullptr;
  const MatMulPlan& p = *plan;
  auto k = std::make_unique<DnnlKernel>(*v.node, p.fused ? "dnnl.fused_matmul" : "dnnl.matmul", v.threads);
  const dnnl::memory::desc a_md = PlainDesc(p.a), b_plain = PlainDesc(p.b), y_md = PlainDesc(p.y);
  const dnnl::memory::desc b_md = AsType(v.const_in(1) || v.variable_in(1) ? AnyDesc(p.b) : b_plain, ComputeType(v));
  const dnnl::memory::desc a_ct = AsType(a_md, ComputeType(v));
  const dnnl::memory::desc bias_md = PlainDesc(p.bias);
  const dnnl::matmul::desc d =
      p.has_bias ? dnnl::matmul::desc(a_ct, b_md, bias_md, y_md) : dnnl::matmul::desc(a_ct, b_md, y_md);
  dnnl::primitive_attr attr = UserScratchpadAttr();
  if (!p.act.empty()) {
    dnnl::post_ops ops;
    if (!AppendEltwise(p.act, &ops)) return nullptr;
    attr.set_post_ops(ops);
  }
  const dnnl::matmul::primitive_desc pd = SelectImpl(dnnl::matmul::primitive_desc(d, attr, k->engine()), v.max_isa);
  std::vector<std::pair<int, dnnl::memory>> args = {
      {DNNL_ARG_SRC, InputAs(k.get(), 0, a_md, a_ct)},
      {DNNL_ARG_WEIGHTS, WeightsMemory(k.get(), v, 1, b_plain, pd.weights_desc())},
      {DNNL_ARG_DST, k->BindOutput(0, y_md)},
  };
  if (p.has_bias) args.push_back({DNNL_ARG_BIAS, k->BindInput(2, bias_md)});
  k->AddStep(dnnl::matmul(pd), pd, args);
  k->Finalize();
  return k;
}

}  // namespace ge::dnnl_kernels
