#include "kernels/builtin_engines.h"

#include "kernels/dnnl/dnnl_engine.h"

namespace ge::kernels {

EngineList BuiltinEngines() {
  static const std::shared_ptr<const Engine> dnnl = dnnl_kernels::CreateDnnlEngine();
  return {dnnl};
}

}  // namespace ge::kernels
