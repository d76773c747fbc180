// Helpers shared by the fusion passes (MatMulAddFusion, ActivationFusion): the base class that runs a fusion over
// the root graph and every subgraph, the safety checks for values and nodes a fusion removes, and the rewrite that
// replaces a chain of nodes by one ge:: fused node.
#pragma once
#include <set>
#include <string>
#include <vector>

#include "base/status.h"
#include "compiler/passes/pass_manager.h"
#include "compiler/passes/pass_util.h"
#include "ir/graph.h"

namespace ge::compiler {

// The domain and opset of the fused ops (src/ops/fused).
inline constexpr const char* kFusedDomain = "ge";
inline constexpr int64_t kFusedOpset = 1;

// What a fusion may remove in one graph. Built once per graph; stays valid while the fusion only removes nodes of
// a match and adds its fused node.
class FusionScope {
 public:
  explicit FusionScope(const ir::Graph& g);
  // v may disappear: it is produced in this graph, has exactly `uses` uses, is not a graph output, and no subgraph
  // reads it by name.
  bool Internal(const ir::Value* v, size_t uses = 1) const;
  // n may be removed: it belongs to this graph, owns no subgraph and has no control edge either way.
  bool Removable(const ir::Node* n) const;

 private:
  const ir::Graph& g_;
  std::set<std::string> captured_;
  std::set<const ir::Node*> control_sources_;
};

// The value's tensor when it is a constant (not a graph input); nullptr otherwise.
const Tensor* ConstTensor(const ir::Value* v);
// The single element of a constant of dtype dt and rank <= max_rank, as a double.
bool ScalarConst(const ir::Value* v, DataType dt, int max_rank, double* out);

// Removes `old_nodes` and adds the fused op `fused_op` (a ge:: op) named `name` (a copy: it may be a removed node's)
// producing `output` (which one of old_nodes produced). Values only the removed nodes used are left dead for the caller
// to sweep.
ir::Node* ReplaceWithFused(ir::Graph& g, const std::vector<ir::Node*>& old_nodes, OpId fused_op, std::string name,
                           const std::vector<ir::Value*>& inputs, ir::Value* output, const ir::AttrMap& attrs);

// A pass that fuses one graph at a time: the root graph and, depth first, every subgraph. When anything was fused
// the model imports the "ge" domain.
class FusionPass : public GraphPass {
 public:
  StatusOr<bool> Run(ir::Model& model, const PassContext& ctx) override;

 protected:
  virtual StatusOr<bool> FuseGraph(ir::Graph& g, const PassContext& ctx) = 0;

 private:
  StatusOr<bool> FuseRecursively(ir::Graph& g, const PassContext& ctx);
};

}  // namespace ge::compiler
