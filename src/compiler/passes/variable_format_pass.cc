// VariableFormat (seed 000 "变量加速", GE's VariableOpPass; on with ge.exec.variable_acc, the default): when every
// reader of a session variable converts it the same way — a uniform chain of Cast, Reshape/Squeeze/Unsqueeze/
// Flatten or ge::TransData nodes — and every write of the variable in the graph assigns a value through the exact
// inverse chain, the variable is stored in the chain's output desc instead: the chain and its inverse leave the
// graph, and the session's VarManager records the new desc and the trans road (compiler/variable_trans.h), so the
// variable's bytes are converted once (its init value at assignment, its memory by the session) rather than on
// every run. A variable changes its desc at most once (GE's kMaxVarChangeTimes_ = 1): a graph compiled after the
// change that declares the variable's original desc reads it through the inverse road and writes it through the
// road (nodes added here), unless its own chain matches the road, which is then folded the same way. Graphs
// compiled before the change see their VarMatchInfo differ and are rebuilt (IsGraphNeedRebuild). Only Assign (not
// AssignAdd/AssignSub) may write through a road with a Cast: a sum in the stored dtype would round differently.
//
// Runs on the root graph before kernel selection; the VariablePrepare run after it orders the new readers.
#include <algorithm>
#include <map>
#include <set>
#include <vector>

#include "compiler/passes/pass_util.h"
#include "compiler/passes/passes.h"
#include "compiler/variable_trans.h"
#include "ops/op_id.h"
#include "ops/variable/variable_ref.h"
#include "var/var_manager.h"

namespace ge::compiler {
namespace {

constexpr int kMaxRoadSteps = 8;

// A variable's value and every Assign-family output aliasing it (chained writes), and the writes.
struct VarUses {
  std::set<ir::Value*> refs;
  std::vector<ir::Node*> writers;
};

VarUses CollectUses(ir::Value* v) {
  VarUses u;
  std::vector<ir::Value*> todo{v};
  while (!todo.empty()) {
    ir::Value* r = todo.back();
    todo.pop_back();
    if (!u.refs.insert(r).second) continue;
    for (const ir::Use& use : r->uses()) {
      if (use.input_index == 0 && ops::IsAssignOp(*use.node)) {
        u.writers.push_back(use.node);
        if (use.node->output(0) != nullptr) todo.push_back(use.node->output(0));
      }
    }
  }
  return u;
}

bool IsWriteOfRef(const ir::Use& use) { return use.input_index == 0 && ops::IsAssignOp(*use.node); }

bool SameStep(const var::TransStep& a, const var::TransStep& b) {
  return a.node_type == b.node_type && SameStoredDesc(a.input, b.input) && SameStoredDesc(a.output, b.output);
}

bool RoadHasCast(const std::vector<var::TransStep>& road) {
  for (const var::TransStep& s : road) {
    if (s.node_type == ops::OpName(ops::OpId::kCast)) return true;
  }
  return false;
}

// |node|'s value input: an Assign-family write's value, or a trans node's data input.
ir::Value* ValueInput(const ir::Node& node) { return ops::IsAssignOp(node) ? node.input(1) : node.input(0); }

// The trans node producing a writer's value, when it performs the inverse of |step|.
ir::Node* InverseProducer(const ir::Node& writer, const var::TransStep& step) {
  ir::Value* value = ValueInput(writer);
  ir::Node* p = value != nullptr ? value->producer() : nullptr;
  if (p == nullptr || !IsVariableTransOp(*p)) return nullptr;
  const var::TransStep s = TransStepOf(*p);
  if (s.node_type != step.node_type || !SameStoredDesc(s.input, step.output) || !SameStoredDesc(s.output, step.input)) {
    return nullptr;
  }
  return p;
}

class VariableFormatPass : public GraphPass {
 public:
  explicit VariableFormatPass(std::map<std::string, std::vector<var::TransStep>>* roads) : roads_(roads) {}
  const char* name() const override { return "VariableFormat"; }

  StatusOr<bool> Run(ir::Model& model, const PassContext& ctx) override {
    if (ctx.variables == nullptr) return false;
    const bool acc = ctx.Option("ge.exec.variable_acc", "1") == "1" &&
                     ctx.Option("ge.AllowMultiGraphParallelCompile", "0") != "1";
    bool changed = false;
    for (ir::Node* n : model.graph->nodes()) {
      if (!ops::IsOp(*n, ops::OpId::kGeVariable) || n->output(0) == nullptr) continue;
      GE_ASSIGN_OR_RETURN(bool c, Variable(model, *n, *ctx.variables, acc));
      changed |= c;
    }
    if (changed) model.graph->RemoveDeadValues();
    return changed;
  }

 private:
  StatusOr<bool> Variable(ir::Model& model, ir::Node& var_node, var::VarManager& vars, bool acc) {
    ir::Graph& g = *model.graph;
    ir::Value* v = var_node.output(0);
    const std::string& name = var_node.name();
    const std::vector<var::TransStep> road = vars.GetTransRoad(name);
    if (!road.empty()) {
      auto cur = vars.GetCurVarDesc(name);
      if (!cur.ok() || SameStoredDesc(v->desc(), *cur)) return false;
      // Declared in the original desc: fold a matching chain, else read and write through the road.
      if (!SameStoredDesc(v->desc(), road.front().input) || !SameStoredDesc(*cur, road.back().output)) return false;
      if (FoldableSteps(g, v, road.size(), &road) == road.size()) {
        Fold(g, v, road);
        return true;
      }
      GE_RETURN_IF_ERROR(ThroughRoad(model, var_node, road));
      return true;
    }
    if (!acc) return false;
    std::vector<var::TransStep> steps;
    FoldableSteps(g, v, kMaxRoadSteps, nullptr, &steps);
    if (steps.empty()) return false;
    // The stored desc must fit the variable's memory when the session already placed it (GE: "recompile").
    if (vars.IsVarExist(name)) {
      auto addr = vars.GetVarAddr(name, v->desc());
      auto need = StorageNumElements(steps.back().output.shape.dims(), steps.back().output.format);
      if (!addr.ok() || !need.ok() ||
          static_cast<uint64_t>(*need) * DataTypeSize(steps.back().output.dtype) > addr->size) {
        return false;
      }
    }
    Fold(g, v, steps);
    if (roads_ != nullptr) (*roads_)[name] = steps;
    return true;
  }

  // How many leading steps of the readers' chains can fold (at most |max|; matching |want| when given), with the
  // steps in |out| when given. Analysis only: the graph is not changed. Level k's readers are every node reading
  // a value of the frontier (v, then the outputs of level k-1's readers); all must perform the same step.
  static size_t FoldableSteps(ir::Graph& g, ir::Value* v, size_t max, const std::vector<var::TransStep>* want,
                              std::vector<var::TransStep>* out = nullptr) {
    VarUses uses = CollectUses(v);
    for (ir::Node* w : uses.writers) {  // chained writes, or reads after a write: left alone
      ir::Value* o = w->output(0);
      if (w->input(0) != v || (o != nullptr && (!o->uses().empty() || g.IsGraphOutput(o)))) return 0;
    }
    const bool plain_assigns = std::all_of(uses.writers.begin(), uses.writers.end(),
                                           [](ir::Node* w) { return ops::IsOp(*w, ops::OpId::kGeAssign); });
    std::vector<var::TransStep> steps;
    std::vector<ir::Value*> frontier{v};
    std::vector<ir::Node*> inverse(uses.writers.begin(), uses.writers.end());  // per writer: its chain's node
    while (steps.size() < max) {
      var::TransStep step;
      bool any = false, uniform = true;
      std::vector<ir::Value*> next;
      for (ir::Value* f : frontier) {
        if (g.IsGraphOutput(f)) uniform = false;
        for (const ir::Use& use : f->uses()) {
          if (f == v && IsWriteOfRef(use)) continue;
          if (use.input_index != 0 || !IsVariableTransOp(*use.node)) {
            uniform = false;
            break;
          }
          const var::TransStep st = TransStepOf(*use.node);
          if (!st.output.shape.IsFullyKnown() || (any && !SameStep(st, step))) uniform = false;
          step = st;
          any = true;
          next.push_back(use.node->output(0));
        }
      }
      if (!uniform || !any) break;
      if (want != nullptr && !SameStep(step, (*want)[steps.size()])) break;
      if (step.node_type == ops::OpName(ops::OpId::kCast) && !plain_assigns) break;
      bool writes_ok = true;
      for (ir::Node*& w : inverse) {
        ir::Node* p = InverseProducer(*w, step);
        if (p == nullptr) {
          writes_ok = false;
          break;
        }
        w = p;
      }
      if (!writes_ok) break;
      steps.push_back(step);
      frontier = next;
    }
    if (out != nullptr) *out = steps;
    return steps.size();
  }

  // Removes the first |steps| levels of reader chains (and the writers' inverse chains): readers read v, stored in
  // the last step's output desc.
  static void Fold(ir::Graph& g, ir::Value* v, const std::vector<var::TransStep>& steps) {
    for (size_t k = 0; k < steps.size(); ++k) {
      // Readers of v at this level: identical trans nodes; their outputs' uses move to v.
      std::vector<ir::Node*> readers;
      std::vector<ir::Node*> writers;
      for (const ir::Use& use : v->uses()) (IsWriteOfRef(use) ? writers : readers).push_back(use.node);
      v->desc() = steps[k].output;
      for (ir::Node* r : readers) {
        ir::Value* out = r->output(0);
        g.ReplaceAllUses(out, v);
        g.RemoveNode(r);
      }
      for (ir::Node* w : writers) {
        ir::Node* p = w->input(1)->producer();
        w->SetInput(1, p->input(0));
        if (w->output(0) != nullptr) w->output(0)->desc() = steps[k].output;
        if (p->output(0)->uses().empty() && !g.IsGraphOutput(p->output(0))) g.RemoveNode(p);
      }
    }
  }

  // The variable stays stored as the road's end: readers get the inverse road, writes the road.
  static Status ThroughRoad(ir::Model& model, ir::Node& var_node, const std::vector<var::TransStep>& road) {
    ir::Graph& g = *model.graph;
    ir::Value* v = var_node.output(0);
    VarUses uses = CollectUses(v);
    if (RoadHasCast(road)) {
      for (ir::Node* w : uses.writers) {
        if (!ops::IsOp(*w, ops::OpId::kGeAssign)) {
          return FailedPrecondition("variable '" + var_node.name() + "' is stored as " +
                                    road.back().output.ToString() + " (variable acceleration folded a Cast into it), "
                                    "so node '" + w->name() + "' (" + w->op_type() + ") cannot update it in " +
                                    road.front().input.ToString() + "; assign the whole value instead");
        }
      }
    }
    for (ir::Value* r : uses.refs) {
      std::vector<ir::Use> readers;
      for (const ir::Use& use : r->uses()) {
        if (!IsWriteOfRef(use)) readers.push_back(use);
      }
      const bool is_output = g.IsGraphOutput(r);
      r->desc() = road.back().output;
      if (readers.empty() && !is_output) continue;
      ir::Value* cur = r;
      for (size_t k = road.size(); k-- > 0;) {
        GE_ASSIGN_OR_RETURN(cur, AddTransStepNode(model, road[k], /*inverse=*/true, cur));
      }
      for (const ir::Use& use : readers) use.node->SetInput(use.input_index, cur);
      for (size_t i = 0; i < g.outputs().size(); ++i) {
        if (g.outputs()[i] == r) g.SetOutput(static_cast<int>(i), cur);
      }
    }
    for (ir::Node* w : uses.writers) {
      ir::Value* cur = w->input(1);
      for (const var::TransStep& step : road) {
        GE_ASSIGN_OR_RETURN(cur, AddTransStepNode(model, step, /*inverse=*/false, cur));
      }
      w->SetInput(1, cur);
    }
    return Status::Ok();
  }

  std::map<std::string, std::vector<var::TransStep>>* roads_;
};

}  // namespace

std::unique_ptr<GraphPass> CreateVariableFormatPass(std::map<std::string, std::vector<var::TransStep>>* roads) {
  return std::make_unique<VariableFormatPass>(roads);
}

}  // namespace ge::compiler
