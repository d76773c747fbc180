// Kernel preparation for a load: one PrepareKernel per request, spread over the load's threads. Preparing is most
// of a model's load (oneDNN primitive creation JITs code), requests are independent, and every engine's Prepare is
// thread-safe (oneDNN's primitive creation is; shared state such as dnnl's shared reorders is locked).
#pragma once
#include <memory>
#include <vector>

#include "base/status.h"
#include "base/trace_recorder.h"
#include "kernels/engine.h"
#include "kernels/exec/prepared_kernel.h"

namespace ge::runtime {

// results[i] is exec::PrepareKernel(requests[i], engines). Runs on up to `threads` threads, the caller's included
// (extra ones are plain threads joined before returning); each request is prepared exactly once. With a recorder,
// each preparation is a slice "prepare NODE" (its op and implementation as args) on the track of the thread that
// did it (trace::LoadTrack).
std::vector<StatusOr<std::unique_ptr<exec::PreparedKernel>>> PrepareKernels(
    const std::vector<exec::PrepareRequest>& requests, const kernels::EngineList& engines, int threads,
    trace::TraceRecorder* trace = nullptr);

}  // namespace ge::runtime
