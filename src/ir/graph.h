// The IR the compiler rewrites: a Graph owns Nodes and Values (SSA edges). A Value has at most one producer
// (a node output, a graph input, or an initializer constant) and any number of consumers. Nodes may also have
// control edges (ordering without data) and own subgraphs (If/Loop/Scan bodies), which can read values of
// enclosing graphs by name ("captures").
// Ownership: Graph owns its Nodes and Values; Node owns its subgraphs. Raw pointers between them are non-owning
// and stay valid until the pointee is removed from its graph. Not thread-safe: one writer at a time.
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "base/status.h"
#include "base/tensor.h"
#include "base/tensor_desc.h"
#include "ir/attribute.h"

namespace ge::ir {

class Graph;
class Node;

// Where a constant's bytes also lie, unchanged, in a file (ONNX external data): the compiler may reference them
// there (a ge::FileConstant) instead of copying them into the .om.
struct ConstSource {
  std::string path;  // absolute
  uint64_t offset = 0;
  uint64_t length = 0;  // bytes; the tensor's nbytes()
  std::string file_id;  // set when a FileConstant named the file by id (ge.exec.value_bins): recorded so again
};

struct Use {
  Node* node;
  int input_index;
  bool operator==(const Use& o) const { return node == o.node && input_index == o.input_index; }
};

class Value {
 public:
  const std::string& name() const { return name_; }
  void set_name(std::string n) { name_ = std::move(n); }
  TensorDesc& desc() { return desc_; }
  const TensorDesc& desc() const { return desc_; }
  Node* producer() const { return producer_; }
  int producer_output() const { return producer_output_; }
  const std::vector<Use>& uses() const { return uses_; }
  bool is_graph_input() const { return is_graph_input_; }
  // A constant (ONNX initializer, or folded by the compiler): its tensor is const_value().
  bool is_constant() const { return const_value_ != nullptr; }
  const Tensor* const_value() const { return const_value_.get(); }
  // Replacing or clearing the tensor forgets its source: the new bytes are the compiler's, not the file's.
  void set_const_value(Tensor t) {
    const_value_ = std::make_unique<Tensor>(std::move(t));
    const_source_.reset();
  }
  void clear_const_value() {
    const_value_.reset();
    const_source_.reset();
  }
  // The file holding const_value()'s bytes unchanged, or null (set by the importer after set_const_value).
  const ConstSource* const_source() const { return const_source_.get(); }
  void set_const_source(ConstSource s) { const_source_ = std::make_unique<ConstSource>(std::move(s)); }
  // Read from an enclosing graph by name (subgraphs only).
  bool is_capture() const { return is_capture_; }
  Graph* graph() const { return graph_; }

 private:
  friend class Graph;
  friend class Node;
  std::string name_;
  TensorDesc desc_;
  Node* producer_ = nullptr;
  int producer_output_ = -1;
  std::vector<Use> uses_;
  bool is_graph_input_ = false;
  bool is_capture_ = false;
  std::unique_ptr<Tensor> const_value_;
  std::unique_ptr<ConstSource> const_source_;
  Graph* graph_ = nullptr;
};

class Node {
 public:
  const std::string& name() const { return name_; }
  void set_name(std::string n) { name_ = std::move(n); }
  const std::string& op_type() const { return op_type_; }
  void set_op_type(std::string t) { op_type_ = std::move(t); }
  const std::string& domain() const { return domain_; }  // "" is the ONNX default domain
  void set_domain(std::string d) { domain_ = std::move(d); }
  AttrMap& attrs() { return attrs_; }
  const AttrMap& attrs() const { return attrs_; }
  // Engine that owns this node's kernel ("ref", "dnnl", "host"); empty until engine assignment.
  const std::string& engine() const { return engine_; }
  void set_engine(std::string e) { engine_ = std::move(e); }

  // Inputs: nullptr marks an omitted optional input. Outputs: nullptr marks an omitted optional output.
  int num_inputs() const { return static_cast<int>(inputs_.size()); }
  int num_outputs() const { return static_cast<int>(outputs_.size()); }
  Value* input(int i) const { return i < num_inputs() ? inputs_[i] : nullptr; }
  Value* output(int i) const { return i < num_outputs() ? outputs_[i] : nullptr; }
  const std::vector<Value*>& inputs() const { return inputs_; }
  const std::vector<Value*>& outputs() const { return outputs_; }
  void SetInput(int i, Value* v);  // keeps use lists right; grows the input list when needed
  void AddInput(Value* v) { SetInput(num_inputs(), v); }
  void RemoveLastInput();

  const std::vector<Node*>& control_inputs() const { return control_inputs_; }
  void AddControlInput(Node* n);
  void RemoveControlInput(Node* n);

  // Subgraphs by attribute name ("then_branch", "body", ...), in insertion order.
  Graph* subgraph(const std::string& attr_name) const;
  const std::vector<std::pair<std::string, std::unique_ptr<Graph>>>& subgraphs() const { return subgraphs_; }
  Graph* AddSubgraph(const std::string& attr_name, std::unique_ptr<Graph> g);

  Graph* graph() const { return graph_; }

 private:
  friend class Graph;
  std::string name_, op_type_, domain_, engine_;
  AttrMap attrs_;
  std::vector<Value*> inputs_;
  std::vector<Value*> outputs_;
  std::vector<Node*> control_inputs_;
  std::vector<std::pair<std::string, std::unique_ptr<Graph>>> subgraphs_;
  Graph* graph_ = nullptr;
  Node* parent_node_ = nullptr;
  int64_t id_ = 0;  // creation order, for stable ordering
};

class Graph {
 public:
  explicit Graph(std::string name = "graph") : name_(std::move(name)) {}
  ~Graph();
  Graph(const Graph&) = delete;
  Graph& operator=(const Graph&) = delete;

  const std::string& name() const { return name_; }
  void set_name(std::string n) { name_ = std::move(n); }
  // The node that owns this graph as a subgraph; nullptr for a root graph.
  Node* parent_node() const { return parent_node_; }
  Graph* parent_graph() const;

  // Values. Names are unique within a graph (not enforced across subgraphs).
  Value* AddValue(const std::string& name, TensorDesc desc = TensorDesc());
  Value* AddInput(const std::string& name, TensorDesc desc);
  Value* AddConstant(const std::string& name, Tensor t);
  Value* AddCapture(const std::string& name);
  Value* FindValue(const std::string& name) const;
  // Gives v a new name (which must not name another value of this graph) and keeps FindValue right.
  void RenameValue(Value* v, const std::string& name);
  // A name not yet used in this graph, starting from base.
  std::string UniqueValueName(const std::string& base) const;

  const std::vector<Value*>& inputs() const { return inputs_; }
  const std::vector<Value*>& outputs() const { return outputs_; }
  void AddOutput(Value* v) { outputs_.push_back(v); }
  void SetOutput(int i, Value* v) { outputs_[i] = v; }
  void ClearOutputs() { outputs_.clear(); }
  bool IsGraphOutput(const Value* v) const;

  // Nodes, in insertion order (not necessarily topological).
  Node* AddNode(const std::string& op_type, const std::string& name, const std::vector<Value*>& inputs,
                const std::vector<Value*>& outputs, const std::string& domain = "");
  std::vector<Node*> nodes() const;
  int num_nodes() const { return static_cast<int>(nodes_.size()); }
  // Removes a node: detaches its inputs and control edges; its outputs lose their producer (they must be unused
  // or re-produced by the caller).
  void RemoveNode(Node* n);
  // Points every use of `from` (nodes and graph outputs) at `to`.
  void ReplaceAllUses(Value* from, Value* to);
  // Removes values with no producer, no uses, not a graph input/output, not a capture.
  void RemoveDeadValues();
  std::vector<Value*> values() const;
  std::vector<Value*> constants() const;

  // Nodes in a topological order (data + control edges), stable: among ready nodes the earliest created goes
  // first. Fails naming a node on the cycle when there is one.
  StatusOr<std::vector<Node*>> TopologicalOrder() const;
  // Structural checks: every input has a producer/is an input/constant/capture, names unique, no cycle.
  Status Validate() const;

 private:
  friend class Node;
  std::string name_;
  Node* parent_node_ = nullptr;
  std::vector<std::unique_ptr<Node>> nodes_;
  std::vector<std::unique_ptr<Value>> values_;
  std::map<std::string, Value*> by_name_;
  std::vector<Value*> inputs_;
  std::vector<Value*> outputs_;
  int64_t next_node_id_ = 0;
};

// ONNX TrainingInfoProto: how a model trains. Names in the graphs that neither graph defines (the root graph's
// initializers) are captures. Bindings map an initializer of the root graph (key) to an output of the graph that
// computes its new value (value).
struct TrainingInfo {
  std::unique_ptr<Graph> initialization;  // may be null: nothing to initialize
  std::vector<std::pair<std::string, std::string>> initialization_binding;
  std::unique_ptr<Graph> algorithm;       // one training step
  std::vector<std::pair<std::string, std::string>> update_binding;
};

// A model: a root graph plus the opset versions it was written against.
struct Model {
  int64_t ir_version = 8;
  std::map<std::string, int64_t> opsets;  // domain ("" = ai.onnx) → version
  std::string producer;
  std::unique_ptr<Graph> graph;
  std::vector<TrainingInfo> training_info;
  // Every root-graph initializer a training graph names (binding key or capture), by name, whether or not the
  // inference graph uses it: the training state's initial values.
  std::map<std::string, Tensor> training_initializers;
  // Per root-graph input name, per dim: the range it accepts (`ge compile --input_shape="seq:1~512"`); inputs
  // not listed accept any size of their unknown dims. Serialized in the IR .om; runtime v2 enforces it.
  std::map<std::string, std::vector<DimRange>> input_ranges;
  int64_t OpsetFor(const std::string& domain) const;
};

}  // namespace ge::ir
