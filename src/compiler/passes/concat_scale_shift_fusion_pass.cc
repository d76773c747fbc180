// ConcatScaleShiftFusion: a channel Concat read only by an inference BatchNormalization (plain, or
// ge::FusedBatchNormalization with Relu or no activation) with constant parameters — DenseNet's pre-activation
// concat -> norm -> relu — becomes y = ge::ConcatScaleShift(scale', shift', X1..Xk) {activation}, the normalization
// folded per channel as a = scale / sqrt(var + eps), b = B - mean * a (computed in double, as the dnnl engine folds
// a constant BatchNormalization). The concatenated tensor, which a dense block copies again for every layer, is never
// written. Inputs must be float32 of rank >= 3 agreeing outside the channel axis.
#include <cmath>
#include <string>
#include <vector>

#include "compiler/passes/fusion_util.h"
#include "compiler/passes/passes.h"
#include "ops/fused/fused_activation.h"

namespace ge::compiler {
namespace {

bool ChannelConcatOfFloats(const ir::Node& c) {
  if (!IsOp(&c, OpId::kConcat) || c.num_inputs() < 1 || c.num_outputs() != 1) return false;
  const int64_t axis = c.attrs().GetInt("axis", 0);
  if (axis != 1 && axis != -3) return false;
  const ir::Value* first = c.input(0);
  for (const ir::Value* v : c.inputs()) {
    if (v == nullptr || first == nullptr || v->desc().dtype != DataType::kFloat || !v->desc().shape.IsFullyKnown() ||
        v->desc().shape.rank() < 3 || v->desc().shape.rank() != first->desc().shape.rank()) {
      return false;
    }
    if (axis == -3 && v->desc().shape.rank() != 4) return false;
    for (int d = 0; d < v->desc().shape.rank(); ++d) {
      if (d != 1 && v->desc().shape.dim(d) != first->desc().shape.dim(d)) return false;
    }
  }
  return true;
}

class ConcatScaleShiftFusionPass : public FusionPass {
 public:
  const char* name() const override { return "ConcatScaleShiftFusion"; }

 protected:
  StatusOr<bool> FuseGraph(ir::Graph& g, const PassContext&) override {
    FusionScope scope(g);
    GE_ASSIGN_OR_RETURN(std::vector<ir::Node*> order, g.TopologicalOrder());
    bool changed = false;
    for (ir::Node* bn : order) {
      const bool fused_bn = IsOp(bn, OpId::kGeFusedBatchNormalization);
      if (!(fused_bn || IsOp(bn, OpId::kBatchNormalization)) || !scope.Removable(bn) || bn->num_inputs() != 5 ||
          bn->output(0) == nullptr || bn->attrs().GetInt("training_mode", 0) != 0 ||
          bn->attrs().GetInt("spatial", 1) != 1) {
        continue;
      }
      bool extra_outputs = false;
      for (int i = 1; i < bn->num_outputs(); ++i) extra_outputs = extra_outputs || bn->output(i) != nullptr;
      if (extra_outputs) continue;
      ge::fused::ActivationSpec act;
      if (fused_bn && !ge::fused::ParseActivation(bn->attrs(), &act).ok()) continue;
      if (act.kind != ge::fused::Activation::kNone && act.kind != ge::fused::Activation::kRelu) continue;
      ir::Value* joined = bn->input(0);
      ir::Node* concat = joined != nullptr ? joined->producer() : nullptr;
      if (concat == nullptr || !scope.Internal(joined) || !scope.Removable(concat) || !ChannelConcatOfFloats(*concat)) {
        continue;
      }
      int64_t c = 0;
      for (const ir::Value* v : concat->inputs()) c += v->desc().shape.dim(1);
      const Tensor* params[4];
      bool ok = true;
      for (int i = 0; i < 4; ++i) {
        params[i] = ConstTensor(bn->input(i + 1));
        ok = ok && params[i] != nullptr && params[i]->numel() == c && IsFloatingPoint(params[i]->dtype());
      }
      if (!ok) continue;
      const double eps = bn->attrs().GetFloat("epsilon", 1e-5f);
      Tensor a = Tensor::Create(DataType::kFloat, {c}).value();
      Tensor b = Tensor::Create(DataType::kFloat, {c}).value();
      for (int64_t k = 0; k < c; ++k) {
        const double ak = params[0]->GetAsDouble(k) / std::sqrt(params[3]->GetAsDouble(k) + eps);
        a.data<float>()[k] = static_cast<float>(ak);
        b.data<float>()[k] = static_cast<float>(params[1]->GetAsDouble(k) - params[2]->GetAsDouble(k) * ak);
      }
      const std::string name = bn->name();
      ir::Value* scale = g.AddConstant(g.UniqueValueName(name + "_scale"), std::move(a));
      ir::Value* shift = g.AddConstant(g.UniqueValueName(name + "_shift"), std::move(b));
      std::vector<ir::Value*> inputs = {scale, shift};
      for (ir::Value* v : concat->inputs()) inputs.push_back(v);
      ir::AttrMap attrs;
      if (act.kind == ge::fused::Activation::kRelu) attrs.Set("activation", ir::AttrValue::String("Relu"));
      ReplaceWithFused(g, {concat, bn}, OpId::kGeConcatScaleShift, name, inputs, bn->output(0), attrs);
      changed = true;
    }
    return changed;
  }
};

}  // namespace

std::unique_ptr<GraphPass> CreateConcatScaleShiftFusionPass() { return std::make_unique<ConcatScaleShiftFusionPass>(); }

}  // namespace ge::compiler
