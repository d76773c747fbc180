#include "session/training_graphs.h"

#include <map>
#include <set>

#include "om/ir_proto.h"
#include "ops/op_id.h"
#include "session/graph_access.h"

namespace ge::session {
namespace {

// Adds a Variable node named `name` (its value too, once `name` is free) with the initializer as `_init_value`.
ir::Value* AddVariable(ir::Graph& g, const std::string& name, const Tensor& init) {
  ir::Value* v = g.AddValue(g.UniqueValueName(name + "__variable"), TensorDesc(init.dtype(), Shape(init.dims())));
  ir::Node* n = g.AddNode("Variable", name, {}, {v}, "ge");
  n->attrs().Set("dtype", ir::AttrValue::Int(static_cast<int64_t>(init.dtype())));
  n->attrs().Set("shape", ir::AttrValue::Ints(init.dims()));
  n->attrs().Set("_init_value", ir::AttrValue::TensorValue(init));
  return v;
}

// Replaces the constant `name` (an initializer) of `g` by the variable, keeping the value name.
void ConstantToVariable(ir::Graph& g, const std::string& name, const Tensor& init) {
  ir::Value* var = AddVariable(g, name, init);
  if (ir::Value* c = g.FindValue(name)) {
    g.ReplaceAllUses(c, var);
    g.RemoveDeadValues();
  }
  if (g.FindValue(name) == nullptr) g.RenameValue(var, name);
}

// Copies the nodes of `from` into `to`. `from`'s inputs and captures bind by name to `to`'s values (inputs the
// target lacks become its inputs); constants are copied; node outputs keep their names where free.
Status AppendGraph(const ir::Graph& from, ir::Graph& to, std::map<const ir::Value*, ir::Value*>* map,
                   const std::string& what) {
  for (ir::Value* in : from.inputs()) {
    ir::Value* existing = to.FindValue(in->name());
    (*map)[in] = existing != nullptr ? existing : to.AddInput(in->name(), in->desc());
  }
  for (const ir::Value* v : from.values()) {
    if (v->is_constant()) {
      (*map)[v] = to.AddConstant(to.UniqueValueName(v->name()), *v->const_value());
    } else if (v->is_capture()) {
      ir::Value* outer = to.FindValue(v->name());
      if (outer == nullptr) return InvalidArgument(what + " reads '" + v->name() + "', which nothing defines");
      (*map)[v] = outer;
    }
  }
  GE_ASSIGN_OR_RETURN(std::vector<ir::Node*> order, from.TopologicalOrder());
  for (const ir::Node* n : order) {
    if (!n->subgraphs().empty()) return Unimplemented(what + ": node '" + n->name() + "' owns subgraphs");
    std::vector<ir::Value*> ins, outs;
    for (const ir::Value* in : n->inputs()) {
      if (in == nullptr) {
        ins.push_back(nullptr);
        continue;
      }
      auto it = map->find(in);
      if (it == map->end()) return InvalidArgument(what + ": node '" + n->name() + "' reads '" + in->name() + "'");
      ins.push_back(it->second);
    }
    for (const ir::Value* out : n->outputs()) {
      if (out == nullptr) {
        outs.push_back(nullptr);
        continue;
      }
      ir::Value* o = to.AddValue(to.UniqueValueName(out->name()), out->desc());
      (*map)[out] = o;
      outs.push_back(o);
    }
    ir::Node* copy = to.AddNode(n->op_type(), to.UniqueValueName(n->name()), ins, outs, n->domain());
    copy->attrs() = n->attrs();
  }
  return Status::Ok();
}

StatusOr<std::unique_ptr<ir::Model>> EmptyLike(const ir::Model& model, const std::string& name) {
  auto m = std::make_unique<ir::Model>();
  m->ir_version = model.ir_version;
  m->opsets = model.opsets;
  m->opsets["ge"] = 1;
  m->producer = model.producer;
  m->graph = std::make_unique<ir::Graph>(name);
  return m;
}

// The graph's values named in `bindings` (by the value side), each assigned into its variable.
Status AssignBindings(ir::Graph& g, const std::vector<std::pair<std::string, std::string>>& bindings,
                      const std::map<const ir::Value*, ir::Value*>& map, const ir::Graph& from,
                      const std::string& what, std::vector<ir::Value*>* written) {
  for (const auto& [var_name, value_name] : bindings) {
    const ir::Value* src = from.FindValue(value_name);
    if (src == nullptr || map.count(src) == 0) return InvalidArgument(what + " has no output '" + value_name + "'");
    ir::Node* var_node = nullptr;
    for (ir::Node* n : g.nodes()) {
      if (ops::IsOp(*n, ops::OpId::kGeVariable) && n->name() == var_name) var_node = n;
    }
    if (var_node == nullptr) return Internal("no variable node for '" + var_name + "'");
    ir::Value* out = g.AddValue(g.UniqueValueName(var_name + "__assigned"), var_node->output(0)->desc());
    g.AddNode("Assign", g.UniqueValueName("assign_" + var_name), {var_node->output(0), map.at(src)}, {out}, "ge");
    written->push_back(out);
  }
  return Status::Ok();
}

}  // namespace

StatusOr<TrainingGraphs> LowerTraining(const ir::Model& model) {
  if (model.training_info.empty()) return InvalidArgument("the model has no training info (TrainingInfoProto)");
  if (model.training_info.size() > 1) {
    return Unimplemented("the model has " + std::to_string(model.training_info.size()) +
                         " TrainingInfoProtos; ge trains models with one");
  }
  const ir::TrainingInfo& info = model.training_info[0];
  if (info.algorithm == nullptr) return InvalidArgument("the training info has no algorithm graph");
  TrainingGraphs out;
  std::set<std::string> names;
  for (const auto& b : info.update_binding) names.insert(b.first);
  for (const auto& b : info.initialization_binding) names.insert(b.first);
  for (const std::string& n : names) {
    if (model.training_initializers.count(n) == 0) return Internal("no initializer tensor for '" + n + "'");
  }
  out.variables.assign(names.begin(), names.end());

  // Inference: the model's graph with the variables in place of their initializers.
  GE_ASSIGN_OR_RETURN(out.inference, GraphAccess::CloneModel(model));
  out.inference->opsets["ge"] = 1;
  for (const std::string& n : names) ConstantToVariable(*out.inference->graph, n, model.training_initializers.at(n));

  // Step: inference + algorithm + assigns.
  GE_ASSIGN_OR_RETURN(out.step, GraphAccess::CloneModel(*out.inference));
  out.step->graph->set_name(model.graph->name() + "_train_step");
  // Initializers the algorithm reads but the inference graph dropped (unused there): constants of the step.
  ir::Graph& step = *out.step->graph;
  for (const auto& [name, tensor] : model.training_initializers) {
    if (names.count(name) == 0 && step.FindValue(name) == nullptr) step.AddConstant(name, tensor);
  }
  for (const std::string& n : names) {
    if (step.FindValue(n) == nullptr) {
      ConstantToVariable(step, n, model.training_initializers.at(n));
    }
  }
  step.ClearOutputs();
  std::map<const ir::Value*, ir::Value*> map;
  GE_RETURN_IF_ERROR(AppendGraph(*info.algorithm, step, &map, "the training algorithm"));
  std::vector<ir::Value*> written;
  GE_RETURN_IF_ERROR(AssignBindings(step, info.update_binding, map, *info.algorithm, "the training algorithm",
                                    &written));
  std::set<std::string> bound;
  for (const auto& b : info.update_binding) bound.insert(b.second);
  for (const ir::Value* o : info.algorithm->outputs()) {
    if (bound.count(o->name()) == 0) step.AddOutput(map.at(o));
  }
  if (step.outputs().empty()) {
    for (ir::Value* w : written) step.AddOutput(w);
  }

  // Initialization: its nodes, then an Assign per binding.
  if (info.initialization != nullptr && !info.initialization_binding.empty()) {
    GE_ASSIGN_OR_RETURN(out.initialization, EmptyLike(model, model.graph->name() + "_initialize"));
    ir::Graph& init = *out.initialization->graph;
    for (const auto& [name, tensor] : model.training_initializers) {
      if (names.count(name) != 0) {
        AddVariable(init, name, tensor);
        if (init.FindValue(name) == nullptr) init.RenameValue(init.FindValue(name + "__variable"), name);
      } else {
        init.AddConstant(name, tensor);
      }
    }
    std::map<const ir::Value*, ir::Value*> init_map;
    GE_RETURN_IF_ERROR(AppendGraph(*info.initialization, init, &init_map, "the training initialization"));
    std::vector<ir::Value*> init_written;
    GE_RETURN_IF_ERROR(AssignBindings(init, info.initialization_binding, init_map, *info.initialization,
                                      "the training initialization", &init_written));
    for (ir::Value* w : init_written) init.AddOutput(w);
  }
  return out;
}

}  // namespace ge::session
