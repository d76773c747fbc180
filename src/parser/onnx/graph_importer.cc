// GraphProto → ir::Graph: initializers, inputs, nodes (two passes, so producers may follow consumers), attributes,
// nested subgraphs with captures of enclosing values, outputs.
#include "parser/onnx/graph_importer.h"

#include <onnx/onnx_pb.h>

#include <set>

#include "ops/op_schema.h"

namespace ge::onnx_parser {

namespace {

constexpr int kMaxSubgraphDepth = 32;

std::string GraphWhat(const ir::Graph& g) { return "graph '" + g.name() + "'"; }

// The graph's own initializers, as constants; returns their names.
StatusOr<std::set<std::string>> ImportInitializers(const onnx::GraphProto& gp, const std::string& base_dir,
                                                   ir::Graph* g) {
  const std::string gname = GraphWhat(*g);
  std::set<std::string> init_names;
  for (int i = 0; i < gp.initializer_size(); ++i) {
    const auto& tp = gp.initializer(i);
    if (tp.name().empty()) return InvalidArgument(gname + ": initializer " + std::to_string(i) + " has no name");
    if (!init_names.insert(tp.name()).second) {
      return InvalidArgument(gname + ": initializer '" + tp.name() + "' is defined twice");
    }
    ir::ConstSource source;
    GE_ASSIGN_OR_RETURN(Tensor t, TensorFromProto(tp, base_dir, "initializer '" + tp.name() + "'", &source));
    ir::Value* v = g->AddConstant(tp.name(), std::move(t));
    if (!source.path.empty() && source.length > 0) v->set_const_source(std::move(source));
  }
  if (gp.sparse_initializer_size() > 0) return Unimplemented(gname + ": sparse initializers are not supported");
  return init_names;
}

Status ImportInputs(const onnx::GraphProto& gp, const std::set<std::string>& init_names, ir::Graph* g) {
  const std::string gname = GraphWhat(*g);
  for (const auto& in : gp.input()) {
    if (init_names.count(in.name())) continue;  // an initializer listed as input (IR < 4): a constant here
    if (in.name().empty()) return InvalidArgument(gname + ": a graph input has no name");
    if (g->FindValue(in.name())) return InvalidArgument(gname + ": input '" + in.name() + "' is defined twice");
    GE_ASSIGN_OR_RETURN(TensorDesc d, DescFromTypeProto(in.type(), "graph input '" + in.name() + "'"));
    g->AddInput(in.name(), d);
  }
  return Status::Ok();
}

// Value info for node outputs; a type the importer cannot read is ignored (it is only a hint).
void ImportValueInfo(const onnx::GraphProto& gp, ir::Graph* g) {
  for (const auto& vi : gp.value_info()) {
    ir::Value* v = g->FindValue(vi.name());
    if (!v || v->is_constant() || v->is_graph_input()) continue;
    auto d = DescFromTypeProto(vi.type(), "value_info '" + vi.name() + "'");
    if (d.ok()) v->desc() = *d;
  }
}

}  // namespace

std::string GraphImporter::GraphName(const onnx::GraphProto& gp) { return gp.name().empty() ? "graph" : gp.name(); }

std::string GraphImporter::NodeName(const onnx::NodeProto& np, int index) {
  return np.name().empty() ? np.op_type() + "_" + std::to_string(index) : np.name();
}

StatusOr<std::unique_ptr<ir::Graph>> GraphImporter::Import(const onnx::GraphProto& gp, std::vector<ir::Graph*> scopes,
                                                           int depth) {
  if (depth > kMaxSubgraphDepth) return InvalidArgument("subgraphs are nested more than 32 levels deep");
  auto g = std::make_unique<ir::Graph>(GraphName(gp));
  const std::string gname = GraphWhat(*g);

  GE_ASSIGN_OR_RETURN(std::set<std::string> init_names, ImportInitializers(gp, options_.base_dir, g.get()));
  GE_RETURN_IF_ERROR(ImportInputs(gp, init_names, g.get()));

  // Pass 1: every node output becomes a value, so producers may follow consumers in the file.
  for (int ni = 0; ni < gp.node_size(); ++ni) {
    const auto& np = gp.node(ni);
    for (const auto& out : np.output()) {
      if (out.empty()) continue;
      if (g->FindValue(out)) {
        return InvalidArgument("node '" + NodeName(np, ni) + "' (" + np.op_type() + "): output '" + out +
                               "' is already defined (ONNX values are assigned once)");
      }
      g->AddValue(out);
    }
  }
  ImportValueInfo(gp, g.get());

  // Pass 2: nodes, their inputs (resolving outer-scope names into captures) and subgraphs.
  scopes.push_back(g.get());
  for (int ni = 0; ni < gp.node_size(); ++ni) {
    const auto& np = gp.node(ni);
    const std::string name = NodeName(np, ni);
    const std::string where = "node '" + name + "' (" + np.op_type() + ")";
    if (np.op_type().empty()) return InvalidArgument(where + ": empty op_type");
    if (np.domain() == "ge") {  // the compiler's internal ops (ge::FusedConv ...) are not part of any ONNX opset
      return Unimplemented(where + ": domain 'ge' holds ge's internal ops, which ONNX models cannot use");
    }
    if (options_.check_known_ops && !ops::BuiltinOps().Find(np.domain(), np.op_type())) {
      return Unimplemented(where + ": unknown op '" + (np.domain().empty() ? "" : np.domain() + "::") +
                           np.op_type() + "'");
    }
    std::vector<ir::Value*> inputs;
    for (int ii = 0; ii < np.input_size(); ++ii) {
      const std::string& in = np.input(ii);
      if (in.empty()) {
        inputs.push_back(nullptr);
        continue;
      }
      GE_ASSIGN_OR_RETURN(ir::Value * v, Resolve(in, scopes));
      if (!v) {
        return InvalidArgument(where + ": input " + std::to_string(ii) + " '" + in +
                               "' is not produced by any node and is not a graph input or initializer" +
                               (outer_values_ ? " (of this graph or the main graph)" : ""));
      }
      inputs.push_back(v);
    }
    std::vector<ir::Value*> outputs;
    for (const auto& out : np.output()) outputs.push_back(out.empty() ? nullptr : g->FindValue(out));
    ir::Node* node = g->AddNode(np.op_type(), name, inputs, outputs, np.domain());
    for (const auto& ap : np.attribute()) {
      GE_RETURN_IF_ERROR(ImportAttribute(ap, node, scopes, depth, where));
    }
  }

  for (const auto& out : gp.output()) {
    GE_ASSIGN_OR_RETURN(ir::Value * v, Resolve(out.name(), scopes));
    if (!v) return InvalidArgument(gname + ": output '" + out.name() + "' is not produced by any node");
    auto d = DescFromTypeProto(out.type(), "graph output '" + out.name() + "'");
    if (!d.ok()) return d.status();
    if (!v->is_constant() && !v->is_graph_input() && v->desc().dtype == DataType::kUndefined) v->desc() = *d;
    g->AddOutput(v);
  }
  return g;
}

StatusOr<ir::Value*> GraphImporter::Resolve(const std::string& name, const std::vector<ir::Graph*>& scopes) {
  if (ir::Value* v = FindInScopes(name, scopes)) return v;
  GE_ASSIGN_OR_RETURN(bool captured, CaptureOuterValue(name, scopes.front()));
  if (!captured) return nullptr;
  return FindInScopes(name, scopes);
}

// Finds `name` in the innermost graph, or in an enclosing one (then adds a capture to the innermost).
ir::Value* GraphImporter::FindInScopes(const std::string& name, const std::vector<ir::Graph*>& scopes) {
  ir::Graph* inner = scopes.back();
  if (ir::Value* v = inner->FindValue(name)) return v;
  for (int i = static_cast<int>(scopes.size()) - 2; i >= 0; --i) {
    if (const ir::Value* outer = scopes[i]->FindValue(name)) {
      ir::Value* cap = inner->AddCapture(name);
      cap->desc() = outer->desc();
      return cap;
    }
  }
  return nullptr;
}

StatusOr<bool> GraphImporter::CaptureOuterValue(const std::string& name, ir::Graph* outermost) {
  if (!outer_values_) return false;
  GE_ASSIGN_OR_RETURN(std::optional<TensorDesc> desc, outer_values_(name));
  if (!desc) return false;
  outermost->AddCapture(name)->desc() = *desc;
  return true;
}

Status GraphImporter::ImportAttribute(const onnx::AttributeProto& ap, ir::Node* node,
                                      const std::vector<ir::Graph*>& scopes, int depth, const std::string& where) {
  const std::string what = where + " attribute '" + ap.name() + "'";
  using A = ir::AttrValue;
  if (!ap.ref_attr_name().empty()) return Unimplemented(what + ": attribute references are only valid in functions");
  switch (ap.type()) {
    case onnx::AttributeProto::FLOAT: node->attrs().Set(ap.name(), A::Float(ap.f())); break;
    case onnx::AttributeProto::INT: node->attrs().Set(ap.name(), A::Int(ap.i())); break;
    case onnx::AttributeProto::STRING: node->attrs().Set(ap.name(), A::String(ap.s())); break;
    case onnx::AttributeProto::TENSOR: {
      GE_ASSIGN_OR_RETURN(Tensor t, TensorFromProto(ap.t(), options_.base_dir, what));
      node->attrs().Set(ap.name(), A::TensorValue(std::move(t)));
      break;
    }
    case onnx::AttributeProto::FLOATS:
      node->attrs().Set(ap.name(), A::Floats({ap.floats().begin(), ap.floats().end()}));
      break;
    case onnx::AttributeProto::INTS:
      node->attrs().Set(ap.name(), A::Ints({ap.ints().begin(), ap.ints().end()}));
      break;
    case onnx::AttributeProto::STRINGS:
      node->attrs().Set(ap.name(), A::Strings({ap.strings().begin(), ap.strings().end()}));
      break;
    case onnx::AttributeProto::TENSORS: {
      std::vector<Tensor> ts;
      for (const auto& tp : ap.tensors()) {
        GE_ASSIGN_OR_RETURN(Tensor t, TensorFromProto(tp, options_.base_dir, what));
        ts.push_back(std::move(t));
      }
      node->attrs().Set(ap.name(), A::Tensors(std::move(ts)));
      break;
    }
    case onnx::AttributeProto::GRAPH: {
      GE_ASSIGN_OR_RETURN(auto sub, Import(ap.g(), scopes, depth + 1));
      node->AddSubgraph(ap.name(), std::move(sub));
      A a;
      a.type = A::Type::kGraph;
      node->attrs().Set(ap.name(), a);
      break;
    }
    case onnx::AttributeProto::TYPE_PROTO: {
      // Only the element type matters to the ops that take one (SequenceEmpty uses dtype; Optional uses type).
      GE_ASSIGN_OR_RETURN(TensorDesc d, DescFromTypeProto(ap.tp(), what));
      node->attrs().Set(ap.name() + ".dtype", A::Int(static_cast<int64_t>(d.dtype)));
      node->attrs().Set(ap.name() + ".kind", A::Int(static_cast<int64_t>(d.kind)));
      node->attrs().Set(ap.name() + ".elem_kind", A::Int(static_cast<int64_t>(d.elem_kind)));
      break;
    }
    default:
      return Unimplemented(what + ": attribute type " + std::to_string(ap.type()) + " is not supported");
  }
  return Status::Ok();
}

}  // namespace ge::onnx_parser
