// SqueezeExciteFusion: a squeeze-and-excitation block as torchvision's EfficientNet and MobileNetV3 export it, after
// ActivationFusion —
//   g = GlobalAveragePool(x); h = FusedConv|Conv(g, W1, B1) {act}; s = FusedConv|Conv(h, W2, B2) {gate}; y = Mul(s, x)
// (Mul's operands in either order) — becomes y = ge::SqueezeExcite(x, W1, B1, W2, B2) {activation = act,
// gate_activation = gate}: one node where four ran (two of them 1x1 convolutions of a 1x1 image, whose dispatch
// and parallel region cost more than their arithmetic). The convolutions must be 1x1, stride 1, unpadded, group 1,
// with constant float weights (and biases) and no residual Sum; g, h and s must have no other reader. x keeps its
// other readers (the block's input is read by nothing else in these models).
#include <string>
#include <vector>

#include "compiler/passes/fusion_util.h"
#include "compiler/passes/passes.h"
#include "ops/fused/fused_activation.h"

namespace ge::compiler {
namespace {

bool AllEqual(const std::vector<int64_t>& v, int64_t x) {
  for (int64_t e : v) {
    if (e != x) return false;
  }
  return true;
}

// A 1x1 convolution of `in` with constant float weights [rows, cols, 1, 1] and an optional constant bias, producing
// a value only `scope` may remove; its activation (none for a plain Conv) in *act.
bool PointwiseFc(const FusionScope& scope, const ir::Node* n, const ir::Value* in, int64_t rows, int64_t cols,
                 ge::fused::ActivationSpec* act) {
  if (n == nullptr || !(IsOp(n, OpId::kGeFusedConv) || IsOp(n, OpId::kConv)) || !scope.Removable(n)) return false;
  if (n->input(0) != in || n->num_outputs() != 1 || (n->num_inputs() > 3 && n->input(3) != nullptr)) return false;
  const ir::AttrMap& a = n->attrs();
  if (a.GetInt("group", 1) != 1 || a.GetString("auto_pad", "NOTSET") != "NOTSET" ||
      !AllEqual(a.GetInts("strides"), 1) || !AllEqual(a.GetInts("dilations"), 1) || !AllEqual(a.GetInts("pads"), 0)) {
    return false;
  }
  const Tensor* w = ConstTensor(n->input(1));
  if (w == nullptr || w->dtype() != DataType::kFloat || w->rank() != 4 || w->dim(0) != rows || w->dim(1) != cols ||
      w->dim(2) != 1 || w->dim(3) != 1) {
    return false;
  }
  if (n->num_inputs() > 2 && n->input(2) != nullptr) {
    const Tensor* b = ConstTensor(n->input(2));
    if (b == nullptr || b->dtype() != DataType::kFloat || b->numel() != rows) return false;
  }
  return ge::fused::ParseActivation(a, act).ok();
}

void SetActivation(ir::AttrMap* attrs, const char* name_key, const char* params_key,
                   const ge::fused::ActivationSpec& act) {
  if (act.kind == ge::fused::Activation::kNone) return;
  attrs->Set(name_key, ir::AttrValue::String(ge::fused::ActivationName(act.kind)));
  const int np = ge::fused::InfoOf(act.kind).num_params;
  if (np > 0) attrs->Set(params_key, ir::AttrValue::Floats(std::vector<float>(act.param, act.param + np)));
}

class SqueezeExciteFusionPass : public FusionPass {
 public:
  const char* name() const override { return "SqueezeExciteFusion"; }

 protected:
  StatusOr<bool> FuseGraph(ir::Graph& g, const PassContext&) override {
    FusionScope scope(g);
    GE_ASSIGN_OR_RETURN(std::vector<ir::Node*> order, g.TopologicalOrder());
    bool changed = false;
    for (ir::Node* mul : order) {
      if (!IsOp(mul, OpId::kMul) || !scope.Removable(mul) || mul->num_inputs() != 2 || mul->output(0) == nullptr) {
        continue;
      }
      for (int si = 0; si < 2; ++si) {
        if (TryFuse(g, scope, mul, si)) {
          changed = true;
          break;
        }
      }
    }
    return changed;
  }

 private:
  // Fuses when Mul's input `si` is the gate s and the other input is x.
  bool TryFuse(ir::Graph& g, const FusionScope& scope, ir::Node* mul, int si) const {
    ir::Value* s = mul->input(si);
    ir::Value* x = mul->input(1 - si);
    if (s == nullptr || x == nullptr || !scope.Internal(s)) return false;
    const TensorDesc& xd = x->desc();
    // s = fc2(fc1(GlobalAveragePool(x))) is [N, C, 1, 1] (1x1 convolutions with these weights), so Mul(s, x) has
    // x's dims.
    if (xd.dtype != DataType::kFloat || !xd.shape.IsFullyKnown() || xd.shape.rank() != 4) return false;
    const int64_t c = xd.shape.dim(1);
    ir::Node* fc2 = s->producer();
    if (fc2 == nullptr || fc2->input(0) == nullptr || !scope.Internal(fc2->input(0))) return false;
    ir::Value* h = fc2->input(0);
    ir::Node* fc1 = h->producer();
    if (fc1 == nullptr || fc1->input(0) == nullptr || !scope.Internal(fc1->input(0))) return false;
    ir::Value* pooled = fc1->input(0);
    ir::Node* gap = pooled->producer();
    if (gap == nullptr || !IsOp(gap, OpId::kGlobalAveragePool) || !scope.Removable(gap) || gap->input(0) != x) {
      return false;
    }
    const Tensor* w1 = ConstTensor(fc1->input(1));
    if (w1 == nullptr || w1->rank() != 4) return false;
    const int64_t r = w1->dim(0);
    ge::fused::ActivationSpec act, gate;
    if (!PointwiseFc(scope, fc1, pooled, r, c, &act) || !PointwiseFc(scope, fc2, h, c, r, &gate)) return false;

    ir::AttrMap attrs;
    SetActivation(&attrs, "activation", "activation_params", act);
    SetActivation(&attrs, "gate_activation", "gate_activation_params", gate);
    ir::Value* b1 = fc1->num_inputs() > 2 ? fc1->input(2) : nullptr;
    ir::Value* b2 = fc2->num_inputs() > 2 ? fc2->input(2) : nullptr;
    std::vector<ir::Value*> inputs = {x, fc1->input(1), b1, fc2->input(1), b2};
    if (inputs.back() == nullptr) inputs.pop_back();
    ReplaceWithFused(g, {gap, fc1, fc2, mul}, OpId::kGeSqueezeExcite, mul->name(), inputs, mul->output(0), attrs);
    return true;
  }
};

}  // namespace

std::unique_ptr<GraphPass> CreateSqueezeExciteFusionPass() { return std::make_unique<SqueezeExciteFusionPass>(); }

}  // namespace ge::compiler
