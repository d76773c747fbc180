// VariablePrepare (seed 000; the ordering half of GE's VariablePrepareOpPass): within one run, a node that reads a
// variable's value reads it as it was before the run's writes, unless it reads a write's ref output. So every
// Assign/AssignAdd/AssignSub of a variable value gets a control edge from each other reader of that value, and the
// writes of one value run in node-creation order. A ref input that is not a variable is an error, and so is a
// graph that needs a value both before and after a write (a cycle through the new edges). A graph output that is
// a variable's value before a write becomes an Identity's output (a reader like any other). Then, GE's
// VariableRefUselessControlOutDeletePass: a control edge into a write from a node the write already depends on
// through data (the usual training step: the new value is computed from the reads) is dropped — it orders
// nothing and would cost a stream event.
#include <map>
#include <set>
#include <vector>

#include "compiler/passes/pass_util.h"
#include "compiler/passes/passes.h"
#include "ops/variable/variable_ref.h"

namespace ge::compiler {
namespace {

// Whether `to` consumes, through data edges only, something `from` produces.
bool DataReaches(const ir::Node* from, const ir::Node* to) {
  std::vector<const ir::Node*> todo{from};
  std::set<const ir::Node*> seen{from};
  while (!todo.empty()) {
    const ir::Node* n = todo.back();
    todo.pop_back();
    for (const ir::Value* out : n->outputs()) {
      if (out == nullptr) continue;
      for (const ir::Use& u : out->uses()) {
        if (u.node == to) return true;
        if (seen.insert(u.node).second) todo.push_back(u.node);
      }
    }
  }
  return false;
}

// Drops the control inputs of |w| that a data path already orders before it.
bool RemoveUselessControlInputs(ir::Node* w) {
  const std::vector<ir::Node*> inputs = w->control_inputs();
  bool changed = false;
  for (ir::Node* c : inputs) {
    if (DataReaches(c, w)) {
      w->RemoveControlInput(c);
      changed = true;
    }
  }
  return changed;
}

class VariablePreparePass : public GraphLevelPass {
 public:
  const char* name() const override { return "VariablePrepare"; }

  StatusOr<bool> RunOnGraph(ir::Graph& g, const PassContext&) override {
    std::map<const ir::Value*, std::vector<ir::Node*>> writers;  // ref value → its writes in creation order
    std::vector<const ir::Value*> refs;                           // first-write order, for determinism
    for (ir::Node* n : g.nodes()) {
      if (!ops::IsAssignOp(*n)) continue;
      const ir::Value* ref = n->input(0);
      if (ops::RefVariable(ref) == nullptr) {
        return InvalidArgument("node '" + n->name() + "' (" + n->op_type() + ") writes '" +
                               (ref ? ref->name() : std::string("<none>")) + "', which is not a variable");
      }
      if (writers[ref].empty()) refs.push_back(ref);
      writers[ref].push_back(n);
    }
    bool changed = false;
    auto add_edge = [&](ir::Node* to, ir::Node* from) {
      if (DataReaches(from, to)) return;  // already ordered
      const auto& ci = to->control_inputs();
      if (std::find(ci.begin(), ci.end(), from) != ci.end()) return;
      to->AddControlInput(from);
      changed = true;
    };
    for (const ir::Value* ref : refs) {
      const std::vector<ir::Node*>& ws = writers[ref];
      // A graph output that is the value before the writes: copied out by a reader (output copies run last).
      if (g.IsGraphOutput(ref)) {
        ir::Value* snapshot = g.AddValue(g.UniqueValueName(ref->name() + "_snapshot"), ref->desc());
        ir::Node* copy = g.AddNode("Identity", g.UniqueValueName(ref->name() + "_snapshot"),
                                   {const_cast<ir::Value*>(ref)}, {snapshot});
        copy->set_engine("ref");
        for (size_t i = 0; i < g.outputs().size(); ++i) {
          if (g.outputs()[i] == ref) g.SetOutput(static_cast<int>(i), snapshot);
        }
        changed = true;
      }
      for (const ir::Use& u : ref->uses()) {
        if (std::find(ws.begin(), ws.end(), u.node) != ws.end()) continue;
        for (ir::Node* w : ws) add_edge(w, u.node);
      }
      for (size_t i = 1; i < ws.size(); ++i) add_edge(ws[i], ws[i - 1]);
    }
    for (const ir::Value* ref : refs) {
      for (ir::Node* w : writers[ref]) changed |= RemoveUselessControlInputs(w);
    }
    if (changed && !g.TopologicalOrder().ok()) {
      const ir::Node* var = ops::RefVariable(refs.front());
      return InvalidArgument("graph '" + g.name() + "' reads a variable (e.g. '" + var->name() +
                             "') both before and after a write to it; read the write's output instead");
    }
    return changed;
  }
};

// VarIsInitializedOp folding (GE's VarIsInitializedOpPass): a compile-time answer from the session.
class VarIsInitializedFoldingPass : public GraphLevelPass {
 public:
  const char* name() const override { return "VarIsInitializedFolding"; }

  StatusOr<bool> RunOnGraph(ir::Graph& g, const PassContext& ctx) override {
    bool changed = false;
    for (ir::Node* n : g.nodes()) {
      if (!IsOp(*n, OpId::kGeVarIsInitializedOp)) continue;
      const ir::Node* var = ops::RefVariable(n->input(0));
      if (var == nullptr) return InvalidArgument("node '" + n->name() + "' (VarIsInitializedOp) reads no variable");
      const bool initialized = ctx.variable_initialized && ctx.variable_initialized(var->name());
      ir::Value* out = n->output(0);
      ir::Value* c = g.AddConstant(g.UniqueValueName(out->name() + "_folded"), Tensor::Scalar<bool>(initialized));
      g.ReplaceAllUses(out, c);
      for (size_t i = 0; i < g.outputs().size(); ++i) {
        if (g.outputs()[i] == out) g.SetOutput(static_cast<int>(i), c);
      }
      g.RemoveNode(n);
      changed = true;
    }
    if (changed) g.RemoveDeadValues();
    return changed;
  }
};

}  // namespace

std::unique_ptr<GraphPass> CreateVariablePreparePass() { return std::make_unique<VariablePreparePass>(); }
std::unique_ptr<GraphPass> CreateVarIsInitializedFoldingPass() {
  return std::make_unique<VarIsInitializedFoldingPass>();
}

}  // namespace ge::compiler
