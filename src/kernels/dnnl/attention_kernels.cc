// ge::Attention (Q, K, V sequence-first, heads read at offsets; ops/fused/transformer_ops.cc): three oneDNN
// primitives on 4-D views [B, H, S, D] whose strides do the head split and merge, so no data is transposed:
//   scores = (Q * scale) Kᵀ   matmul, the scale as output scale, into a kernel-owned [B, H, Sq, Sk] buffer
//   scores = softmax(scores)  softmax_v2 (accurate) over Sk, in place
//   Y = scores V              matmul writing Y[s, b, h*D + d] directly
// With allow_bf16, Q, K and V are first reordered into dense bf16 [B, H, S, D] buffers and softmax writes bf16
// scores for the second matmul; scores, softmax and Y stay f32.
#include <optional>

#include "kernels/dnnl/bf16_util.h"
#include "kernels/dnnl/dnnl_kernel.h"
#include "kernels/dnnl/impl_select.h"
#include "kernels/dnnl/dnnl_ops.h"

namespace ge::dnnl_kernels {
namespace {

struct AttentionPlan {
  int64_t sq = 0, sk = 0, batch = 0, heads = 0, size = 0, cq = 0, ck = 0, cv = 0, oq = 0, ok = 0, ov = 0;
  float scale = 1.f;
};

std::optional<AttentionPlan> PlanAttention(const OpView& v) {
  const ir::AttrMap& a = v.attrs();
  AttentionPlan p;
  p.heads = a.GetInt("num_heads", 0);
  p.size = a.GetInt("head_size", 0);
  p.oq = a.GetInt("q_offset", 0);
  p.ok = a.GetInt("k_offset", 0);
  p.ov = a.GetInt("v_offset", 0);
  p.scale = a.GetFloat("scale", 1.f);
  if (v.num_in() != 3 || !OnlyFirstOutputs(v, 1) || p.heads < 1 || p.size < 1 || p.oq < 0 || p.ok < 0 || p.ov < 0) {
    return std::nullopt;
  }
  for (int i = 0; i < 3; ++i) {
    if (!v.has_in(i) || (v.in_rank(i) >= 0 && v.in_rank(i) != 3)) return std::nullopt;
  }
  if (!v.static_shapes) return p;
  const Dims &q = v.in_dims(0), &k = v.in_dims(1), &val = v.in_dims(2);
  p.sq = q[0];
  p.sk = k[0];
  p.batch = q[1];
  p.cq = q[2];
  p.ck = k[2];
  p.cv = val[2];
  const int64_t e = p.heads * p.size;
  if (k[1] != p.batch || val[1] != p.batch || val[0] != p.sk || p.oq + e > p.cq || p.ok + e > p.ck ||
      p.ov + e > p.cv || v.out_dims(0) != Dims{p.sq, p.batch, e}) {
    return std::nullopt;
  }
  return p;
}

// The [B, H, S, D] heads of a sequence-first [S, B, C] tensor starting at `offset`; transposed: [B, H, D, S].
dnnl::memory::desc HeadsDesc(const AttentionPlan& p, int64_t seq, int64_t c, int64_t offset, bool transposed) {
  dnnl::memory::desc md =
      transposed ? StridedDesc({p.batch, p.heads, p.size, seq}, {c, p.size, 1, p.batch * c})
                 : StridedDesc({p.batch, p.heads, seq, p.size}, {c, p.size, p.batch * c, 1});
  md.data.offset0 = offset;
  return md;
}

}  // namespace

bool AttentionSupported(const OpView& v) { return PlanAttention(v).has_value(); }

KernelPtr PrepareAttention(const OpView& v) {
  const std::optional<AttentionPlan> plan = PlanAttention(v);
  if (!plan) return nullptr;
  const AttentionPlan& p = *plan;
  auto k = std::make_unique<DnnlKernel>(*v.node, "dnnl.attention", v.threads);
  const dnnl::memory::desc q_md = HeadsDesc(p, p.sq, p.cq, p.oq, false);
  const dnnl::memory::desc kt_md = HeadsDesc(p, p.sk, p.ck, p.ok, true);
  const dnnl::memory::desc v_md = HeadsDesc(p, p.sk, p.cv, p.ov, false);
  const dnnl::memory::desc y_md = HeadsDesc(p, p.sq, p.heads * p.size, 0, false);
  const dnnl::memory::desc s_md = PlainDesc({p.batch, p.heads, p.sq, p.sk});
  const dnnl::memory scores = k->IntermediateMemory(s_md);
  const auto ct = v.bf16 ? dnnl::memory::data_type::bf16 : dnnl::memory::data_type::f32;
  // The operands as the matmuls read them: the slots' views (f32), or dense bf16 copies.
  const auto operand = [&](const dnnl::memory::desc& view, const Dims& dense) {
    return v.bf16 ? AsType(PlainDesc(dense), ct) : view;
  };
  const dnnl::memory::desc q_ct = operand(q_md, {p.batch, p.heads, p.sq, p.size});
  const dnnl::memory::desc kt_ct = operand(kt_md, {p.batch, p.heads, p.size, p.sk});
  const dnnl::memory::desc v_ct = operand(v_md, {p.batch, p.heads, p.sk, p.size});
  const dnnl::memory::desc probs_md = AsType(s_md, ct);
  const dnnl::memory probs = v.bf16 ? k->IntermediateMemory(probs_md) : scores;

  dnnl::primitive_attr attr1 = UserScratchpadAttr();
  if (p.scale != 1.f) attr1.set_output_scales(0, {p.scale});
  const dnnl::matmul::primitive_desc pd1 = SelectImpl(dnnl::matmul::primitive_desc(dnnl::matmul::desc(q_ct, kt_ct, s_md), attr1, k->engine()), v.max_isa);
  const dnnl::memory q = InputAs(k.get(), 0, q_md, q_ct), kt = InputAs(k.get(), 1, kt_md, kt_ct);
  k->AddStep(dnnl::matmul(pd1), pd1, {{DNNL_ARG_SRC, q}, {DNNL_ARG_WEIGHTS, kt}, {DNNL_ARG_DST, scores}});

  using SF = dnnl::softmax_v2_forward;
  const SF::desc sd(dnnl::prop_kind::forward_inference, dnnl::algorithm::softmax_accurate, s_md, probs_md, 3);
  const SF::primitive_desc spd = SelectImpl(SF::primitive_desc(sd, UserScratchpadAttr(), k->engine()), v.max_isa);
  k->AddStep(SF(spd), spd, {{DNNL_ARG_SRC, scores}, {DNNL_ARG_DST, probs}});

  const dnnl::matmul::primitive_desc pd2 = SelectImpl(dnnl::matmul::primitive_desc(dnnl::matmul::desc(probs_md, v_ct, y_md), UserScratchpadAttr(), k->engine()), v.max_isa);
  const dnnl::memory val = InputAs(k.get(), 2, v_md, v_ct);
  k->AddStep(dnnl::matmul(pd2), pd2, {{DNNL_ARG_SRC, probs}, {DNNL_ARG_WEIGHTS, val}, {DNNL_ARG_DST, k->BindOutput(0, y_md)}});
  k->Finalize();
  return k;
}

}  // namespace ge::dnnl_kernels
