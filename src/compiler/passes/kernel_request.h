// The kernel request the compile-time passes (kernel selection, tuning) prepare a node with: the loader's request
// (exec::MakeRequest) with the model's opset, the compiled thread count, precision mode and target.
#pragma once
#include "compiler/passes/pass_manager.h"
#include "kernels/exec/prepared_kernel.h"

namespace ge::compiler {

inline exec::PrepareRequest CompileTimeRequest(const ir::Model& model, const ir::Node& n, int threads,
                                               const PassContext& ctx) {
  exec::RequestSettings s;
  s.opset = model.OpsetFor(n.domain());
  s.intra_op_threads = threads;
  s.allow_bf16 = ctx.Option("ge.exec.precision_mode", "fp32") == "allow_bf16";
  s.max_isa = ctx.target;
  return exec::MakeRequest(n, s);
}

}  // namespace ge::compiler
