// Internal to lowering: the scope of one IR graph being lowered, and what a converter sees of the node it lowers.
#pragma once
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "runtime/v2/lowering/lowering.h"

namespace ge::runtime::v2 {

// A value as the graph being lowered sees it: its slot, the chain that orders its readers after its producer, and
// whether its shape is fixed at lowering (then slot->t's dtype and shape are set).
struct ValueRef {
  ValueSlot* slot = nullptr;  // nullptr: omitted optional input
  ChainRef chain;
  bool is_static = false;
};

class ModelLowering;

// The names of enclosing values read by |g| or any graph nested in it that |g| does not define itself.
std::vector<std::string> FreeNames(const ir::Graph& g);

class GraphScope {
 public:
  GraphScope(ModelLowering* model, const ir::Graph* g, GraphScope* parent, LoweredGraph* out)
      : model_(model), g_(g), parent_(parent), out_(out) {}
  Status Lower();

  // A value of this graph, or one of an enclosing graph by name (a capture: a graph input chain of this graph that
  // points at the enclosing slot).
  StatusOr<ValueRef> Ref(const ir::Value* v);
  StatusOr<ValueRef> Resolve(const std::string& name);
  ExecuteGraph& graph() { return *out_->graph; }
  ModelLowering& model() { return *model_; }
  LoweredGraph* out() { return out_; }
  const ir::Graph& ir() const { return *g_; }

  // Converter hooks (NodeLowering forwards here).
  void Define(const ir::Value* v, ChainRef chain, bool is_static);
  void AddReader(const ir::Node* n, uint32_t exec_node) { readers_[n].push_back(exec_node); }

 private:
  Status LowerNode(const ir::Node& n, ConverterKind converter, const std::vector<const ir::Value*>& reads,
                   const std::unordered_map<const ir::Value*, size_t>& last_read, size_t index);
  // Node indices (into g_->nodes()) in execution order: |given|'s, checked to be a topological order, or lowering's
  // own (topological with the reads of subgraphs counted as edges; ties in creation order).
  StatusOr<std::vector<size_t>> Order(const GraphPlan* given) const;
  const TensorDesc& Desc(const ir::Value* v) const;
  std::vector<TensorDesc> OutputDescs(const ir::Node& n);

  ModelLowering* model_;
  const ir::Graph* g_;
  GraphScope* parent_;
  LoweredGraph* out_;
  std::unordered_map<const ir::Value*, ValueRef> values_;
  std::map<std::string, ValueRef> captured_;
  std::unordered_map<const ir::Node*, std::vector<uint32_t>> readers_;  // exec nodes reading each IR node's inputs
  std::unordered_map<const ir::Value*, std::vector<const ir::Node*>> read_by_;  // IR nodes reading each value
  std::unordered_map<const ir::Value*, TensorDesc> descs_;  // inferred where the IR left a dtype undefined
};

class ModelLowering {
 public:
  ModelLowering(const ir::Model& model, const LoweringOptions& options, LoweredModel* out)
      : model_(model), options_(options), out_(out) {}
  ValueSlot* NewSlot(const ir::Value* v);
  ValueSlot* NewSlot(const ir::Value* v, const TensorDesc& desc);
  const LoweringOptions& options() const { return options_; }
  const ir::Model& ir() const { return model_; }
  LoweredModel& out() { return *out_; }
  ExecuteGraph& init() { return *out_->init; }
  int64_t OpsetFor(const std::string& domain) const;
  // Lowers |g| as a subgraph of a node of |parent|, into |out|.
  Status LowerSubgraph(const ir::Graph& g, GraphScope* parent, LoweredGraph* out);
  // A new graph's entry in the plan being recorded (its index), and the given plan's entry for it (null when
  // lowering decides; DataLoss when the given plan has no such graph).
  size_t NewGraphPlan();
  StatusOr<const GraphPlan*> GivenGraphPlan(size_t index) const;
  // Values computed by shape-derived (memoized) nodes (ComputeNode::memo).
  void MarkShapeDerived(const ValueSlot* s) { shape_derived_.insert(s); }
  bool IsShapeDerived(const ValueSlot* s) const { return shape_derived_.count(s) != 0; }

 private:
  std::unordered_set<const ValueSlot*> shape_derived_;
  const ir::Model& model_;
  const LoweringOptions& options_;
  LoweredModel* out_;
};

// What a converter works with: the node, its inputs' refs, its output slots (one per IR output, nullptr where
// absent), and where to put runtime kernels.
class NodeLowering {
 public:
  static constexpr uint32_t kNoNode = 0xFFFFFFFFu;
  NodeLowering(GraphScope* scope, const ir::Node* node, std::vector<ValueRef> inputs, std::vector<ValueRef> captures,
               std::vector<ValueSlot*> outputs, std::vector<ValueSlot*> frees)
      : scope_(scope), node_(node), inputs_(std::move(inputs)), captures_(std::move(captures)),
        outputs_(std::move(outputs)), frees_(std::move(frees)) {}
  const ir::Node& node() const { return *node_; }
  const std::vector<ValueRef>& inputs() const { return inputs_; }
  // The enclosing values the node's subgraphs read (FreeNames of each subgraph, resolved here).
  const std::vector<ValueRef>& captures() const { return captures_; }
  const std::vector<ValueSlot*>& outputs() const { return outputs_; }
  ModelLowering& model() { return scope_->model(); }
  GraphScope& scope() { return *scope_; }
  // Adds a runtime kernel to Main named "<node>/<kind>".
  uint32_t AddMain(KernelFn fn, const char* kind, const std::vector<ChainRef>& in, uint32_t num_outputs,
                   std::shared_ptr<const void> data);
  uint32_t AddInit(KernelFn fn, const char* kind, std::shared_ptr<const void> data);
  // Output i is ready after |chain|; its shape is fixed at lowering when |is_static|.
  void SetOutput(int i, ChainRef chain, bool is_static);
  // |exec_node| reads the node's inputs (FreeMemory of a value waits for every reader).
  void AddReader(uint32_t exec_node) { scope_->AddReader(node_, exec_node); }
  // Chains of the present inputs (then captures): what a kernel reading them depends on.
  std::vector<ChainRef> InputChains(bool with_captures) const;
  // The values to free once this node has run (inputs it reads last, outputs nobody reads). A converter that frees
  // them itself (a fused kernel) takes them for |exec_node|, which then waits for every reader; else the graph
  // gets a FreeMemory kernel after the node.
  std::vector<ValueSlot*> TakeFrees(uint32_t exec_node) {
    free_owner_ = exec_node;
    return std::move(frees_);
  }
  uint32_t free_owner() const { return free_owner_; }

 private:
  GraphScope* scope_;
  const ir::Node* node_;
  std::vector<ValueRef> inputs_, captures_;
  std::vector<ValueSlot*> outputs_;
  std::vector<ValueSlot*> frees_;
  uint32_t free_owner_ = kNoNode;
};

}  // namespace ge::runtime::v2
