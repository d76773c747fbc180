// ReduceMeanPool: a float ReduceMean over exactly the spatial dims of an [N, C, H, W...] tensor (torch's
// x.mean([2, 3]), ShuffleNet's head) becomes GlobalAveragePool, which the engines run in the activation's layout;
// without keepdims a Flatten(axis = 1) of the pooled [N, C, 1, ...] gives the [N, C] result. The reference kernel
// ran the ReduceMean on a plain copy of an NHWC activation. Axes come from the attribute (opset < 18) or a constant
// input (opset 18); noop_with_empty_axes and non-constant axes are left alone.
#include <algorithm>
#include <string>
#include <vector>

#include "compiler/passes/fusion_util.h"
#include "compiler/passes/passes.h"

namespace ge::compiler {
namespace {

// The node's reduced axes, normalized and sorted; false when they are not known here.
bool ReducedAxes(const ir::Node& n, int rank, std::vector<int64_t>* axes) {
  if (n.num_inputs() >= 2 && n.input(1) != nullptr) {
    const Tensor* t = ConstTensor(n.input(1));
    if (t == nullptr || t->dtype() != DataType::kInt64) return false;
    *axes = t->ToInt64Vector();
  } else {
    if (!n.attrs().Has("axes")) return false;  // all axes (or none with noop_with_empty_axes)
    *axes = n.attrs().GetInts("axes");
  }
  for (int64_t& a : *axes) {
    if (a < -rank || a >= rank) return false;
    if (a < 0) a += rank;
  }
  std::sort(axes->begin(), axes->end());
  return std::adjacent_find(axes->begin(), axes->end()) == axes->end();
}

std::string FreshValueName(const ir::Graph& g, std::string name) {
  while (g.FindValue(name) != nullptr) name += "_";
  return name;
}

class ReduceMeanPoolPass : public FusionPass {
 public:
  const char* name() const override { return "ReduceMeanPool"; }

 protected:
  StatusOr<bool> FuseGraph(ir::Graph& g, const PassContext&) override {
    FusionScope scope(g);
    GE_ASSIGN_OR_RETURN(std::vector<ir::Node*> order, g.TopologicalOrder());
    bool changed = false;
    for (ir::Node* n : order) {
      if (!IsOp(n, OpId::kReduceMean) || !scope.Removable(n) || n->input(0) == nullptr || n->output(0) == nullptr) {
        continue;
      }
      if (n->attrs().GetInt("noop_with_empty_axes", 0) != 0) continue;
      const TensorDesc& x = n->input(0)->desc();
      // Rank 3 ([N, C, W], or a transformer's [B, S, H] mean over H) has no activation layout to keep: ge's own
      // reduce kernel runs it, faster than a 1-D pool over a plain long row.
      if (x.dtype != DataType::kFloat || x.shape.unknown_rank() || x.shape.rank() < 4) continue;
      const int rank = x.shape.rank();
      std::vector<int64_t> axes, spatial;
      for (int d = 2; d < rank; ++d) spatial.push_back(d);
      if (!ReducedAxes(*n, rank, &axes) || axes != spatial) continue;
      const bool keepdims = n->attrs().GetInt("keepdims", 1) != 0;
      ir::Value* in = n->input(0);
      ir::Value* out = n->output(0);
      const std::string name = n->name();
      g.RemoveNode(n);
      if (keepdims) {
        g.AddNode(ops::OpName(OpId::kGlobalAveragePool), name, {in}, {out});
      } else {
        TensorDesc pooled = out->desc();
        pooled.shape = Shape::UnknownRank();  // inferred after the fusion passes
        ir::Value* mid = g.AddValue(FreshValueName(g, name + "/pooled"), pooled);
        g.AddNode(ops::OpName(OpId::kGlobalAveragePool), name + "/pool", {in}, {mid});
        ir::Node* flatten = g.AddNode(ops::OpName(OpId::kFlatten), name, {mid}, {out});
        flatten->attrs().Set("axis", ir::AttrValue::Int(1));
      }
      changed = true;
    }
    if (changed) g.RemoveDeadValues();
    return changed;
  }
};

}  // namespace

std::unique_ptr<GraphPass> CreateReduceMeanPoolPass() { return std::make_unique<ReduceMeanPoolPass>(); }

}  // namespace ge::compiler
