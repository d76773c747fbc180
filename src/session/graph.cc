// ge::Graph: a builder over an ir::Model. Values are handles (indices into the builder's value list); the first
// error sticks and every later call is a no-op.
#include <fstream>
#include <sstream>
#include <utility>

#include "ge/graph.h"
#include "ir/graph.h"
#include "om/ir_proto.h"
#include "ops/op_id.h"
#include "ops/op_schema.h"
#include "parser/onnx/onnx_parser.h"
#include "ir/text_parser.h"
#include "session/graph_access.h"

namespace ge {

struct Graph::Impl {
  std::unique_ptr<ir::Model> model;
  std::vector<ir::Value*> values;  // by handle id
  Status status = Status::Ok();
  int next_node = 0;

  ir::Graph& g() { return *model->graph; }
  Value Add(ir::Value* v) {
    values.push_back(v);
    return Value{static_cast<int>(values.size()) - 1};
  }
  ir::Value* Get(Value h, const std::string& what) {
    if (!status.ok()) return nullptr;
    if (h.id < 0 || h.id >= static_cast<int>(values.size())) {
      status = InvalidArgument("graph '" + g().name() + "': " + what + " is not a value of this graph");
      return nullptr;
    }
    return values[h.id];
  }
  bool NameFree(const std::string& name, const std::string& what) {
    if (!status.ok()) return false;
    if (name.empty() || g().FindValue(name) != nullptr) {
      status = InvalidArgument("graph '" + g().name() + "': " + what + " name '" + name + "' is empty or taken");
      return false;
    }
    return true;
  }
  std::vector<Value> AddNode(const std::string& op_type, const std::string& domain, const std::vector<Value>& inputs,
                             const ir::AttrMap& attrs, int num_outputs, const std::string& node_name = "");
};

namespace {

ir::AttrValue ToIrAttr(const AttrValue& a) {
  switch (a.kind()) {
    case AttrValue::Kind::kInt:
      return ir::AttrValue::Int(a.i());
    case AttrValue::Kind::kFloat:
      return ir::AttrValue::Float(a.f());
    case AttrValue::Kind::kString:
      return ir::AttrValue::String(a.s());
    case AttrValue::Kind::kTensor:
      return ir::AttrValue::TensorValue(a.t());
    case AttrValue::Kind::kInts:
      return ir::AttrValue::Ints(a.ints());
    case AttrValue::Kind::kFloats:
      return ir::AttrValue::Floats(a.floats());
    case AttrValue::Kind::kStrings:
      return ir::AttrValue::Strings(a.strings());
  }
  return ir::AttrValue();
}

}  // namespace

std::vector<Graph::Value> Graph::Impl::AddNode(const std::string& op_type, const std::string& domain,
                                               const std::vector<Value>& inputs, const ir::AttrMap& attrs,
                                               int num_outputs, const std::string& node_name) {
  if (!status.ok()) return std::vector<Value>(std::max(num_outputs, 0));
  const ops::OpSchema* schema = ops::BuiltinOps().Find(domain, op_type);
  const std::string label = (domain.empty() ? "" : domain + ".") + op_type;
  if (schema == nullptr) {
    status = NotFound("graph '" + g().name() + "': unknown op " + label + " (not in ge's op table)");
    return std::vector<Value>(std::max(num_outputs, 0));
  }
  const int n_in = static_cast<int>(inputs.size());
  if (n_in < schema->min_inputs || n_in > schema->max_inputs || num_outputs < schema->min_outputs ||
      num_outputs > schema->max_outputs) {
    status = InvalidArgument("graph '" + g().name() + "': " + label + " takes " + std::to_string(schema->min_inputs) +
                             ".." + std::to_string(schema->max_inputs) + " inputs and " +
                             std::to_string(schema->min_outputs) + ".." + std::to_string(schema->max_outputs) +
                             " outputs, got " + std::to_string(n_in) + " and " + std::to_string(num_outputs));
    return std::vector<Value>(std::max(num_outputs, 0));
  }
  std::vector<ir::Value*> ins;
  for (size_t i = 0; i < inputs.size(); ++i) ins.push_back(Get(inputs[i], label + " input " + std::to_string(i)));
  if (!status.ok()) return std::vector<Value>(num_outputs);
  const std::string name =
      node_name.empty() ? g().UniqueValueName(op_type + "_" + std::to_string(next_node++)) : node_name;
  std::vector<ir::Value*> outs;
  for (int i = 0; i < num_outputs; ++i) {
    outs.push_back(g().AddValue(g().UniqueValueName(name + (num_outputs > 1 ? ":" + std::to_string(i) : ""))));
  }
  const std::string ir_domain = ops::OpDomain(schema->id);
  ir::Node* n = g().AddNode(op_type, name, ins, outs, ir_domain);
  n->attrs() = attrs;
  if (!ir_domain.empty() && model->opsets.count(ir_domain) == 0) model->opsets[ir_domain] = 1;
  std::vector<Value> handles;
  for (ir::Value* v : outs) handles.push_back(Add(v));
  return handles;
}

Graph::Graph(const std::string& name) : impl_(std::make_unique<Impl>()) {
  impl_->model = std::make_unique<ir::Model>();
  impl_->model->graph = std::make_unique<ir::Graph>(name);
  impl_->model->opsets[""] = 17;
  impl_->model->producer = "ge::Graph";
}
Graph::Graph(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Graph::~Graph() = default;
Graph::Graph(Graph&&) noexcept = default;
Graph& Graph::operator=(Graph&&) noexcept = default;

StatusOr<Graph> Graph::FromOnnxFile(const std::string& path) {
  GE_ASSIGN_OR_RETURN(std::unique_ptr<ir::Model> model, onnx_parser::ParseModelFile(path));
  return session::GraphAccess::FromModel(std::move(model));
}

StatusOr<Graph> Graph::FromGeirFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return NotFound("cannot open IR text file '" + path + "'");
  std::ostringstream text;
  text << in.rdbuf();
  if (!in.good() && !in.eof()) return DataLoss("cannot read IR text file '" + path + "'");
  auto model = ir::ParseModelText(text.str());
  if (!model.ok()) return model.status().WithContext(path);
  return session::GraphAccess::FromModel(std::move(*model));
}

StatusOr<Graph> Graph::Clone() const {
  GE_RETURN_IF_ERROR(impl_->status);
  GE_ASSIGN_OR_RETURN(std::unique_ptr<ir::Model> copy, session::GraphAccess::CloneModel(*impl_->model));
  auto impl = std::make_unique<Impl>();
  impl->model = std::move(copy);
  // Handles keep their meaning: values by name.
  for (const ir::Value* v : impl_->values) impl->values.push_back(impl->model->graph->FindValue(v->name()));
  impl->next_node = impl_->next_node;
  return Graph(std::move(impl));
}

const std::string& Graph::name() const { return impl_->model->graph->name(); }
Status Graph::status() const { return impl_->status; }

std::vector<std::string> Graph::input_names() const {
  std::vector<std::string> out;
  for (const ir::Value* v : impl_->model->graph->inputs()) out.push_back(v->name());
  return out;
}

std::vector<std::string> Graph::output_names() const {
  std::vector<std::string> out;
  for (const ir::Value* v : impl_->model->graph->outputs()) out.push_back(v->name());
  return out;
}

bool Graph::has_training_info() const { return !impl_->model->training_info.empty(); }

Graph::Value Graph::Input(const std::string& name, DataType dtype, const std::vector<int64_t>& dims) {
  if (!impl_->NameFree(name, "input")) return Value{};
  return impl_->Add(impl_->g().AddInput(name, TensorDesc(dtype, Shape(dims))));
}

Graph::Value Graph::Constant(const std::string& name, const Tensor& value) {
  if (!impl_->NameFree(name, "constant")) return Value{};
  if (!value.valid()) {
    impl_->status = InvalidArgument("graph '" + this->name() + "': constant '" + name + "' has no data");
    return Value{};
  }
  return impl_->Add(impl_->g().AddConstant(name, value));
}

Graph::Value Graph::Variable(const std::string& name, DataType dtype, const std::vector<int64_t>& dims,
                             const Tensor* init_value) {
  if (!impl_->NameFree(name, "variable")) return Value{};
  ir::AttrMap attrs;
  attrs.Set("dtype", ir::AttrValue::Int(static_cast<int64_t>(dtype)));
  attrs.Set("shape", ir::AttrValue::Ints(dims));
  if (init_value != nullptr) attrs.Set("_init_value", ir::AttrValue::TensorValue(*init_value));
  std::vector<Value> out = impl_->AddNode("Variable", "ge", {}, attrs, 1, name);
  if (impl_->status.ok()) impl_->g().RenameValue(impl_->values[out[0].id], name);
  return out[0];
}

std::vector<Graph::Value> Graph::Op(const std::string& op_type, const std::vector<Value>& inputs, const Attrs& attrs,
                                    int num_outputs, const std::string& domain) {
  ir::AttrMap ir_attrs;
  for (const auto& [k, v] : attrs) ir_attrs.Set(k, ToIrAttr(v));
  return impl_->AddNode(op_type, domain, inputs, ir_attrs, num_outputs);
}

Graph::Value Graph::Op1(const std::string& op_type, const std::vector<Value>& inputs, const Attrs& attrs) {
  return Op(op_type, inputs, attrs, 1)[0];
}

Graph::Value Graph::Assign(Value ref, Value value) { return impl_->AddNode("Assign", "ge", {ref, value}, {}, 1)[0]; }
Graph::Value Graph::AssignAdd(Value ref, Value value) {
  return impl_->AddNode("AssignAdd", "ge", {ref, value}, {}, 1)[0];
}
Graph::Value Graph::AssignSub(Value ref, Value value) {
  return impl_->AddNode("AssignSub", "ge", {ref, value}, {}, 1)[0];
}
Graph::Value Graph::VarIsInitialized(Value ref) { return impl_->AddNode("VarIsInitializedOp", "ge", {ref}, {}, 1)[0]; }

void Graph::AddOutput(Value v) {
  ir::Value* value = impl_->Get(v, "output");
  if (value != nullptr) impl_->g().AddOutput(value);
}

namespace session {

const ir::Model& GraphAccess::Model(const Graph& g) { return *g.impl_->model; }

Graph GraphAccess::FromModel(std::unique_ptr<ir::Model> model) {
  auto impl = std::make_unique<Graph::Impl>();
  impl->model = std::move(model);
  for (ir::Value* v : impl->model->graph->inputs()) impl->values.push_back(v);
  for (ir::Value* v : impl->model->graph->outputs()) impl->values.push_back(v);
  return Graph(std::move(impl));
}

StatusOr<std::unique_ptr<ir::Model>> GraphAccess::CloneModel(const ir::Model& model) {
  GE_ASSIGN_OR_RETURN(proto::IrModelProto p, om::ModelToProto(model));
  return om::ModelFromProto(p);
}

}  // namespace session
}  // namespace ge
