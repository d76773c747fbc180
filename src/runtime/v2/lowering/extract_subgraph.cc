#include "runtime/v2/lowering/extract_subgraph.h"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

namespace ge::runtime::v2 {
namespace {

void CollectCaptureNames(const ir::Graph& sub, std::vector<std::string>* names) {
  for (const ir::Value* v : sub.values()) {
    if (v->is_capture() && std::find(names->begin(), names->end(), v->name()) == names->end()) {
      names->push_back(v->name());
    }
  }
  for (const ir::Node* n : sub.nodes()) {
    for (const auto& [attr, nested] : n->subgraphs()) {
      if (nested != nullptr) CollectCaptureNames(*nested, names);
    }
  }
}

ir::Value* CopyConstant(const ir::Value& v, ir::Graph* dst) {
  ir::Value* c = dst->AddConstant(v.name(), *v.const_value());
  c->desc() = v.desc();
  if (v.const_source() != nullptr) c->set_const_source(*v.const_source());
  return c;
}

void CopyNodeBody(const ir::Node& from, ir::Node* to);

// A deep copy of |src| into the empty |dst|: inputs, captures, constants, nodes (attributes, engines, control
// edges, subgraphs), outputs.
void CopyGraph(const ir::Graph& src, ir::Graph* dst) {
  std::unordered_map<const ir::Value*, ir::Value*> map;
  for (const ir::Value* v : src.inputs()) map[v] = dst->AddInput(v->name(), v->desc());
  for (const ir::Value* v : src.values()) {
    if (map.count(v) != 0) continue;
    if (v->is_capture()) {
      ir::Value* c = dst->AddCapture(v->name());
      c->desc() = v->desc();
      map[v] = c;
    } else if (v->is_constant()) {
      map[v] = CopyConstant(*v, dst);
    }
  }
  const std::vector<ir::Node*> nodes = src.nodes();
  for (const ir::Node* n : nodes) {
    for (const ir::Value* o : n->outputs()) {
      if (o != nullptr) map[o] = dst->AddValue(o->name(), o->desc());
    }
  }
  auto mapped = [&](const ir::Value* v) -> ir::Value* {
    if (v == nullptr) return nullptr;
    auto it = map.find(v);
    return it == map.end() ? nullptr : it->second;
  };
  std::unordered_map<const ir::Node*, ir::Node*> copies;
  for (const ir::Node* n : nodes) {
    std::vector<ir::Value*> ins, outs;
    for (const ir::Value* v : n->inputs()) ins.push_back(mapped(v));
    for (const ir::Value* o : n->outputs()) outs.push_back(mapped(o));
    ir::Node* copy = dst->AddNode(n->op_type(), n->name(), ins, outs, n->domain());
    CopyNodeBody(*n, copy);
    copies[n] = copy;
  }
  for (const ir::Node* n : nodes) {
    for (const ir::Node* c : n->control_inputs()) {
      if (auto it = copies.find(c); it != copies.end()) copies[n]->AddControlInput(it->second);
    }
  }
  for (const ir::Value* v : src.outputs()) dst->AddOutput(mapped(v));
}

void CopyNodeBody(const ir::Node& from, ir::Node* to) {
  to->attrs() = from.attrs();
  to->set_engine(from.engine());
  for (const auto& [attr, sub] : from.subgraphs()) {
    if (sub == nullptr) continue;
    auto copy = std::make_unique<ir::Graph>(sub->name());
    CopyGraph(*sub, copy.get());
    to->AddSubgraph(attr, std::move(copy));
  }
}

}  // namespace

std::vector<ir::Value*> CapturedValues(const ir::Node& n, const ir::Graph& g) {
  std::vector<std::string> names;
  for (const auto& [attr, sub] : n.subgraphs()) {
    if (sub != nullptr) CollectCaptureNames(*sub, &names);
  }
  std::vector<ir::Value*> out;
  for (const std::string& name : names) {
    // A name an intermediate subgraph defines resolves there; finding it in |g| as well only adds an input.
    if (ir::Value* v = g.FindValue(name)) out.push_back(v);
  }
  return out;
}

ExtractedSubgraph ExtractSubgraph(const ir::Model& model, const ir::Graph& g, const std::vector<ir::Node*>& members,
                                  const std::string& name) {
  const std::unordered_set<const ir::Node*> set(members.begin(), members.end());
  // Captures are reads too: a value a non-member's subgraph captures is read outside the set.
  std::unordered_map<const ir::Value*, std::vector<const ir::Node*>> captured_by;
  for (const ir::Node* n : g.nodes()) {
    if (n->subgraphs().empty()) continue;
    for (const ir::Value* v : CapturedValues(*n, g)) captured_by[v].push_back(n);
  }
  ExtractedSubgraph e;
  e.model = std::make_unique<ir::Model>();
  e.model->ir_version = model.ir_version;
  e.model->opsets = model.opsets;
  e.model->producer = model.producer;
  e.model->graph = std::make_unique<ir::Graph>(name);
  ir::Graph& sub = *e.model->graph;
  std::unordered_map<const ir::Value*, ir::Value*> map;
  auto bring_in = [&](ir::Value* v) {
    auto it = map.find(v);
    if (it != map.end()) return it->second;
    ir::Value* nv = v->is_constant() ? CopyConstant(*v, &sub) : sub.AddInput(v->name(), v->desc());
    if (!v->is_constant()) e.inputs.push_back(v);
    return map.emplace(v, nv).first->second;
  };
  std::unordered_map<const ir::Node*, ir::Node*> copies;
  for (ir::Node* n : members) {
    std::vector<ir::Value*> ins, outs;
    for (ir::Value* v : n->inputs()) ins.push_back(v == nullptr ? nullptr : bring_in(v));
    // What its subgraphs capture must exist in the new graph under the same name.
    for (ir::Value* v : CapturedValues(*n, g)) bring_in(v);
    for (ir::Value* o : n->outputs()) {
      ir::Value* nv = sub.AddValue(o->name(), o->desc());
      map[o] = nv;
      outs.push_back(nv);
    }
    ir::Node* copy = sub.AddNode(n->op_type(), n->name(), ins, outs, n->domain());
    CopyNodeBody(*n, copy);
    copies[n] = copy;
    for (const ir::Node* c : n->control_inputs()) {
      if (auto it = copies.find(c); it != copies.end()) copy->AddControlInput(it->second);
    }
    for (ir::Value* o : n->outputs()) {
      bool outside = g.IsGraphOutput(o);
      for (const ir::Use& u : o->uses()) outside = outside || !set.count(u.node);
      if (auto it = captured_by.find(o); it != captured_by.end()) {
        for (const ir::Node* reader : it->second) outside = outside || !set.count(reader);
      }
      if (outside) {
        sub.AddOutput(map[o]);
        e.outputs.push_back(o);
      }
    }
  }
  return e;
}

}  // namespace ge::runtime::v2
