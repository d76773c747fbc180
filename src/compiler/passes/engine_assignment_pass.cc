// EngineAssignment: sets Node::engine() from an ordered rule table; the first rule that claims a node owns it.
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "compiler/passes/passes.h"
#include "ops/op_id.h"

namespace ge::compiler {
namespace {

class EngineAssignmentPass : public GraphLevelPass {
 public:
  explicit EngineAssignmentPass(std::vector<EngineRule> rules) : rules_(std::move(rules)) {}
  const char* name() const override { return "EngineAssignment"; }

  StatusOr<bool> RunOnGraph(ir::Graph& g, const PassContext& ctx) override {
    bool changed = false;
    for (ir::Node* n : g.nodes()) {
      const EngineRule* owner = nullptr;
      for (const EngineRule& r : rules_) {
        if (r.claims && r.claims(*n)) {
          owner = &r;
          break;
        }
      }
      if (!owner) {
        return FailedPrecondition("node '" + n->name() + "' (" + n->op_type() + "): no engine claims it");
      }
      if (n->engine() != owner->engine) {
        n->set_engine(owner->engine);
        changed = true;
      }
    }
    return changed;
  }

 private:
  std::vector<EngineRule> rules_;
};

}  // namespace

std::vector<EngineRule> DefaultEngineRules() {
  auto host = [](const ir::Node& n) {
    const ops::OpId id = ops::OpIdOf(n);
    return id == ops::OpId::kConstant || id == ops::OpId::kShape || id == ops::OpId::kSize;
  };
  return {{"host", host}, {"ref", [](const ir::Node&) { return true; }}};
}

std::unique_ptr<GraphPass> CreateEngineAssignmentPass(std::vector<EngineRule> rules) {
  return std::make_unique<EngineAssignmentPass>(std::move(rules));
}

}  // namespace ge::compiler
