#include "compiler/passes/fusion_util.h"

#include "compiler/passes/pass_util.h"

namespace ge::compiler {

FusionScope::FusionScope(const ir::Graph& g) : g_(g), captured_(CapturedNames(g)) {
  for (const ir::Node* n : g.nodes()) {
    for (const ir::Node* c : n->control_inputs()) control_sources_.insert(c);
  }
}

bool FusionScope::Internal(const ir::Value* v, size_t uses) const {
  return v != nullptr && v->producer() != nullptr && v->producer()->graph() == &g_ && v->uses().size() == uses &&
         !g_.IsGraphOutput(v) && captured_.count(v->name()) == 0;
}

bool FusionScope::Removable(const ir::Node* n) const {
  return n != nullptr && n->graph() == &g_ && n->subgraphs().empty() && n->control_inputs().empty() &&
         control_sources_.count(n) == 0;
}

const Tensor* ConstTensor(const ir::Value* v) {
  return v != nullptr && v->is_constant() && !v->is_graph_input() ? v->const_value() : nullptr;
}

bool ScalarConst(const ir::Value* v, DataType dt, int max_rank, double* out) {
  const Tensor* t = ConstTensor(v);
  if (t == nullptr || t->dtype() != dt || t->numel() != 1 || t->rank() > max_rank) return false;
  *out = t->GetAsDouble(0);
  return true;
}

ir::Node* ReplaceWithFused(ir::Graph& g, const std::vector<ir::Node*>& old_nodes, OpId fused_op, std::string name,
                           const std::vector<ir::Value*>& inputs, ir::Value* output, const ir::AttrMap& attrs) {
  for (ir::Node* n : old_nodes) g.RemoveNode(n);
  ir::Node* fused = g.AddNode(ops::OpName(fused_op), name, inputs, {output}, ops::OpDomain(fused_op));
  fused->attrs() = attrs;
  return fused;
}

StatusOr<bool> FusionPass::Run(ir::Model& model, const PassContext& ctx) {
  if (!model.graph) return InvalidArgument("model has no graph");
  GE_ASSIGN_OR_RETURN(bool changed, FuseRecursively(*model.graph, ctx));
  if (changed) model.opsets.emplace(kFusedDomain, kFusedOpset);
  return changed;
}

StatusOr<bool> FusionPass::FuseRecursively(ir::Graph& g, const PassContext& ctx) {
  GE_ASSIGN_OR_RETURN(bool changed, FuseGraph(g, ctx));
  if (changed) RemoveDeadValuesKeepingCaptured(g);
  for (ir::Node* n : g.nodes()) {
    for (auto& [attr, sub] : n->subgraphs()) {
      auto c = FuseRecursively(*sub, ctx);
      if (!c.ok()) return c.status().WithContext("subgraph '" + sub->name() + "'");
      changed = changed || *c;
    }
  }
  return changed;
}

}  // namespace ge::compiler
