// Feature-map buffers of a static root graph for the memory planner: one PlanBuffer per value a node produces
// that is neither a graph output nor a constant, with lifetimes in steps of the execution order.
//
// Multi-stream safety: memory freed at step s may be reused by a buffer first written at a later step only when
// that writer is ordered (by stream order and events) after every access of the freed buffer. So a buffer's
// last_step is not its last reader's step but the last step of any node that may run concurrently with (is not
// ordered after) one of its readers or its writer; computed with per-node vector clocks over the stream plan.
// With one stream this is the last reader's step.
#pragma once
#include <unordered_map>
#include <vector>

#include "base/status.h"
#include "compiler/planning/memory_planner.h"
#include "compiler/planning/no_task_concat.h"
#include "compiler/planning/stream_allocator.h"
#include "ir/graph.h"

namespace ge::compiler {

struct FeatureMapBuffers {
  std::vector<PlanBuffer> buffers;
  std::vector<const ir::Value*> values;  // parallel to buffers
};

// |order| is the execution order the stream plan was made from. In-place candidates: the output of an
// element-wise or data-movement node may take over an input of identical dims and dtype. The inputs of each of
// |concats| become aliases of the Concat's output at their offsets, the output's lifetime grown to cover theirs
// (it is first written by the first producer of a slice); an alias takes part in no in-place pair.
StatusOr<FeatureMapBuffers> CollectFeatureMapBuffers(const ir::Graph& graph, const std::vector<const ir::Node*>& order,
                                                     const StreamPlan& streams,
                                                     const std::vector<NoTaskConcat>& concats = {});

// True when |node|'s output 0 may be written over input |input| (same element index read and written, no other
// element read after it is written): element-wise math and pure data movement.
bool OutputMayOverwriteInput(const ir::Node& node, int input);

}  // namespace ge::compiler
