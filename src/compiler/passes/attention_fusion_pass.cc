// AttentionFusion: multi-head attention as torch.nn.MultiheadAttention exports it (sequence-first, opsets 13-17):
//   Qh = Transpose(Reshape(Q, [Sq, B*H, D]), [1, 0, 2]); Kt = Transpose(Reshape(K, [Sk, B*H, D]), [1, 2, 0]);
//   Vh = Transpose(Reshape(V, [Sk, B*H, D]), [1, 0, 2]);
//   O = MatMul(Softmax(MatMul(Div(Qh, c) | Mul(Qh, c), Kt), axis -1), Vh);  Y = Reshape(Transpose(O, [1, 0, 2]), s)
// becomes Y = Reshape(ge::Attention(Q, K, V), s) with num_heads H, head_size D and scale 1/c (or c). A Q, K or V
// that is a Slice of a wider tensor along its last axis (the packed in-projection output) is read in place through
// q_offset / k_offset / v_offset.
#include <string>
#include <vector>

#include "compiler/passes/fusion_util.h"
#include "compiler/passes/passes.h"

namespace ge::compiler {
namespace {

ir::Node* OnlyUser(const ir::Value* v) { return v && v->uses().size() == 1 ? v->uses()[0].node : nullptr; }

bool Dims3(const ir::Value* v, Dims* d) {
  const Shape& s = v->desc().shape;
  if (v->desc().dtype != DataType::kFloat || !s.IsFullyKnown() || s.rank() != 3) return false;
  *d = s.dims();
  return true;
}

bool HasPerm(const ir::Node* n, const std::vector<int64_t>& perm) {
  return IsOp(n, OpId::kTranspose) && n->attrs().GetInts("perm", {}) == perm;
}

// One of Q, K, V: the sequence-first source and where its heads start in it.
struct HeadSource {
  ir::Value* value = nullptr;
  int64_t offset = 0;
  std::vector<ir::Node*> nodes;  // removed with the match: the Reshape, the Transpose, an absorbed Slice
};

// t = Transpose(Reshape(src, [S, B*H, D]), perm): the source of `t` for `heads` heads of `size`.
bool MatchHeads(const FusionScope& scope, ir::Value* t, const std::vector<int64_t>& perm, int64_t heads,
                int64_t size, HeadSource* out) {
  ir::Node* tr = t->producer();
  if (!HasPerm(tr, perm) || !scope.Internal(t) || !scope.Removable(tr)) return false;
  ir::Value* r = tr->input(0);
  ir::Node* reshape = r->producer();
  Dims rd, sd;
  if (!IsOp(reshape, OpId::kReshape) || !scope.Internal(r) || !scope.Removable(reshape) || !Dims3(r, &rd)) return false;
  ir::Value* src = reshape->input(0);
  if (!Dims3(src, &sd) || rd[0] != sd[0] || rd[1] != sd[1] * heads || rd[2] != size || sd[2] != heads * size) {
    return false;
  }
  out->value = src;
  out->offset = 0;
  out->nodes = {tr, reshape};
  ir::Node* slice = src->producer();
  if (!IsOp(slice, OpId::kSlice) || !scope.Internal(src) || !scope.Removable(slice) || slice->num_inputs() < 3) {
    return true;
  }
  Dims wd;
  if (!Dims3(slice->input(0), &wd) || wd[0] != sd[0] || wd[1] != sd[1]) return true;
  const Tensor* starts = ConstTensor(slice->input(1));
  const Tensor* axes = slice->num_inputs() > 3 ? ConstTensor(slice->input(3)) : nullptr;
  const Tensor* steps = slice->num_inputs() > 4 ? ConstTensor(slice->input(4)) : nullptr;
  if (!starts || starts->numel() != 1 || (slice->num_inputs() > 3 && slice->input(3) && !axes)) return true;
  if (slice->num_inputs() > 4 && slice->input(4) && (!steps || steps->numel() != 1 || steps->GetAsDouble(0) != 1)) {
    return true;
  }
  const double axis = axes ? axes->GetAsDouble(0) : 0;
  if (!axes || axes->numel() != 1 || (axis != -1 && axis != 2)) return true;
  int64_t start = static_cast<int64_t>(starts->GetAsDouble(0));
  if (start < 0) start += wd[2];
  if (start < 0 || start + sd[2] > wd[2]) return true;
  out->value = slice->input(0);
  out->offset = start;
  out->nodes.push_back(slice);
  return true;
}

class AttentionFusionPass : public FusionPass {
 public:
  const char* name() const override { return "AttentionFusion"; }

 protected:
  StatusOr<bool> FuseGraph(ir::Graph& g, const PassContext& ctx) override {
    FusionScope scope(g);
    const bool softmax_last_default = ctx.OpsetFor("") >= 13;
    GE_ASSIGN_OR_RETURN(std::vector<ir::Node*> order, g.TopologicalOrder());
    std::vector<ir::Node*> softmaxes;
    for (ir::Node* n : order) {
      if (IsOp(n, OpId::kSoftmax)) softmaxes.push_back(n);
    }
    bool changed = false;
    for (ir::Node* sm : softmaxes) {
      const int64_t axis = sm->attrs().GetInt("axis", softmax_last_default ? -1 : 1);
      if (axis != -1 && axis != 2) continue;
      if (TryFuse(g, scope, sm)) changed = true;
    }
    return changed;
  }

 private:
  static bool TryFuse(ir::Graph& g, const FusionScope& scope, ir::Node* sm) {
    ir::Node* mm1 = sm->input(0)->producer();
    ir::Node* mm2 = OnlyUser(sm->output(0));
    if (!IsOp(mm1, OpId::kMatMul) || !scope.Internal(sm->input(0)) || !IsOp(mm2, OpId::kMatMul) ||
        mm2->input(0) != sm->output(0) || !scope.Internal(sm->output(0))) {
      return false;
    }
    ir::Node* merge = OnlyUser(mm2->output(0));
    if (!HasPerm(merge, {1, 0, 2}) || !scope.Internal(mm2->output(0))) return false;
    ir::Node* out_reshape = OnlyUser(merge->output(0));
    if (!IsOp(out_reshape, OpId::kReshape) || out_reshape->input(0) != merge->output(0) ||
        !scope.Internal(merge->output(0))) {
      return false;
    }
    Dims od;
    if (!Dims3(mm2->output(0), &od)) return false;
    // The scale on Q's heads.
    ir::Value* qs = mm1->input(0);
    ir::Node* scale_node = qs->producer();
    double c = 0;
    if ((!IsOp(scale_node, OpId::kDiv) && !IsOp(scale_node, OpId::kMul)) || !scope.Internal(qs) ||
        !scope.Removable(scale_node) || scale_node->input(0) == nullptr ||
        !ScalarConst(scale_node->input(1), DataType::kFloat, 1, &c) || c == 0) {
      return false;
    }
    const double scale = IsOp(scale_node, OpId::kDiv) ? 1.0 / c : c;
    // Heads: Q's source [Sq, B, E] gives B; [B*H, Sq, D] gives H and D.
    Dims qd;
    if (!Dims3(scale_node->input(0), &qd)) return false;
    const int64_t size = qd[2];
    ir::Node* q_tr = scale_node->input(0)->producer();
    if (q_tr == nullptr || q_tr->input(0) == nullptr || q_tr->input(0)->producer() == nullptr) return false;
    Dims qsrc;
    ir::Node* q_reshape = q_tr->input(0)->producer();
    if (!IsOp(q_reshape, OpId::kReshape) || !Dims3(q_reshape->input(0), &qsrc) || qsrc[1] == 0 ||
        qd[0] % qsrc[1] != 0) {
      return false;
    }
    const int64_t heads = qd[0] / qsrc[1];
    HeadSource q, k, v;
    if (!MatchHeads(scope, scale_node->input(0), {1, 0, 2}, heads, size, &q) ||
        !MatchHeads(scope, mm1->input(1), {1, 2, 0}, heads, size, &k) ||
        !MatchHeads(scope, mm2->input(1), {1, 0, 2}, heads, size, &v)) {
      return false;
    }
    std::vector<ir::Node*> nodes = {scale_node, mm1, sm, mm2, merge};
    for (const HeadSource* h : {&q, &k, &v}) nodes.insert(nodes.end(), h->nodes.begin(), h->nodes.end());
    for (ir::Node* n : nodes) {
      if (!scope.Removable(n)) return false;
    }
    ir::AttrMap attrs;
    attrs.Set("num_heads", ir::AttrValue::Int(heads));
    attrs.Set("head_size", ir::AttrValue::Int(size));
    attrs.Set("q_offset", ir::AttrValue::Int(q.offset));
    attrs.Set("k_offset", ir::AttrValue::Int(k.offset));
    attrs.Set("v_offset", ir::AttrValue::Int(v.offset));
    attrs.Set("scale", ir::AttrValue::Float(static_cast<float>(scale)));
    std::string name = merge->output(0)->name() + "/heads";
    while (g.FindValue(name) != nullptr) name += "_";
    ir::Value* y = g.AddValue(name, TensorDesc(DataType::kFloat, Shape(Dims{od[1], qsrc[1], heads * size})));
    const std::string node_name = mm1->name();
    for (ir::Node* n : nodes) g.RemoveNode(n);
    ir::Node* fused = g.AddNode(ops::OpName(OpId::kGeAttention), node_name, {q.value, k.value, v.value}, {y},
                                ops::OpDomain(OpId::kGeAttention));
    fused->attrs() = attrs;
    out_reshape->SetInput(0, y);
    return true;
  }
};

}  // namespace

std::unique_ptr<GraphPass> CreateAttentionFusionPass() { return std::make_unique<AttentionFusionPass>(); }

}  // namespace ge::compiler
