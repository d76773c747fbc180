#include "ir/graph.h"

#include <algorithm>
#include <queue>
#include <set>
#include <unordered_map>

namespace ge::ir {

void Node::SetInput(int i, Value* v) {
  if (i >= num_inputs()) inputs_.resize(i + 1, nullptr);
  Value* old = inputs_[i];
  if (old) {
    auto& u = old->uses_;
    auto it = std::find(u.begin(), u.end(), Use{this, i});
    if (it != u.end()) u.erase(it);
  }
  inputs_[i] = v;
  if (v) v->uses_.push_back(Use{this, i});
}

void Node::RemoveLastInput() {
  if (inputs_.empty()) return;
  SetInput(num_inputs() - 1, nullptr);
  inputs_.pop_back();
}

void Node::RemoveControlInput(Node* n) {
  control_inputs_.erase(std::remove(control_inputs_.begin(), control_inputs_.end(), n), control_inputs_.end());
}

void Node::AddControlInput(Node* n) {
  if (std::find(control_inputs_.begin(), control_inputs_.end(), n) == control_inputs_.end()) {
    control_inputs_.push_back(n);
  }
}

Graph* Node::subgraph(const std::string& attr_name) const {
  for (auto& [name, g] : subgraphs_)
    if (name == attr_name) return g.get();
  return nullptr;
}

Graph* Node::AddSubgraph(const std::string& attr_name, std::unique_ptr<Graph> g) {
  g->parent_node_ = this;
  subgraphs_.emplace_back(attr_name, std::move(g));
  return subgraphs_.back().second.get();
}

Graph::~Graph() = default;

Graph* Graph::parent_graph() const { return parent_node_ ? parent_node_->graph() : nullptr; }

Value* Graph::AddValue(const std::string& name, TensorDesc desc) {
  auto v = std::make_unique<Value>();
  v->name_ = name;
  v->desc_ = std::move(desc);
  v->graph_ = this;
  Value* raw = v.get();
  values_.push_back(std::move(v));
  if (!name.empty()) by_name_[name] = raw;
  return raw;
}

Value* Graph::AddInput(const std::string& name, TensorDesc desc) {
  Value* v = AddValue(name, std::move(desc));
  v->is_graph_input_ = true;
  inputs_.push_back(v);
  return v;
}

Value* Graph::AddConstant(const std::string& name, Tensor t) {
  TensorDesc d(t.dtype(), Shape(t.dims()));
  Value* v = AddValue(name, d);
  v->set_const_value(std::move(t));
  return v;
}

Value* Graph::AddCapture(const std::string& name) {
  Value* v = AddValue(name);
  v->is_capture_ = true;
  return v;
}

Value* Graph::FindValue(const std::string& name) const {
  auto it = by_name_.find(name);
  return it == by_name_.end() ? nullptr : it->second;
}

void Graph::RenameValue(Value* v, const std::string& name) {
  auto it = by_name_.find(v->name_);
  if (it != by_name_.end() && it->second == v) by_name_.erase(it);
  v->name_ = name;
  if (!name.empty()) by_name_[name] = v;
}

std::string Graph::UniqueValueName(const std::string& base) const {
  if (!FindValue(base)) return base;
  for (int i = 1;; ++i) {
    std::string n = base + "_" + std::to_string(i);
    if (!FindValue(n)) return n;
  }
}

bool Graph::IsGraphOutput(const Value* v) const {
  return std::find(outputs_.begin(), outputs_.end(), v) != outputs_.end();
}

Node* Graph::AddNode(const std::string& op_type, const std::string& name, const std::vector<Value*>& inputs,
                     const std::vector<Value*>& outputs, const std::string& domain) {
  auto n = std::make_unique<Node>();
  n->op_type_ = op_type;
  n->name_ = name;
  n->domain_ = domain;
  n->graph_ = this;
  n->id_ = next_node_id_++;
  Node* raw = n.get();
  nodes_.push_back(std::move(n));
  for (size_t i = 0; i < inputs.size(); ++i) raw->SetInput(static_cast<int>(i), inputs[i]);
  raw->outputs_ = outputs;
  for (size_t i = 0; i < outputs.size(); ++i) {
    if (outputs[i]) {
      outputs[i]->producer_ = raw;
      outputs[i]->producer_output_ = static_cast<int>(i);
    }
  }
  return raw;
}

std::vector<Node*> Graph::nodes() const {
  std::vector<Node*> out;
  out.reserve(nodes_.size());
  for (auto& n : nodes_) out.push_back(n.get());
  return out;
}

void Graph::RemoveNode(Node* n) {
  for (int i = 0; i < n->num_inputs(); ++i) n->SetInput(i, nullptr);
  for (Value* o : n->outputs_) {
    if (o && o->producer_ == n) {
      o->producer_ = nullptr;
      o->producer_output_ = -1;
    }
  }
  for (auto& other : nodes_) {
    auto& ci = other->control_inputs_;
    ci.erase(std::remove(ci.begin(), ci.end(), n), ci.end());
  }
  nodes_.erase(std::remove_if(nodes_.begin(), nodes_.end(), [n](const std::unique_ptr<Node>& p) { return p.get() == n; }),
               nodes_.end());
}

void Graph::ReplaceAllUses(Value* from, Value* to) {
  std::vector<Use> uses = from->uses_;
  for (const Use& u : uses) u.node->SetInput(u.input_index, to);
  for (auto& o : outputs_)
    if (o == from) o = to;
}

void Graph::RemoveDeadValues() {
  std::set<const Value*> keep(inputs_.begin(), inputs_.end());
  keep.insert(outputs_.begin(), outputs_.end());
  std::vector<std::unique_ptr<Value>> kept;
  for (auto& v : values_) {
    bool dead = v->producer_ == nullptr && v->uses_.empty() && !keep.count(v.get()) && !v->is_capture_;
    if (dead) {
      auto it = by_name_.find(v->name_);
      if (it != by_name_.end() && it->second == v.get()) by_name_.erase(it);
    } else {
      kept.push_back(std::move(v));
    }
  }
  values_ = std::move(kept);
}

std::vector<Value*> Graph::values() const {
  std::vector<Value*> out;
  for (auto& v : values_) out.push_back(v.get());
  return out;
}

std::vector<Value*> Graph::constants() const {
  std::vector<Value*> out;
  for (auto& v : values_)
    if (v->is_constant()) out.push_back(v.get());
  return out;
}

StatusOr<std::vector<Node*>> Graph::TopologicalOrder() const {
  std::unordered_map<const Node*, int> pending;
  std::unordered_map<const Node*, std::vector<Node*>> succ;
  for (auto& n : nodes_) {
    int count = 0;
    for (Value* in : n->inputs_) {
      if (in && in->producer_ && in->producer_->graph_ == this) {
        succ[in->producer_].push_back(n.get());
        ++count;
      }
    }
    for (Node* c : n->control_inputs_) {
      succ[c].push_back(n.get());
      ++count;
    }
    pending[n.get()] = count;
  }
  auto later = [](const Node* a, const Node* b) { return a->id_ > b->id_; };
  std::priority_queue<Node*, std::vector<Node*>, decltype(later)> ready(later);
  for (auto& n : nodes_)
    if (pending[n.get()] == 0) ready.push(n.get());
  std::vector<Node*> order;
  order.reserve(nodes_.size());
  while (!ready.empty()) {
    Node* n = ready.top();
    ready.pop();
    order.push_back(n);
    for (Node* s : succ[n])
      if (--pending[s] == 0) ready.push(s);
  }
  if (order.size() != nodes_.size()) {
    for (auto& n : nodes_) {
      if (pending[n.get()] > 0) {
        return InvalidArgument("graph '" + name_ + "' has a cycle through node '" + n->name_ + "' (" + n->op_type_ + ")");
      }
    }
  }
  return order;
}

Status Graph::Validate() const {
  for (auto& n : nodes_) {
    for (int i = 0; i < n->num_inputs(); ++i) {
      Value* in = n->inputs_[i];
      if (!in) continue;
      if (!in->producer_ && !in->is_graph_input_ && !in->is_constant() && !in->is_capture_) {
        return InvalidArgument("node '" + n->name_ + "' (" + n->op_type_ + ") input " + std::to_string(i) + " '" +
                               in->name_ + "' has no producer, is not a graph input and not an initializer");
      }
    }
  }
  for (Value* o : outputs_) {
    if (!o) return InvalidArgument("graph '" + name_ + "' has a null output");
    if (!o->producer_ && !o->is_graph_input_ && !o->is_constant() && !o->is_capture_) {
      return InvalidArgument("graph '" + name_ + "' output '" + o->name_ + "' is never produced");
    }
  }
  GE_ASSIGN_OR_RETURN(auto order, TopologicalOrder());
  (void)order;
  for (auto& n : nodes_)
    for (auto& [attr, g] : n->subgraphs_) GE_RETURN_IF_ERROR(g->Validate());
  return Status::Ok();
}

int64_t Model::OpsetFor(const std::string& domain) const {
  auto it = opsets.find(domain);
  if (it != opsets.end()) return it->second;
  if (domain == "ai.onnx") {
    it = opsets.find("");
    if (it != opsets.end()) return it->second;
  }
  return 0;
}

}  // namespace ge::ir
