// PadFusion: a constant-zero Pad of the spatial dims feeding an AveragePool or a Conv becomes the consumer's own
// pads (torch exports AvgPool2d(count_include_pad=True) with padding as Pad + AveragePool). The pool then counts
// the padding (count_include_pad=1), exactly what averaging the zero-padded tensor did. Only when the Pad's output
// has no other use, the pads are constant and non-negative, N and C are not padded, and the consumer has no pads,
// auto_pad or ceil_mode of its own that would change the meaning.
#include <vector>

#include "compiler/passes/fusion_util.h"
#include "compiler/passes/passes.h"

namespace ge::compiler {
namespace {

// The Pad's pads ([d0_begin, d1_begin, ..., d0_end, d1_end, ...]) when it is a constant-zero pad of known rank.
bool ZeroPadAmounts(const ir::Node& pad, std::vector<int64_t>* pads) {
  if (pad.attrs().GetString("mode", "constant") != "constant") return false;
  if (pad.num_inputs() >= 2 && pad.input(1) != nullptr) {  // opset >= 11: pads, [constant_value], [axes] inputs
    const Tensor* p = ConstTensor(pad.input(1));
    if (p == nullptr || p->dtype() != DataType::kInt64) return false;
    *pads = p->ToInt64Vector();
    if (pad.num_inputs() >= 3 && pad.input(2) != nullptr) {
      double value = 1;
      const TensorDesc& d = pad.input(0)->desc();
      if (!ScalarConst(pad.input(2), d.dtype, 1, &value) || value != 0) return false;
    }
    if (pad.num_inputs() >= 4 && pad.input(3) != nullptr) return false;
  } else {  // opset < 11
    if (!pad.attrs().Has("pads") || pad.attrs().GetFloat("value", 0.f) != 0.f) return false;
    *pads = pad.attrs().GetInts("pads");
  }
  for (int64_t x : *pads) {
    if (x < 0) return false;
  }
  return true;
}

bool AllZero(const std::vector<int64_t>& v) {
  for (int64_t x : v) {
    if (x != 0) return false;
  }
  return true;
}

class PadFusionPass : public FusionPass {
 public:
  const char* name() const override { return "PadFusion"; }

 protected:
  StatusOr<bool> FuseGraph(ir::Graph& g, const PassContext&) override {
    FusionScope scope(g);
    GE_ASSIGN_OR_RETURN(std::vector<ir::Node*> order, g.TopologicalOrder());
    bool changed = false;
    for (ir::Node* pad : order) {
      if (!IsOp(pad, OpId::kPad) || !scope.Removable(pad) || pad->input(0) == nullptr) continue;
      ir::Value* padded = pad->output(0);
      if (padded == nullptr || !scope.Internal(padded) || padded->uses().size() != 1) continue;
      ir::Node* user = padded->uses()[0].node;
      const bool pool = IsOp(user, OpId::kAveragePool), conv = IsOp(user, OpId::kConv);
      if ((!pool && !conv) || padded->uses()[0].input_index != 0) continue;
      const TensorDesc& x = pad->input(0)->desc();
      if (x.shape.unknown_rank() || x.shape.rank() < 3) continue;
      const int rank = x.shape.rank(), nsp = rank - 2;
      std::vector<int64_t> pads;
      if (!ZeroPadAmounts(*pad, &pads) || static_cast<int>(pads.size()) != 2 * rank) continue;
      if (pads[0] != 0 || pads[1] != 0 || pads[rank] != 0 || pads[rank + 1] != 0) continue;
      const ir::AttrMap& a = user->attrs();
      if (a.GetString("auto_pad", "NOTSET") != "NOTSET" || a.GetInt("ceil_mode", 0) != 0) continue;
      std::vector<int64_t> own = a.GetInts("pads", std::vector<int64_t>(2 * nsp, 0));
      if (static_cast<int>(own.size()) != 2 * nsp || (pool && !AllZero(own))) continue;
      for (int i = 0; i < nsp; ++i) {
        own[i] += pads[2 + i];
        own[nsp + i] += pads[rank + 2 + i];
      }
      user->attrs().Set("pads", ir::AttrValue::Ints(own));
      if (pool) user->attrs().Set("count_include_pad", ir::AttrValue::Int(1));
      user->SetInput(0, pad->input(0));
      g.RemoveNode(pad);
      changed = true;
    }
    if (changed) g.RemoveDeadValues();
    return changed;
  }
};

}  // namespace

std::unique_ptr<GraphPass> CreatePadFusionPass() { return std::make_unique<PadFusionPass>(); }

}  // namespace ge::compiler
