#include "ir/dump.h"

#include <sstream>

namespace ge::ir {

namespace {

std::string ValueRef(const Value* v) { return v ? "%" + v->name() : "_"; }

std::string DescText(const Value* v) {
  const TensorDesc& d = v->desc();
  if (d.dtype == DataType::kUndefined && d.kind == ValueKind::kTensor) return "?";
  return d.ToString();
}

void DumpGraph(const Graph& g, int indent, std::ostringstream& os) {
  const std::string pad(indent, ' ');
  os << pad << "graph " << g.name() << "(";
  for (size_t i = 0; i < g.inputs().size(); ++i) {
    os << (i ? ", " : "") << ValueRef(g.inputs()[i]) << ": " << DescText(g.inputs()[i]);
  }
  os << ") {\n";
  for (const Value* v : g.values()) {
    if (v->is_constant()) os << pad << "  const " << ValueRef(v) << ": " << DescText(v) << "\n";
  }
  for (const Value* v : g.values()) {
    if (v->is_capture()) os << pad << "  capture " << ValueRef(v) << "\n";
  }
  auto order = g.TopologicalOrder();
  std::vector<Node*> nodes = order.ok() ? *order : g.nodes();
  if (!order.ok()) os << pad << "  # " << order.status().message() << "\n";
  for (const Node* n : nodes) {
    os << pad << "  " << n->name() << ": ";
    for (int i = 0; i < n->num_outputs(); ++i) {
      const Value* o = n->output(i);
      os << (i ? ", " : "") << ValueRef(o);
      if (o) os << ": " << DescText(o);
    }
    os << " = " << (n->domain().empty() ? "" : n->domain() + "::") << n->op_type() << "(";
    for (int i = 0; i < n->num_inputs(); ++i) os << (i ? ", " : "") << ValueRef(n->input(i));
    os << ")";
    bool first = true;
    for (const auto& [name, a] : n->attrs().all()) {
      if (a.type == AttrValue::Type::kGraph) continue;
      os << (first ? " {" : ", ") << name << "=" << a.ToString();
      first = false;
    }
    if (!first) os << "}";
    if (!n->engine().empty()) os << " @" << n->engine();
    for (const Node* c : n->control_inputs()) os << " ^" << c->name();
    os << "\n";
    for (const auto& [attr, sub] : n->subgraphs()) {
      os << pad << "    " << attr << " =\n";
      DumpGraph(*sub, indent + 6, os);
    }
  }
  os << pad << "  return";
  for (size_t i = 0; i < g.outputs().size(); ++i) os << (i ? ", " : " ") << ValueRef(g.outputs()[i]);
  os << "\n" << pad << "}\n";
}

std::string DotEscape(const std::string& s) {
  std::string o;
  for (char c : s) {
    if (c == '"' || c == '\\') o += '\\';
    o += c;
  }
  return o;
}

}  // namespace

std::string DumpText(const Graph& g) {
  std::ostringstream os;
  os.precision(9);
  DumpGraph(g, 0, os);
  return os.str();
}

std::string DumpDot(const Graph& g) {
  std::ostringstream os;
  os << "digraph \"" << DotEscape(g.name()) << "\" {\n  rankdir=TB;\n";
  for (const Value* v : g.inputs()) {
    os << "  \"v:" << DotEscape(v->name()) << "\" [shape=ellipse,label=\"" << DotEscape(v->name()) << "\\n"
       << DotEscape(DescText(v)) << "\"];\n";
  }
  auto nodes = g.nodes();
  for (const Node* n : nodes) {
    os << "  \"n:" << DotEscape(n->name()) << "\" [shape=box,label=\"" << DotEscape(n->op_type()) << "\\n"
       << DotEscape(n->name()) << "\"];\n";
  }
  for (const Node* n : nodes) {
    for (const Value* in : n->inputs()) {
      if (!in) continue;
      std::string src = in->producer() && in->producer()->graph() == &g ? "n:" + in->producer()->name()
                                                                          : "v:" + in->name();
      if (!in->producer() && !in->is_graph_input()) {
        os << "  \"" << DotEscape(src) << "\" [shape=note,label=\"" << DotEscape(in->name()) << "\"];\n";
      }
      os << "  \"" << DotEscape(src) << "\" -> \"n:" << DotEscape(n->name()) << "\" [label=\"" << DotEscape(DescText(in))
         << "\"];\n";
    }
    for (const Node* c : n->control_inputs()) {
      os << "  \"n:" << DotEscape(c->name()) << "\" -> \"n:" << DotEscape(n->name()) << "\" [style=dashed];\n";
    }
  }
  for (const Value* o : g.outputs()) {
    os << "  \"out:" << DotEscape(o->name()) << "\" [shape=ellipse,label=\"" << DotEscape(o->name()) << "\"];\n";
    std::string src = o->producer() ? "n:" + o->producer()->name() : "v:" + o->name();
    os << "  \"" << DotEscape(src) << "\" -> \"out:" << DotEscape(o->name()) << "\";\n";
  }
  os << "}\n";
  return os.str();
}

}  // namespace ge::ir
