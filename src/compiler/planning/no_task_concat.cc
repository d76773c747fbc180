#include "compiler/planning/no_task_concat.h"

#include <unordered_set>

#include "compiler/planning/model_builder.h"
#include "ops/concat_bytes.h"
#include "ops/variable/variable_ref.h"

namespace ge::compiler {
namespace {

// A value some kernel writes into feature-map memory.
bool IsFeatureMap(const ir::Graph& graph, const ir::Value* v) {
  return v != nullptr && v->producer() != nullptr && !v->is_constant() && !v->is_graph_input() &&
         !graph.IsGraphOutput(v) && ops::RefVariable(v) == nullptr;
}

}  // namespace

StatusOr<std::vector<NoTaskConcat>> FindNoTaskConcats(const ir::Graph& graph) {
  GE_ASSIGN_OR_RETURN(std::vector<ir::Node*> topo, graph.TopologicalOrder());
  std::vector<NoTaskConcat> out;
  std::unordered_set<const ir::Value*> claimed;  // slices and parents of the Concats chosen so far
  for (const ir::Node* n : topo) {
    if (!ops::ConcatJoinsBytes(*n)) continue;
    const ir::Value* joined = n->output(0);
    if (!IsFeatureMap(graph, joined) || claimed.count(joined)) continue;
    std::unordered_set<const ir::Value*> inputs;
    NoTaskConcat c;
    c.node = n;
    uint64_t offset = 0;
    bool ok = true;
    for (int i = 0; ok && i < n->num_inputs(); ++i) {
      const ir::Value* in = n->input(i);
      ok = IsFeatureMap(graph, in) && !claimed.count(in) && inputs.insert(in).second;
      if (!ok) break;
      GE_ASSIGN_OR_RETURN(uint64_t bytes, StaticTensorBytes(in->desc()));
      c.input_offsets.push_back(offset);
      offset += bytes;
    }
    if (!ok) continue;
    GE_ASSIGN_OR_RETURN(uint64_t joined_bytes, StaticTensorBytes(joined->desc()));
    if (offset != joined_bytes) continue;
    claimed.insert(joined);
    claimed.insert(inputs.begin(), inputs.end());
    out.push_back(std::move(c));
  }
  return out;
}

}  // namespace ge::compiler
