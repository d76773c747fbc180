#include "interpreter/interpreter.h"

#include <random>

#include "kernels/ref/node_runner.h"

namespace ge {

struct Interpreter::Plan {
  struct Step {
    const ir::Node* node;
    std::vector<const ir::Value*> release_after;  // values whose last use in this graph is this node
  };
  std::vector<Step> steps;
};

namespace {

// Values of one graph activation; captures resolve through the parent chain by name.
struct Env {
  const ir::Graph* graph = nullptr;
  const Env* parent = nullptr;
  std::unordered_map<const ir::Value*, Value> values;

  const Value* Lookup(const ir::Value* v) const {
    auto it = values.find(v);
    if (it != values.end()) return &it->second;
    if (v->is_capture()) {
      for (const Env* e = parent; e; e = e->parent) {
        const ir::Value* outer = e->graph->FindValue(v->name());
        if (!outer) continue;
        auto jt = e->values.find(outer);
        if (jt != e->values.end()) return &jt->second;
      }
    }
    return nullptr;
  }
};

}  // namespace

class ScopeRunner : public ref::SubgraphRunner {
 public:
  ScopeRunner(const Interpreter* interp, const Env* env, std::mt19937_64* rng, int depth)
      : interp_(interp), env_(env), rng_(rng), depth_(depth) {}

  Status Run(const ir::Graph& graph, const std::vector<Value>& inputs, std::vector<Value>* outputs) override;
  Status RunGraph(const ir::Graph& graph, Env* env, std::vector<Value>* outputs);

 private:
  const Interpreter* interp_;
  const Env* env_;
  std::mt19937_64* rng_;
  int depth_;
};

Status ScopeRunner::Run(const ir::Graph& graph, const std::vector<Value>& inputs, std::vector<Value>* outputs) {
  if (depth_ > 64) return ResourceExhausted("subgraph recursion deeper than 64 levels");
  if (inputs.size() != graph.inputs().size()) {
    return InvalidArgument("subgraph '" + graph.name() + "' expects " + std::to_string(graph.inputs().size()) +
                           " inputs, got " + std::to_string(inputs.size()));
  }
  Env env;
  env.graph = &graph;
  env.parent = env_;
  for (size_t i = 0; i < inputs.size(); ++i) env.values[graph.inputs()[i]] = inputs[i];
  ScopeRunner inner(interp_, &env, rng_, depth_ + 1);
  return inner.RunGraph(graph, &env, outputs);
}

Status ScopeRunner::RunGraph(const ir::Graph& graph, Env* env, std::vector<Value>* outputs) {
  for (const ir::Value* c : graph.constants()) env->values[c] = Value(*c->const_value());
  const Interpreter::Plan& plan = interp_->PlanFor(&graph);
  const auto& opsets = interp_->model_->opsets;
  std::vector<const Value*> ins;
  for (const auto& step : plan.steps) {
    const ir::Node* n = step.node;
    ref::NodeCall call;
    call.op_type = n->op_type();
    call.domain = n->domain();
    call.node_name = n->name();
    call.attrs = &n->attrs();
    auto it = opsets.find(n->domain() == "ai.onnx" ? "" : n->domain());
    call.opset = it == opsets.end() ? 1 : it->second;
    call.node = n;
    call.num_outputs = n->num_outputs();
    call.runner = this;
    call.rng = rng_;
    for (int i = 0; i < n->num_inputs(); ++i) {
      const ir::Value* v = n->input(i);
      if (!v) {
        call.inputs.push_back(nullptr);
        continue;
      }
      const Value* val = env->Lookup(v);
      if (!val) {
        return Internal("node '" + n->name() + "': input '" + v->name() + "' has no value at run time");
      }
      call.inputs.push_back(val);
    }
    auto outs = ref::RunNode(ops::BuiltinOps(), ref::RefKernels(), call);
    if (!outs.ok()) return outs.status();
    for (int i = 0; i < n->num_outputs(); ++i) {
      const ir::Value* o = n->output(i);
      if (!o) continue;
      Value& produced = (*outs)[i];
      if (produced.kind == Value::Kind::kNone) {
        return Internal("node '" + n->name() + "' (" + n->op_type() + ") did not produce output " + std::to_string(i));
      }
      env->values[o] = std::move(produced);
    }
    for (const ir::Value* v : step.release_after) env->values.erase(v);
  }
  outputs->clear();
  for (const ir::Value* o : graph.outputs()) {
    const Value* val = env->Lookup(o);
    if (!val) return Internal("graph '" + graph.name() + "' output '" + o->name() + "' was not computed");
    outputs->push_back(*val);
  }
  return Status::Ok();
}

Interpreter::~Interpreter() = default;

StatusOr<std::unique_ptr<Interpreter>> Interpreter::Create(const ir::Model* model, InterpreterOptions options) {
  if (!model || !model->graph) return InvalidArgument("no model to interpret");
  std::unique_ptr<Interpreter> interp(new Interpreter());
  interp->model_ = model;
  interp->options_ = options;
  GE_RETURN_IF_ERROR(interp->BuildPlans(model->graph.get()));
  return interp;
}

Status Interpreter::BuildPlans(const ir::Graph* g) {
  GE_ASSIGN_OR_RETURN(std::vector<ir::Node*> order, g->TopologicalOrder());
  auto plan = std::make_unique<Plan>();
  std::unordered_map<const ir::Value*, size_t> last_use;
  for (size_t i = 0; i < order.size(); ++i) {
    for (const ir::Value* v : order[i]->inputs())
      if (v) last_use[v] = i;
    // A subgraph may read any enclosing value by name: keep those alive until the node that owns it has run.
    for (auto& [attr, sub] : order[i]->subgraphs()) {
      std::vector<const ir::Graph*> stack{sub.get()};
      while (!stack.empty()) {
        const ir::Graph* s = stack.back();
        stack.pop_back();
        for (const ir::Value* v : s->values()) {
          if (!v->is_capture()) continue;
          if (const ir::Value* outer = g->FindValue(v->name())) last_use[outer] = i;
        }
        for (const ir::Node* sn : s->nodes())
          for (auto& [a2, s2] : sn->subgraphs()) stack.push_back(s2.get());
      }
    }
  }
  plan->steps.resize(order.size());
  for (size_t i = 0; i < order.size(); ++i) plan->steps[i].node = order[i];
  for (auto& [v, i] : last_use) {
    if (g->IsGraphOutput(v) || v->is_constant() || v->is_capture()) continue;
    plan->steps[i].release_after.push_back(v);
  }
  plans_[g] = std::move(plan);
  for (const ir::Node* n : order) {
    for (auto& [attr, sub] : n->subgraphs()) GE_RETURN_IF_ERROR(BuildPlans(sub.get()));
  }
  return Status::Ok();
}

const Interpreter::Plan& Interpreter::PlanFor(const ir::Graph* g) const { return *plans_.at(g); }

Status CheckValueMatches(const Value& v, const TensorDesc& desc, const std::string& what) {
  if (desc.kind == ValueKind::kUnknown) return Status::Ok();
  if (desc.kind == ValueKind::kOptional) {
    if (v.kind == Value::Kind::kOptionalNone) return Status::Ok();
  } else if (desc.kind == ValueKind::kSequence) {
    if (!v.is_sequence()) return InvalidArgument(what + ": expected a sequence");
    return Status::Ok();
  }
  if (desc.kind == ValueKind::kOptional && desc.elem_kind == ValueKind::kSequence) {
    if (!v.is_sequence()) return InvalidArgument(what + ": expected an optional sequence");
    return Status::Ok();
  }
  if (!v.is_tensor()) return InvalidArgument(what + ": expected a tensor");
  const Tensor& t = v.tensor;
  if (desc.dtype != DataType::kUndefined && t.dtype() != desc.dtype) {
    return InvalidArgument(what + ": expected dtype " + DataTypeName(desc.dtype) + ", got " + DataTypeName(t.dtype()));
  }
  if (desc.shape.unknown_rank()) return Status::Ok();
  bool ok = t.rank() == desc.shape.rank();
  for (int i = 0; ok && i < t.rank(); ++i)
    if (desc.shape.dim(i) >= 0 && desc.shape.dim(i) != t.dim(i)) ok = false;
  if (!ok) {
    return InvalidArgument(what + ": expected shape " + desc.shape.ToString() + ", got " + DimsToString(t.dims()));
  }
  return Status::Ok();
}

Status Interpreter::Run(const std::vector<Value>& inputs, std::vector<Value>* outputs) const {
  const ir::Graph& g = *model_->graph;
  if (inputs.size() != g.inputs().size()) {
    return InvalidArgument("model expects " + std::to_string(g.inputs().size()) + " inputs, got " +
                           std::to_string(inputs.size()));
  }
  Env env;
  env.graph = &g;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const ir::Value* in = g.inputs()[i];
    GE_RETURN_IF_ERROR(CheckValueMatches(inputs[i], in->desc(), "input '" + in->name() + "'"));
    env.values[in] = inputs[i];
  }
  std::mt19937_64 rng(options_.seed);
  ScopeRunner runner(this, &env, &rng, 0);
  return runner.RunGraph(g, &env, outputs);
}

}  // namespace ge
