#include "runtime/v2/lowering/extract_subgraph.h"

#include <unordered_map>
#include <unordered_set>

namespace ge::runtime::v2 {

ExtractedSubgraph ExtractSubgraph(const ir::Model& model, const ir::Graph& g, const std::vector<ir::Node*>& members,
                                  const std::string& name) {
  const std::unordered_set<const ir::Node*> set(members.begin(), members.end());
  ExtractedSubgraph e;
  e.model = std::make_unique<ir::Model>();
  e.model->ir_version = model.ir_version;
  e.model->opsets = model.opsets;
  e.model->producer = model.producer;
  e.model->graph = std::make_unique<ir::Graph>(name);
  ir::Graph& sub = *e.model->graph;
  std::unordered_map<const ir::Value*, ir::Value*> map;
  for (ir::Node* n : members) {
    std::vector<ir::Value*> ins, outs;
    for (ir::Value* v : n->inputs()) {
      if (v == nullptr) {
        ins.push_back(nullptr);
        continue;
      }
      auto it = map.find(v);
      if (it == map.end()) {
        ir::Value* nv = v->is_constant() ? sub.AddConstant(v->name(), *v->const_value()) : sub.AddInput(v->name(), v->desc());
        if (!v->is_constant()) e.inputs.push_back(v);
        it = map.emplace(v, nv).first;
      }
      ins.push_back(it->second);
    }
    for (ir::Value* o : n->outputs()) {
      ir::Value* nv = sub.AddValue(o->name(), o->desc());
      map[o] = nv;
      outs.push_back(nv);
    }
    ir::Node* copy = sub.AddNode(n->op_type(), n->name(), ins, outs, n->domain());
    copy->attrs() = n->attrs();
    copy->set_engine(n->engine());
    for (ir::Value* o : n->outputs()) {
      bool outside = g.IsGraphOutput(o);
      for (const ir::Use& u : o->uses()) outside = outside || !set.count(u.node);
      if (outside) {
        sub.AddOutput(map[o]);
        e.outputs.push_back(o);
      }
    }
  }
  return e;
}

}  // namespace ge::runtime::v2
