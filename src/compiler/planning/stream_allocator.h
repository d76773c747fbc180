// Stream allocator: puts the nodes of a root graph on streams and the cross-stream dependencies on events
// (GE's LogicalStreamAllocator + StreamAllocator, compiler/graph/build/stream/; see reference/ge_facts.md §7).
//
// Nodes that own subgraphs are single nodes here; the values their subgraphs capture count as their inputs.
// Every dependency (data, control, capture) between nodes on different streams gets an event unless it is already
// implied: the plan is exact, so each event it keeps is needed (removing any one breaks a dependency).
//
// Event ids follow rt::Model: an id is recorded by exactly one task (after its record node) and may be waited by
// any number of streams, so all events recorded after one node share one id.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "base/status.h"
#include "ir/graph.h"

namespace ge::compiler {

struct StreamAllocOptions {
  int max_streams = 4;  // >= 1; 1 puts every node on stream 0
  // A branch whose total work is below this is not split off (it stays on the stream it forks from). Work of a
  // node: the bytes of its outputs when every output's dtype and shape are known, else 1. 0 splits every branch.
  uint64_t min_branch_work = 0;
  bool prune_events = true;  // false keeps one event per cross-stream dependency (for tests and debugging)
};

// Applies one GE option to |options|; keys the allocator does not know are ignored.
// "ge.streamMaxParallelNum": a positive integer.
Status ApplyStreamAllocOption(const std::string& key, const std::string& value, StreamAllocOptions* options);

struct StreamEvent {
  int id = 0;  // shared by the events recorded after the same node
  const ir::Node* record_node = nullptr;  // the record stream records after this node finishes
  const ir::Node* wait_node = nullptr;    // the wait stream waits before this node starts
  int record_stream = 0;
  int wait_stream = 0;
};

struct StreamPlan {
  int num_streams = 0;
  int num_event_ids = 0;
  std::unordered_map<const ir::Node*, int> stream_of;
  // Per stream, its nodes in execution order.
  std::vector<std::vector<const ir::Node*>> stream_nodes;
  // Ordered by wait node (execution order), then record node. A wait node's waits all precede it.
  std::vector<StreamEvent> events;
  int pruned_events = 0;  // cross-stream dependencies that needed no event of their own

  int StreamOf(const ir::Node* node) const;  // -1 when the node is not in the plan
};

// |order| must hold every node of |graph| once, in a topological order (data, control and capture edges).
// Fails with InvalidArgument otherwise or when options are out of range.
// Cost: O(edges + nodes * streams^2).
StatusOr<StreamPlan> AllocateStreams(const ir::Graph& graph, const std::vector<const ir::Node*>& order,
                                     const StreamAllocOptions& options = {});

// Proves the plan sound by simulation: streams run their nodes in list order, a wait blocks its stream until the
// record of its id has run, every interleaving is allowed. Fails with FailedPrecondition naming the nodes when a
// consumer may start before a producer finishes, or when the streams can deadlock (a cycle of waits); with
// InvalidArgument when the plan is malformed (a node missing or twice, stream ids out of range, one id recorded
// after two nodes). Does not look at |order| beyond the node set.
Status VerifyStreamPlan(const ir::Graph& graph, const std::vector<const ir::Node*>& order, const StreamPlan& plan);

}  // namespace ge::compiler
