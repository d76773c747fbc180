// BatchNormFolding: BatchNormalization in inference mode is y = x * s + t per channel (axis 1), with
// s = scale / sqrt(var + epsilon) and t = bias - mean * s. When x comes from a Conv, a Gemm, or MatMul + Add with
// constant weights and nothing else reads x, s and t go into the weights and bias and the BN node disappears.
// The arithmetic is done in double and rounded once to the weights' type.
#include <cmath>
#include <set>
#include <string>
#include <vector>

#include "compiler/passes/pass_util.h"
#include "compiler/passes/passes.h"

namespace ge::compiler {
namespace {

const Tensor* Const(const ir::Value* v) {
  return v && v->is_constant() && !v->is_graph_input() ? v->const_value() : nullptr;
}

bool FloatConst(const Tensor* t) { return t && IsFloatingPoint(t->dtype()); }

// The per-channel affine form of a BN node; empty when the node cannot be folded.
struct Affine {
  std::vector<double> s, t;
};

bool BnAffine(const ir::Graph& g, const ir::Node& bn, const PassContext& ctx, const std::set<std::string>& captured,
              Affine* out) {
  int64_t opset = ctx.OpsetFor(bn.domain());
  if (bn.attrs().GetInt("training_mode", 0) != 0) return false;
  if (opset < 7 && bn.attrs().GetInt("is_test", 0) == 0) return false;
  if (opset < 9 && bn.attrs().GetInt("spatial", 1) == 0) return false;
  for (int i = 1; i < bn.num_outputs(); ++i) {
    const ir::Value* o = bn.output(i);
    if (o && (!o->uses().empty() || g.IsGraphOutput(o) || captured.count(o->name()))) return false;
  }
  const Tensor* p[4];
  for (int i = 0; i < 4; ++i) {
    p[i] = Const(bn.input(i + 1));
    if (!FloatConst(p[i]) || p[i]->numel() != p[0]->numel()) return false;
  }
  double eps = bn.attrs().GetFloat("epsilon", 1e-5f);
  std::vector<double> scale = ToDoubles(*p[0]), bias = ToDoubles(*p[1]), mean = ToDoubles(*p[2]),
                      var = ToDoubles(*p[3]);
  out->s.resize(scale.size());
  out->t.resize(scale.size());
  for (size_t c = 0; c < scale.size(); ++c) {
    out->s[c] = scale[c] / std::sqrt(var[c] + eps);
    out->t[c] = bias[c] - mean[c] * out->s[c];
  }
  return true;
}

// Per-channel bias of length n from a constant broadcast along the last axis (absent = 0); false if it is not one.
bool ChannelBias(const ir::Value* v, int64_t n, double factor, std::vector<double>* out) {
  out->assign(n, 0.0);
  if (!v) return true;
  const Tensor* t = Const(v);
  if (!FloatConst(t)) return false;
  bool per_channel = t->numel() == n && (t->rank() == 1 || (t->rank() == 2 && t->dim(0) == 1));
  if (t->numel() != 1 && !per_channel) return false;
  for (int64_t c = 0; c < n; ++c) (*out)[c] = factor * t->GetAsDouble(t->numel() == 1 ? 0 : c);
  return true;
}

class BatchNormFoldingPass : public GraphLevelPass {
 public:
  const char* name() const override { return "BatchNormFolding"; }

  StatusOr<bool> RunOnGraph(ir::Graph& g, const PassContext& ctx) override {
    std::set<std::string> captured = CapturedNames(g);
    GE_ASSIGN_OR_RETURN(std::vector<ir::Node*> order, g.TopologicalOrder());
    bool changed = false;
    for (ir::Node* bn : order) {
      if (!IsOp(bn, OpId::kBatchNormalization)) continue;
      ir::Value* x = bn->input(0);
      if (!x || !x->producer() || x->producer()->graph() != &g || !SoleUse(g, x, captured)) continue;
      Affine a;
      if (!BnAffine(g, *bn, ctx, captured, &a)) continue;
      ir::Node* p = x->producer();
      bool folded = false;
      if (IsOp(p, OpId::kConv)) {
        GE_ASSIGN_OR_RETURN(folded, FoldConv(g, p, a));
      } else if (IsOp(p, OpId::kGemm)) {
        GE_ASSIGN_OR_RETURN(folded, FoldGemm(g, p, a));
      } else if (IsOp(p, OpId::kAdd)) {
        GE_ASSIGN_OR_RETURN(folded, FoldMatMulAdd(g, p, x, a, captured));
      }
      if (!folded) continue;
      ir::Value* z = bn->output(0);
      g.RemoveNode(bn);
      if (z && (g.IsGraphOutput(z) || captured.count(z->name()))) {
        GE_ASSIGN_OR_RETURN(ir::Node* fresh, RebindOutput(g, p, x->producer_output(), z));
        (void)fresh;
      } else if (z) {
        g.ReplaceAllUses(z, x);
      }
      changed = true;
    }
    if (changed) RemoveDeadValuesKeepingCaptured(g);
    return changed;
  }

 private:
  static bool SoleUse(const ir::Graph& g, const ir::Value* v, const std::set<std::string>& captured) {
    return v->uses().size() == 1 && !g.IsGraphOutput(v) && !captured.count(v->name());
  }

  static StatusOr<ir::Value*> AddConst(ir::Graph& g, const std::string& base, DataType dt, const Dims& dims,
                                       const std::vector<double>& values) {
    GE_ASSIGN_OR_RETURN(Tensor t, FromDoubles(dt, dims, values));
    return g.AddConstant(g.UniqueValueName(base), std::move(t));
  }

  // W[m, ...] *= s[m]; B[m] = B[m] * s[m] + t[m].
  static StatusOr<bool> FoldConv(ir::Graph& g, ir::Node* conv, const Affine& a) {
    const Tensor* w = Const(conv->input(1));
    const int64_t c = static_cast<int64_t>(a.s.size());
    if (!FloatConst(w) || w->rank() < 3 || w->dim(0) != c) return false;
    std::vector<double> bias;
    if (!ChannelBias(conv->input(2), c, 1.0, &bias)) return false;
    std::vector<double> wv = ToDoubles(*w);
    const int64_t per = w->numel() / c;
    for (int64_t m = 0; m < c; ++m)
      for (int64_t k = 0; k < per; ++k) wv[m * per + k] *= a.s[m];
    for (int64_t m = 0; m < c; ++m) bias[m] = bias[m] * a.s[m] + a.t[m];
    GE_ASSIGN_OR_RETURN(ir::Value* nw, AddConst(g, conv->input(1)->name() + "_bn", w->dtype(), w->dims(), wv));
    std::string bias_name = conv->input(2) ? conv->input(2)->name() + "_bn" : conv->name() + "_bias";
    GE_ASSIGN_OR_RETURN(ir::Value* nb, AddConst(g, bias_name, w->dtype(), {c}, bias));
    conv->SetInput(1, nw);
    conv->SetInput(2, nb);
    return true;
  }

  // Y = alpha * A' B' + beta * C: the columns of B' scale by s, C becomes beta * C * s + t and beta 1.
  static StatusOr<bool> FoldGemm(ir::Graph& g, ir::Node* gemm, const Affine& a) {
    const Tensor* b = Const(gemm->input(1));
    const int64_t n = static_cast<int64_t>(a.s.size());
    const bool trans_b = gemm->attrs().GetInt("transB", 0) != 0;
    if (!FloatConst(b) || b->rank() != 2 || b->dim(trans_b ? 0 : 1) != n) return false;
    std::vector<double> bias;
    if (!ChannelBias(gemm->input(2), n, gemm->attrs().GetFloat("beta", 1.0f), &bias)) return false;
    std::vector<double> bv = ToDoubles(*b);
    for (int64_t r = 0; r < b->dim(0); ++r)
      for (int64_t col = 0; col < b->dim(1); ++col) bv[r * b->dim(1) + col] *= a.s[trans_b ? r : col];
    for (int64_t c = 0; c < n; ++c) bias[c] = bias[c] * a.s[c] + a.t[c];
    GE_ASSIGN_OR_RETURN(ir::Value* nb, AddConst(g, gemm->input(1)->name() + "_bn", b->dtype(), b->dims(), bv));
    std::string c_name = gemm->input(2) ? gemm->input(2)->name() + "_bn" : gemm->name() + "_bias";
    GE_ASSIGN_OR_RETURN(ir::Value* nc, AddConst(g, c_name, b->dtype(), {n}, bias));
    gemm->SetInput(1, nb);
    gemm->SetInput(2, nc);
    gemm->attrs().Set("beta", ir::AttrValue::Float(1.0f));
    return true;
  }

  // Add(MatMul(A, W), b) with a rank-2 result: the columns of W scale by s, b becomes b * s + t.
  static StatusOr<bool> FoldMatMulAdd(ir::Graph& g, ir::Node* add, const ir::Value* x, const Affine& a,
                                      const std::set<std::string>& captured) {
    if (x->desc().shape.unknown_rank() || x->desc().shape.rank() != 2) return false;
    for (int side = 0; side < 2; ++side) {
      ir::Value* mm_out = add->input(side);
      ir::Value* bias_in = add->input(1 - side);
      ir::Node* mm = mm_out ? mm_out->producer() : nullptr;
      if (!IsOp(mm, OpId::kMatMul) || mm->graph() != &g) continue;
      if (!SoleUse(g, mm_out, captured)) continue;
      const Tensor* w = Const(mm->input(1));
      const int64_t n = static_cast<int64_t>(a.s.size());
      if (!FloatConst(w) || w->rank() != 2 || w->dim(1) != n || !Const(bias_in)) continue;
      std::vector<double> bias;
      if (!ChannelBias(bias_in, n, 1.0, &bias)) continue;
      std::vector<double> wv = ToDoubles(*w);
      for (int64_t r = 0; r < w->dim(0); ++r)
        for (int64_t col = 0; col < n; ++col) wv[r * n + col] *= a.s[col];
      for (int64_t c = 0; c < n; ++c) bias[c] = bias[c] * a.s[c] + a.t[c];
      GE_ASSIGN_OR_RETURN(ir::Value* nw, AddConst(g, mm->input(1)->name() + "_bn", w->dtype(), w->dims(), wv));
      GE_ASSIGN_OR_RETURN(ir::Value* nb, AddConst(g, bias_in->name() + "_bn", w->dtype(), {n}, bias));
      mm->SetInput(1, nw);
      add->SetInput(1 - side, nb);
      return true;
    }
    return false;
  }
};

}  // namespace

std::unique_ptr<GraphPass> CreateBatchNormFoldingPass() { return std::make_unique<BatchNormFoldingPass>(); }

}  // namespace ge::compiler
