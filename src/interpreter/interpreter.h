// Interpreter: runs an ir::Model node by node on the reference kernels. It is the semantic oracle for compiled
// models and the engine behind `ge run M.onnx`. A created Interpreter is immutable; Run may be called from
// several threads at once (each run has its own value environment).
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "base/status.h"
#include "base/value.h"
#include "ir/graph.h"
#include "kernels/ref/kernel_registry.h"
#include "ops/op_schema.h"

namespace ge {

struct InterpreterOptions {
  uint64_t seed = 0;  // random ops (RandomNormal, Dropout in training mode ...) draw from a generator seeded here
};

class Interpreter {
 public:
  // Keeps a pointer to `model`, which must outlive the interpreter.
  static StatusOr<std::unique_ptr<Interpreter>> Create(const ir::Model* model, InterpreterOptions options = {});
  ~Interpreter();

  const std::vector<ir::Value*>& inputs() const { return model_->graph->inputs(); }
  const std::vector<ir::Value*>& outputs() const { return model_->graph->outputs(); }

  // Inputs in graph-input order. Checks count, kinds, dtypes and known dims against the graph's declarations.
  Status Run(const std::vector<Value>& inputs, std::vector<Value>* outputs) const;

  struct Plan;  // per-graph execution order and bookkeeping (defined in the .cc)

 private:
  Interpreter() = default;
  Status BuildPlans(const ir::Graph* g);
  const Plan& PlanFor(const ir::Graph* g) const;

  const ir::Model* model_ = nullptr;
  InterpreterOptions options_;
  std::unordered_map<const ir::Graph*, std::unique_ptr<Plan>> plans_;
  friend class ScopeRunner;
};

// Checks a run-time value against a declared desc; `what` names it in the error.
Status CheckValueMatches(const Value& v, const TensorDesc& desc, const std::string& what);

}  // namespace ge
