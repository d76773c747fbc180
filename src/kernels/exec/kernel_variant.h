// Kernel variants (`ge compile --tune`): where an engine can prepare a node several ways (a layout with or without
// reorders, direct or Winograd convolution, fewer intra-op threads for a small node), the compiler may time them
// and record its choice on the node; loading prepares the recorded variant. A variant an engine does not know, or
// cannot build on the loading CPU, falls back to the engine's default choice.
#pragma once

namespace ge::exec {

inline constexpr const char kKernelVariantAttr[] = "kernel_variant";  // string: the engine's variant name
inline constexpr const char kKernelThreadsAttr[] = "kernel_threads";  // int: intra-op threads, at most the model's
// string: the implementation kernel selection chose at compile (shown by `ge inspect`); the node's engine is then
// the one that prepared it (exec/engine_choice.h).
inline constexpr const char kKernelImplAttr[] = "kernel_impl";

}  // namespace ge::exec
