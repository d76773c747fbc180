// The labels of runtime v2's Main-graph kernels in a `--trace` timeline (base/trace_recorder.h). A compute kernel
// (Launch, fused Compute, a reference-kernel node) is labelled like a sink-runtime kernel (v1/kernel_trace_label.h)
// with category "kernel"; the runtime's own kernels (InferShape, AllocMemory, FreeMemory, ...) get category
// "runtime". A compute node's implementation can change between runs (its prepared-kernel cache follows the
// shapes), so For() re-labels a node when its current kernel changed; earlier labels stay valid.
// Threading: For() may be called from several threads at once (the multi-thread executor's workers), for
// different nodes or the same.
#pragma once
#include <cstdint>
#include <deque>
#include <mutex>
#include <vector>

#include "base/trace_recorder.h"
#include "runtime/v2/execute_graph.h"

namespace ge::runtime::v2 {

class KernelTraceLabels {
 public:
  explicit KernelTraceLabels(const ExecuteGraph* graph) : graph_(graph), current_(graph->num_nodes()) {}
  // The label of node |i| as it ran last; stable until this object is destroyed.
  const trace::TraceLabel* For(uint32_t i);

 private:
  struct Current {
    const void* kernel = nullptr;  // the prepared kernel the label names (null: none yet, or not a compute node)
    const trace::TraceLabel* label = nullptr;
  };
  const ExecuteGraph* graph_;
  std::vector<Current> current_;
  std::mutex mu_;                         // guards labels_
  std::deque<trace::TraceLabel> labels_;  // stable addresses
};

}  // namespace ge::runtime::v2
