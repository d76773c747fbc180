// The kernel request the compile-time passes (kernel selection, tuning) prepare a node with: the loader's request
// (exec::MakeRequest) with the model's opset, the compiled thread count, precision mode and target.
#pragma once
#include "compiler/passes/pass_manager.h"
#include <string>

#include "kernels/engine.h"
#include "kernels/exec/prepared_kernel.h"

namespace ge::compiler {

// ge.exec.variable_acc (default 1), off when graphs may compile in parallel (ge.AllowMultiGraphParallelCompile=1):
// GE's switch for variable acceleration.
inline bool VariableAccelerationOn(const PassContext& ctx) {
  return ctx.Option("ge.exec.variable_acc", "1") != "0" && ctx.Option("ge.AllowMultiGraphParallelCompile", "0") != "1";
}

// The engines of the context not turned off by ge.engine.<name>=0, in priority order: those kernel selection and
// tuning offer a node to (exec/engine_choice.h).
inline kernels::EngineList EnabledEngines(const PassContext& ctx) {
  kernels::EngineList out;
  for (const auto& e : ctx.engines) {
    if (ctx.Option(std::string("ge.engine.") + e->name(), "1") != "0") out.push_back(e);
  }
  return out;
}

inline exec::PrepareRequest CompileTimeRequest(const ir::Model& model, const ir::Node& n, int threads,
                                               const PassContext& ctx) {
  exec::RequestSettings s;
  s.opset = model.OpsetFor(n.domain());
  s.intra_op_threads = threads;
  s.allow_bf16 = ctx.Option("ge.exec.precision_mode", "fp32") == "allow_bf16";
  s.max_isa = ctx.target;
  s.variable_acc = VariableAccelerationOn(ctx);
  return exec::MakeRequest(n, s);
}

}  // namespace ge::compiler
