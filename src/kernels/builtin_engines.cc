#include "kernels/builtin_engines.h"

#include "kernels/dnnl/dnnl_engine.h"
#include "kernels/exec/exec_engine.h"

namespace ge::kernels {

EngineList BuiltinEngines() {
  static const std::shared_ptr<const Engine> dnnl = dnnl_kernels::CreateDnnlEngine();
  static const std::shared_ptr<const Engine> exec = [] {
    exec::ExecEngineConfig config;
    config.peer_max_isa = dnnl_kernels::DnnlMaxIsaLevel();
    config.peer_runs_bf16 = dnnl_kernels::CpuHasBf16();
    return exec::CreateExecEngine(config);
  }();
  return {exec, dnnl};
}

}  // namespace ge::kernels
