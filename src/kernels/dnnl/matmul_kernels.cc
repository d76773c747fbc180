// MatMul and ge::FusedMatMul (A, B, [Bias]) -> Y = activation(MatMul(A, B) + Bias): oneDNN matmul with numpy
// semantics. 1-D operands get the unit dim ONNX adds; batch dims are unsqueezed to equal rank (oneDNN broadcasts
// batch dims of size 1 on either side); when B has no batch dims, A's batch dims fold into M (one 2-D matmul).
// A constant B is reordered once into the layout the primitive prefers. Bias is 1-D over N.
// Shape-agnostic form (runtime v2, dims that vary between runs): M, K and N that vary are oneDNN runtime dims
// (DNNL_RUNTIME_DIM_VAL), so one primitive serves every sequence length; A's folded batch dims may vary too.
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
  bool folded = false;  // B is 2-D: A's batch dims fold into M
  size_t rank_a = 0, rank_b = 0;  // the ONNX ranks (both >= 2 unless a vector operand)
  bool vector_operand = false;
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
  p.vector_operand = a_vec || b_vec;
  p.rank_a = a.size();
  p.rank_b = b.size();
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
  p.folded = b.size() == 2;
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

// Which of M, K, N vary, as runtime dims of the plan's oneDNN descs, and per input the ONNX dims the kernel then
// reads at run (batch dims stay fixed unless folded into M). False when the kernel cannot be shape-agnostic: no
// such dim varies, a vector operand, the bias length varies, bfloat16 compute.
struct RuntimeDims {
  bool m = false, k = false, n = false;
  std::vector<std::vector<bool>> inputs;  // per node input
};

bool PlanRuntimeDims(const OpView& v, const MatMulPlan& p, RuntimeDims* rt) {
  if (v.varying.empty() || p.vector_operand || v.bf16) return false;
  const size_t ra = p.rank_a, rb = p.rank_b;
  rt->inputs.assign(static_cast<size_t>(v.num_in()), {});
  std::vector<bool>& a = rt->inputs[0];
  std::vector<bool>& b = rt->inputs[1];
  a.assign(ra, false);
  b.assign(rb, false);
  if (p.folded) {
    for (size_t i = 0; i + 1 < ra; ++i) a[i] = v.varying_dim(0, i);
    rt->m = std::find(a.begin(), a.end(), true) != a.end();
  } else {
    a[ra - 2] = rt->m = v.varying_dim(0, ra - 2);
  }
  // K is fixed by a constant operand (or a session variable): the other's must match it.
  const bool a_fixed = v.const_in(0) != nullptr || v.variable_in(0);
  const bool b_fixed = v.const_in(1) != nullptr || v.variable_in(1);
  if (a_fixed) std::fill(a.begin(), a.end(), false);
  rt->m = rt->m && !a_fixed;
  a[ra - 1] = b[rb - 2] = rt->k = !a_fixed && !b_fixed && (v.varying_dim(0, ra - 1) || v.varying_dim(1, rb - 2));
  b[rb - 1] = rt->n = !b_fixed && v.varying_dim(1, rb - 1);
  if (rt->n && p.has_bias) return false;
  if (p.has_bias) rt->inputs[2].assign(1, false);
  return rt->m || rt->k || rt->n;
}

// User scratchpad and the fused activation as eltwise post-ops; false when oneDNN cannot express the activation.
bool MatMulAttr(const MatMulPlan& p, dnnl::primitive_attr* attr) {
  *attr = UserScratchpadAttr();
  if (p.act.empty()) return true;
  dnnl::post_ops ops;
  if (!AppendEltwise(p.act, &ops)) return false;
  attr->set_post_ops(ops);
  return true;
}

// The plan's dims with the runtime ones marked.
Dims WithRuntime(Dims d, bool m_or_k_row, bool col) {
  const size_t r = d.size();
  if (m_or_k_row) d[r - 2] = DNNL_RUNTIME_DIM_VAL;
  if (col) d[r - 1] = DNNL_RUNTIME_DIM_VAL;
  return d;
}

dnnl::memory::desc RuntimeDesc(const Dims& d) {
  return dnnl::memory::desc(ToDnnlDims(d), dnnl::memory::data_type::f32,
                            d.size() == 2 ? dnnl::memory::format_tag::ab
                            : d.size() == 3 ? dnnl::memory::format_tag::abc
                            : d.size() == 4 ? dnnl::memory::format_tag::abcd
                            : d.size() == 5 ? dnnl::memory::format_tag::abcde
                                            : dnnl::memory::format_tag::abcdef);
}

// The shape-agnostic kernel, or null when oneDNN offers only a reference implementation for it (the caller then
// prepares for the request's dims).
KernelPtr PrepareRuntimeDimsMatMul(const OpView& v, const MatMulPlan& p, const RuntimeDims& rt) {
  auto k = std::make_unique<DnnlKernel>(*v.node, p.fused ? "dnnl.fused_matmul" : "dnnl.matmul", v.threads);
  const dnnl::memory::desc a_md = RuntimeDesc(WithRuntime(p.a, rt.m, rt.k));
  const dnnl::memory::desc b_rt = RuntimeDesc(WithRuntime(p.b, rt.k, rt.n));
  const dnnl::memory::desc y_md = RuntimeDesc(WithRuntime(p.y, rt.m, rt.n));
  const bool weights_fixed = v.const_in(1) != nullptr || v.variable_in(1);
  const dnnl::memory::desc b_md = weights_fixed && !rt.k && !rt.n ? AnyDesc(p.b) : b_rt;
  const dnnl::memory::desc bias_md = PlainDesc(p.bias);
  const dnnl::matmul::desc d =
      p.has_bias ? dnnl::matmul::desc(a_md, b_md, bias_md, y_md) : dnnl::matmul::desc(a_md, b_md, y_md);
  dnnl::primitive_attr attr;
  if (!MatMulAttr(p, &attr)) return nullptr;
  const dnnl::matmul::primitive_desc pd = SelectImpl(dnnl::matmul::primitive_desc(d, attr, k->engine()), v.max_isa);
  if (IsReferenceImpl(pd.impl_info_str())) return nullptr;
  const int ra = static_cast<int>(p.rank_a), rb = static_cast<int>(p.rank_b);
  const int r = static_cast<int>(p.a.size());
  // Folded: A [batch..., M, K] -> [prod(batch..., M), K], Y likewise; else batch dims padded with ones to rank r.
  const DnnlKernel::SlotDims a_map = p.folded ? DnnlKernel::SlotDims{0, ra - 1} : DnnlKernel::SlotDims{r - ra, 0};
  const DnnlKernel::SlotDims y_map = p.folded ? DnnlKernel::SlotDims{0, ra - 1} : DnnlKernel::SlotDims{0, 0};
  dnnl::memory b_mem;
  if (b_md == b_rt && (rt.k || rt.n)) {
    b_mem = k->BindInputDims(1, b_rt, DnnlKernel::SlotDims{r - rb, 0});
  } else {
    b_mem = WeightsMemory(k.get(), v, 1, PlainDesc(p.b), pd.weights_desc());
  }
  std::vector<std::pair<int, dnnl::memory>> args = {
      {DNNL_ARG_SRC, k->BindInputDims(0, a_md, a_map)},
      {DNNL_ARG_WEIGHTS, b_mem},
      {DNNL_ARG_DST, k->BindOutputDims(0, y_md, y_map)},
  };
  if (p.has_bias) args.push_back({DNNL_ARG_BIAS, k->BindInput(2, bias_md)});
  k->AddStep(dnnl::matmul(pd), pd, args);
  k->Finalize();
  // oneDNN's brgemm kernels, blocked for the shape with prepacked weights, beat the runtime-dims GEMM.
  k->SetShapeAgnostic(rt.inputs, /*prefers_specialized=*/true);
  return k;
}

}  // namespace

bool MatMulSupported(const OpView& v) { return PlanMatMul(v).has_value(); }

KernelPtr PrepareMatMul(const OpView& v) {
  const std::optional<MatMulPlan> plan = PlanMatMul(v);
  if (!plan) return nullptr;
  const MatMulPlan& p = *plan;
  RuntimeDims rt;
  if (PlanRuntimeDims(v, p, &rt)) {
    if (KernelPtr k = PrepareRuntimeDimsMatMul(v, p, rt)) return k;
  }
  auto k = std::make_unique<DnnlKernel>(*v.node, p.fused ? "dnnl.fused_matmul" : "dnnl.matmul", v.threads);
  const dnnl::memory::desc a_md = PlainDesc(p.a), b_plain = PlainDesc(p.b), y_md = PlainDesc(p.y);
  const dnnl::memory::desc b_md = AsType(v.const_in(1) || v.variable_in(1) ? AnyDesc(p.b) : b_plain, ComputeType(v));
  const dnnl::memory::desc a_ct = AsType(a_md, ComputeType(v));
  const dnnl::memory::desc bias_md = PlainDesc(p.bias);
  const dnnl::matmul::desc d =
      p.has_bias ? dnnl::matmul::desc(a_ct, b_md, bias_md, y_md) : dnnl::matmul::desc(a_ct, b_md, y_md);
  dnnl::primitive_attr attr;
  if (!MatMulAttr(p, &attr)) return nullptr;
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
