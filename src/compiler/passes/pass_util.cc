#include "compiler/passes/pass_util.h"

#include <algorithm>
#include <type_traits>

#include "ops/variable/variable_ref.h"

namespace ge::compiler {
namespace {

// Names `g` reads from outside itself: its captures, and what its nested subgraphs read that `g` does not define.
void CollectFreeNames(const ir::Graph& g, std::set<std::string>* out) {
  for (const ir::Value* v : g.values())
    if (v->is_capture()) out->insert(v->name());
  for (const ir::Node* n : g.nodes()) {
    for (auto& [attr, sub] : n->subgraphs()) {
      std::set<std::string> inner;
      CollectFreeNames(*sub, &inner);
      for (const std::string& name : inner) {
        const ir::Value* local = g.FindValue(name);
        if (!local || local->is_capture()) out->insert(name);
      }
    }
  }
}

}  // namespace

std::set<std::string> NodeCaptures(const ir::Node& n) {
  std::set<std::string> out;
  for (auto& [attr, sub] : n.subgraphs()) CollectFreeNames(*sub, &out);
  return out;
}

std::set<std::string> CapturedNames(const ir::Graph& g) {
  std::set<std::string> out;
  for (const ir::Node* n : g.nodes()) {
    std::set<std::string> c = NodeCaptures(*n);
    out.insert(c.begin(), c.end());
  }
  return out;
}

bool DropoutIsTraining(const ir::Node& n, int64_t opset) {
  if (opset < 7) return n.attrs().GetInt("is_test", 0) == 0;
  const ir::Value* mode = n.input(2);
  if (!mode) return false;
  const Tensor* t = mode->const_value();
  if (!t || t->numel() != 1) return true;
  return t->GetAsInt64(0) != 0;
}

bool IsNondeterministic(const ir::Node& n, const PassContext& ctx) {
  const OpId id = ops::OpIdOf(n);
  // Session state: a variable's value is not known at compile time, and two variables of one desc are not one;
  // nor is a FileConstant's, read from its file at load.
  if (ops::HasTrait(id, ops::OpTrait::kRandom | ops::OpTrait::kStateful) || id == OpId::kGeFileConstant) return true;
  return id == OpId::kDropout && DropoutIsTraining(n, ctx.OpsetFor(n.domain()));
}

bool HasSideEffects(const ir::Node& n) { return ops::IsAssignOp(n); }

StatusOr<ir::Node*> RebindOutput(ir::Graph& g, ir::Node* n, int index, ir::Value* v) {
  if (!n->subgraphs().empty()) {
    return FailedPrecondition("node '" + n->name() + "' owns subgraphs; its outputs cannot be rebound");
  }
  if (v->producer()) return Internal("value '" + v->name() + "' already has a producer");
  ir::Value* old = n->output(index);
  std::vector<ir::Value*> outs = n->outputs();
  outs[index] = v;
  ir::Node* fresh = g.AddNode(n->op_type(), n->name(), n->inputs(), outs, n->domain());
  fresh->attrs() = n->attrs();
  fresh->set_engine(n->engine());
  for (ir::Node* c : n->control_inputs()) fresh->AddControlInput(c);
  for (ir::Node* other : g.nodes()) {
    const auto& ci = other->control_inputs();
    if (std::find(ci.begin(), ci.end(), n) != ci.end()) other->AddControlInput(fresh);
  }
  if (old) g.ReplaceAllUses(old, v);
  g.RemoveNode(n);
  return fresh;
}

bool RemoveDeadValuesKeepingCaptured(ir::Graph& g) {
  std::set<std::string> captured = CapturedNames(g);
  struct Saved {
    std::string name;
    Tensor t;
    TensorDesc desc;
  };
  std::vector<Saved> keep;
  for (const ir::Value* v : g.values()) {
    if (v->is_constant() && v->uses().empty() && !v->is_graph_input() && !g.IsGraphOutput(v) &&
        captured.count(v->name())) {
      keep.push_back({v->name(), *v->const_value(), v->desc()});
    }
  }
  size_t before = g.values().size();
  g.RemoveDeadValues();
  for (Saved& s : keep) g.AddConstant(s.name, s.t)->desc() = s.desc;
  return g.values().size() != before;
}

std::vector<double> ToDoubles(const Tensor& t) {
  std::vector<double> out(t.numel());
  for (int64_t i = 0; i < t.numel(); ++i) out[i] = t.GetAsDouble(i);
  return out;
}

StatusOr<Tensor> FromDoubles(DataType dt, const Dims& dims, const std::vector<double>& values) {
  GE_ASSIGN_OR_RETURN(Tensor t, Tensor::Create(dt, dims));
  if (static_cast<int64_t>(values.size()) != t.numel()) return Internal("FromDoubles: element count mismatch");
  GE_RETURN_IF_ERROR(VisitFloatType(dt, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* p = t.data<T>();
    for (size_t i = 0; i < values.size(); ++i) {
      if constexpr (std::is_same_v<T, double>) {
        p[i] = values[i];
      } else {
        p[i] = T(static_cast<float>(values[i]));
      }
    }
  }));
  return t;
}

bool FullyKnown(const TensorDesc& d) { return d.kind == ValueKind::kTensor && d.shape.IsFullyKnown(); }

}  // namespace ge::compiler
