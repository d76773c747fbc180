// LayerNormFusion: the decomposed LayerNorm torch.onnx writes at opsets 13-17 (and BERT exports write alike),
//   m = ReduceMean(x, last axis); d = Sub(x, m); v = ReduceMean(Pow(d, 2), last axis);
//   n = Div(d, Sqrt(Add(v, eps))); y = Add(Mul(n, gamma), beta)
// with constant gamma and beta over the last dim (Mul and Add in either operand order, the Add optional),
// becomes ge::LayerNormalization(x, gamma, [beta]) {axis = -1, epsilon}. The fused node keeps the first
// ReduceMean's name and produces the last removed node's output.
#include <algorithm>
#include <vector>

#include "compiler/passes/fusion_util.h"
#include "compiler/passes/passes.h"

namespace ge::compiler {
namespace {

int64_t LastDim(const ir::Value* v) {
  const Shape& s = v->desc().shape;
  return s.unknown_rank() || s.rank() == 0 ? kUnknownDim : s.dim(s.rank() - 1);
}

// A keepdims ReduceMean over exactly the last axis of its input (axes as attribute or constant input).
bool IsLastAxisMean(const ir::Node* n) {
  if (!IsOp(n, OpId::kReduceMean) || n->attrs().GetInt("keepdims", 1) != 1) return false;
  const Shape& s = n->input(0)->desc().shape;
  if (s.unknown_rank() || s.rank() == 0) return false;
  std::vector<int64_t> axes = n->attrs().GetInts("axes", {});
  if (n->num_inputs() > 1 && n->input(1) != nullptr) {
    const Tensor* t = ConstTensor(n->input(1));
    if (t == nullptr || !axes.empty() || t->dtype() != DataType::kInt64) return false;
    for (int64_t i = 0; i < t->numel(); ++i) axes.push_back(t->data<int64_t>()[i]);
  }
  return axes.size() == 1 && (axes[0] == -1 || axes[0] == s.rank() - 1);
}

// The node consuming v when v has exactly one use, else nullptr.
ir::Node* OnlyUser(const ir::Value* v) { return v && v->uses().size() == 1 ? v->uses()[0].node : nullptr; }

// The other operand of a binary node whose operand `v` is one of its two inputs.
ir::Value* Other(const ir::Node* n, const ir::Value* v) {
  if (n->num_inputs() != 2) return nullptr;
  return n->input(0) == v ? n->input(1) : n->input(1) == v ? n->input(0) : nullptr;
}

// A constant of dtype dt holding exactly `cols` values over the last dim (shape [cols] or [1, .., cols]).
bool IsLastDimParam(const ir::Value* p, DataType dt, int64_t cols) {
  const Tensor* t = ConstTensor(p);
  if (t == nullptr || t->dtype() != dt || t->rank() == 0 || t->numel() != cols) return false;
  return t->dim(t->rank() - 1) == cols;
}

class LayerNormFusionPass : public FusionPass {
 public:
  const char* name() const override { return "LayerNormFusion"; }

 protected:
  StatusOr<bool> FuseGraph(ir::Graph& g, const PassContext& ctx) override {
    FusionScope scope(g);
    GE_ASSIGN_OR_RETURN(std::vector<ir::Node*> order, g.TopologicalOrder());
    std::vector<ir::Node*> removed;
    bool changed = false;
    for (ir::Node* mean : order) {
      if (std::find(removed.begin(), removed.end(), mean) != removed.end()) continue;
      if (TryFuse(g, scope, mean, &removed)) changed = true;
    }
    return changed;
  }

 private:
  static bool TryFuse(ir::Graph& g, const FusionScope& scope, ir::Node* mean, std::vector<ir::Node*>* removed) {
    if (!IsLastAxisMean(mean) || !scope.Removable(mean) || !scope.Internal(mean->output(0))) return false;
    ir::Value* x = mean->input(0);
    const DataType dt = x->desc().dtype;
    const int64_t cols = LastDim(x);
    if (dt != DataType::kFloat || cols == kUnknownDim) return false;
    ir::Node* sub = OnlyUser(mean->output(0));
    if (!IsOp(sub, OpId::kSub) || sub->input(0) != x || sub->input(1) != mean->output(0)) return false;
    ir::Value* d = sub->output(0);
    if (!scope.Internal(d, 2)) return false;
    ir::Node *pow = nullptr, *div = nullptr;
    for (const ir::Use& u : d->uses()) {
      if (IsOp(u.node, OpId::kPow) && u.input_index == 0) pow = u.node;
      if (IsOp(u.node, OpId::kDiv) && u.input_index == 0) div = u.node;
    }
    double two = 0, eps = 0;
    if (!pow || !div || !ScalarConst(pow->input(1), dt, 1, &two) || two != 2.0) return false;
    ir::Node* mean2 = OnlyUser(pow->output(0));
    if (!IsLastAxisMean(mean2) || mean2->input(0) != pow->output(0)) return false;
    ir::Node* add_eps = OnlyUser(mean2->output(0));
    if (!IsOp(add_eps, OpId::kAdd) || !ScalarConst(Other(add_eps, mean2->output(0)), dt, 1, &eps)) return false;
    ir::Node* sqrt = OnlyUser(add_eps->output(0));
    if (!IsOp(sqrt, OpId::kSqrt) || div->input(1) != sqrt->output(0) || OnlyUser(sqrt->output(0)) != div) return false;
    ir::Node* mul = OnlyUser(div->output(0));
    ir::Value* gamma = mul && IsOp(mul, OpId::kMul) ? Other(mul, div->output(0)) : nullptr;
    if (!IsLastDimParam(gamma, dt, cols)) return false;
    std::vector<ir::Node*> nodes = {mean, sub, pow, mean2, add_eps, sqrt, div, mul};
    std::vector<ir::Value*> inputs = {x, gamma};
    ir::Node* last = mul;
    ir::Node* add = OnlyUser(mul->output(0));
    ir::Value* beta = add && IsOp(add, OpId::kAdd) ? Other(add, mul->output(0)) : nullptr;
    if (IsLastDimParam(beta, dt, cols) && scope.Internal(mul->output(0)) && scope.Removable(add)) {
      nodes.push_back(add);
      inputs.push_back(beta);
      last = add;
    }
    for (ir::Node* n : nodes) {
      if (!scope.Removable(n)) return false;
      if (n != last && n != sub && !scope.Internal(n->output(0))) return false;
    }
    ir::AttrMap attrs;
    attrs.Set("axis", ir::AttrValue::Int(-1));
    attrs.Set("epsilon", ir::AttrValue::Float(static_cast<float>(eps)));
    ir::Value* y = last->output(0);
    removed->insert(removed->end(), nodes.begin(), nodes.end());
    ReplaceWithFused(g, nodes, OpId::kGeLayerNormalization, mean->name(), inputs, y, attrs);
    return true;
  }
};

}  // namespace

std::unique_ptr<GraphPass> CreateLayerNormFusionPass() { return std::make_unique<LayerNormFusionPass>(); }

}  // namespace ge::compiler
