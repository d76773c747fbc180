// Test-only: a minimal subgraph runner for the control-flow unit tests. Runs a graph's nodes in topological order
// on the given registries; captures are looked up in the enclosing scopes' values by name.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "ir/graph.h"
#include "kernels/ref/node_runner.h"

namespace ge::ref::testing {

class TestGraphRunner : public SubgraphRunner {
 public:
  TestGraphRunner(const ops::OpRegistry* ops, const KernelRegistry* kernels, const TestGraphRunner* parent = nullptr)
      : ops_(ops), kernels_(kernels), parent_(parent) {}

  void Bind(const std::string& name, Value v) { env_[name] = std::move(v); }
  int runs() const { return runs_; }

  // Runs one node of an outer graph (e.g. the Loop that owns a body).
  StatusOr<std::vector<Value>> RunOne(const ir::Node* n, int64_t opset = 17) {
    NodeCall call;
    call.op_type = n->op_type();
    call.domain = n->domain();
    call.node_name = n->name();
    call.attrs = &n->attrs();
    call.opset = opset;
    call.node = n;
    call.num_outputs = n->num_outputs();
    call.runner = this;
    call.rng = &rng_;
    std::vector<Value> holders(n->num_inputs());
    for (int i = 0; i < n->num_inputs(); ++i) {
      const ir::Value* v = n->input(i);
      if (!v) {
        call.inputs.push_back(nullptr);
        continue;
      }
      GE_ASSIGN_OR_RETURN(holders[i], Lookup(v));
      call.inputs.push_back(&holders[i]);
    }
    return RunNode(*ops_, *kernels_, call);
  }

  Status Run(const ir::Graph& graph, const std::vector<Value>& inputs, std::vector<Value>* outputs) override {
    ++runs_;
    TestGraphRunner scope(ops_, kernels_, this);
    if (inputs.size() != graph.inputs().size()) return InvalidArgument("wrong number of subgraph inputs");
    for (size_t i = 0; i < inputs.size(); ++i) scope.env_[graph.inputs()[i]->name()] = inputs[i];
    GE_ASSIGN_OR_RETURN(std::vector<ir::Node*> order, graph.TopologicalOrder());
    for (ir::Node* n : order) {
      GE_ASSIGN_OR_RETURN(std::vector<Value> outs, scope.RunOne(n));
      for (int k = 0; k < n->num_outputs(); ++k) {
        if (n->output(k)) scope.env_[n->output(k)->name()] = std::move(outs[k]);
      }
    }
    outputs->clear();
    for (const ir::Value* v : graph.outputs()) {
      GE_ASSIGN_OR_RETURN(Value val, scope.Lookup(v));
      outputs->push_back(std::move(val));
    }
    runs_ += scope.runs_;
    return Status::Ok();
  }

 private:
  StatusOr<Value> Lookup(const ir::Value* v) const {
    if (v->is_constant()) return Value(*v->const_value());
    for (const TestGraphRunner* s = this; s; s = s->parent_) {
      auto it = s->env_.find(v->name());
      if (it != s->env_.end()) return it->second;
    }
    return NotFound("value '" + v->name() + "' is not bound");
  }

  const ops::OpRegistry* ops_;
  const KernelRegistry* kernels_;
  const TestGraphRunner* parent_;
  std::map<std::string, Value> env_;
  std::mt19937_64 rng_{0};
  int runs_ = 0;
};

}  // namespace ge::ref::testing
