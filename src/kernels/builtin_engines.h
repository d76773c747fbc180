// ge's engine list: the one place that names the engines ge is built with (DESIGN.md §2). Whoever creates a
// compiler or a runtime (the ge tool, the public API, tests) passes this list, or its own, down. Adding an engine
// is a new folder under kernels/ plus one line in builtin_engines.cc.
#pragma once
#include "kernels/engine.h"

namespace ge::kernels {

// The engines in priority order: ge's own compute kernels ("exec", exec/exec_engine.h: offered the other engines'
// nodes first, takes those where its kernel is the default) and the oneDNN engine ("dnnl", which claims the
// compute-heavy nodes at engine assignment). Engines are stateless, so every call may return the same objects.
EngineList BuiltinEngines();

}  // namespace ge::kernels
