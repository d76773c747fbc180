// DeadCodeElimination: keeps the nodes that graph outputs depend on (through data edges, control edges and the
// values subgraphs read by name) and the nodes that write variables;
// removes the rest, then values nothing produces or uses.
#include <set>
#include <vector>

#include "compiler/passes/pass_util.h"
#include "compiler/passes/passes.h"

namespace ge::compiler {
namespace {

class DeadCodeEliminationPass : public GraphLevelPass {
 public:
  const char* name() const override { return "DeadCodeElimination"; }

  StatusOr<bool> RunOnGraph(ir::Graph& g, const PassContext& ctx) override {
    std::set<const ir::Node*> live;
    std::vector<const ir::Node*> work;
    auto mark = [&](const ir::Value* v) {
      if (v && v->producer() && v->producer()->graph() == &g && live.insert(v->producer()).second) {
        work.push_back(v->producer());
      }
    };
    for (const ir::Value* o : g.outputs()) mark(o);
    for (const ir::Node* n : g.nodes()) {
      if (HasSideEffects(*n) && live.insert(n).second) work.push_back(n);
    }
    while (!work.empty()) {
      const ir::Node* n = work.back();
      work.pop_back();
      for (const ir::Value* in : n->inputs()) mark(in);
      for (const ir::Node* c : n->control_inputs()) {
        if (live.insert(c).second) work.push_back(c);
      }
      for (const std::string& name : NodeCaptures(*n)) mark(g.FindValue(name));
    }
    bool changed = false;
    for (ir::Node* n : g.nodes()) {
      if (live.count(n)) continue;
      g.RemoveNode(n);
      changed = true;
    }
    if (RemoveDeadValuesKeepingCaptured(g)) changed = true;
    return changed;
  }
};

}  // namespace

std::unique_ptr<GraphPass> CreateDeadCodeEliminationPass() { return std::make_unique<DeadCodeEliminationPass>(); }

}  // namespace ge::compiler
