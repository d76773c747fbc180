#include "runtime/v2/execute_graph.h"

#include <algorithm>

namespace ge::runtime::v2 {

uint32_t ExecuteGraph::AddGraphInput() {
  inputs_.push_back(std::make_unique<Chain>());
  return static_cast<uint32_t>(inputs_.size() - 1);
}

Chain* ExecuteGraph::Resolve(ChainRef ref) {
  if (ref.node == ChainRef::kGraphInput) return inputs_.at(ref.index).get();
  return &node_outputs_.at(ref.node)[ref.index];
}

uint32_t ExecuteGraph::AddNode(KernelFn fn, std::string name, const std::vector<ChainRef>& inputs,
                               uint32_t num_outputs, std::shared_ptr<const void> data) {
  const uint32_t id = static_cast<uint32_t>(nodes_.size());
  auto node = std::make_unique<ExecNode>();
  node->fn = fn;
  node->name = std::move(name);
  auto in = std::make_unique<Chain*[]>(inputs.size() + 1);
  for (size_t i = 0; i < inputs.size(); ++i) {
    in[i] = Resolve(inputs[i]);
    const uint32_t producer = inputs[i].node;
    if (producer != ChainRef::kGraphInput) {
      std::vector<uint32_t>& c = nodes_.at(producer)->consumers;
      if (std::find(c.begin(), c.end(), id) == c.end()) {
        c.push_back(id);
        ++node->in_degree;
      }
    }
  }
  auto out = std::make_unique<Chain[]>(num_outputs + 1);
  node->ctx.num_inputs = static_cast<uint32_t>(inputs.size());
  node->ctx.num_outputs = num_outputs;
  node->ctx.inputs = in.get();
  node->ctx.outputs = out.get();
  node->ctx.node_data = data.get();
  node_inputs_.push_back(std::move(in));
  node_outputs_.push_back(std::move(out));
  if (data != nullptr) data_.push_back(std::move(data));
  nodes_.push_back(std::move(node));
  return id;
}

void ExecuteGraph::AddControlEdge(uint32_t from, uint32_t to) {
  std::vector<uint32_t>& c = nodes_.at(from)->consumers;
  if (std::find(c.begin(), c.end(), to) != c.end()) return;
  c.push_back(to);
  ++nodes_.at(to)->in_degree;
}

void ExecuteGraph::AddGraphOutput(ChainRef ref) { outputs_.push_back(ref); }

Chain& ExecuteGraph::graph_output(uint32_t i) { return *Resolve(outputs_.at(i)); }

void ExecuteGraph::Bind(ExecutionState* exec) {
  for (auto& n : nodes_) n->ctx.exec = exec;
}

std::string KernelKindOf(const std::string& exec_node_name) {
  const size_t slash = exec_node_name.rfind('/');
  return slash == std::string::npos ? exec_node_name : exec_node_name.substr(slash + 1);
}

}  // namespace ge::runtime::v2
