#include "ir/text_parser.h"

#include <algorithm>
#include <map>

#include "ir/text_syntax.h"

namespace ge::ir {

namespace {

using text::DefAst;
using text::ErrorAt;
using text::GraphAst;
using text::Loc;
using text::NameText;
using text::NodeAst;
using text::RefAst;

Status ErrorAt(const Loc& l, const std::string& msg) { return ErrorAt(l.line, l.col, msg); }

std::string LocText(const Loc& l) { return "line " + std::to_string(l.line) + ", column " + std::to_string(l.col); }

// Turns a syntax tree into a Graph: every value of a graph exists before any of its nodes is built, so uses may
// come before definitions; subgraphs resolve unknown names in enclosing graphs (innermost first) as captures.
class Builder {
 public:
  Status Build(GraphAst& a, Graph* g) {
    GE_RETURN_IF_ERROR(DefineValues(a, g));
    for (NodeAst& n : a.nodes) GE_RETURN_IF_ERROR(BuildNode(n, g));
    GE_RETURN_IF_ERROR(ConnectControl(a, g));
    for (const RefAst& r : a.outputs) {
      Value* v = nullptr;
      if (!r.omitted) {
        GE_ASSIGN_OR_RETURN(v, Resolve(r, g));
      }
      g->AddOutput(v);
    }
    return Status::Ok();
  }

 private:
  Status DefineValues(GraphAst& a, Graph* g) {
    std::vector<const DefAst*> defs;
    for (const DefAst& d : a.inputs) defs.push_back(&d);
    for (const auto& c : a.consts) defs.push_back(&c.def);
    for (const DefAst& d : a.captures) defs.push_back(&d);
    for (const NodeAst& n : a.nodes)
      for (const DefAst& d : n.outputs)
        if (!d.omitted) defs.push_back(&d);
    std::stable_sort(defs.begin(), defs.end(), [](const DefAst* x, const DefAst* y) {
      return x->loc.line != y->loc.line ? x->loc.line < y->loc.line : x->loc.col < y->loc.col;
    });
    std::map<std::string, Loc> seen;
    for (const DefAst* d : defs) {
      auto [it, fresh] = seen.emplace(d->name, d->loc);
      if (!fresh) {
        return ErrorAt(d->loc, "duplicate definition of %" + NameText(d->name) + " (first defined at " +
                                   LocText(it->second) + ")");
      }
    }
    for (const DefAst& d : a.inputs) g->AddInput(d.name, d.desc);
    for (auto& c : a.consts) g->AddConstant(c.def.name, std::move(c.value))->desc() = c.def.desc;
    for (const DefAst& d : a.captures) {
      if (!FindOuter(d.name)) {
        return ErrorAt(d.loc, outer_.empty() ? "capture %" + NameText(d.name) + " outside a subgraph"
                                             : "capture %" + NameText(d.name) + " names no value of an enclosing graph");
      }
      g->AddCapture(d.name)->desc() = d.desc;
    }
    for (const NodeAst& n : a.nodes)
      for (const DefAst& d : n.outputs)
        if (!d.omitted) g->AddValue(d.name, d.desc);
    return Status::Ok();
  }

  Value* FindOuter(const std::string& name) const {
    for (auto it = outer_.rbegin(); it != outer_.rend(); ++it)
      if (Value* v = (*it)->FindValue(name)) return v;
    return nullptr;
  }

  StatusOr<Value*> Resolve(const RefAst& r, Graph* g) {
    if (Value* v = g->FindValue(r.name)) return v;
    if (Value* outer = FindOuter(r.name)) {
      Value* cap = g->AddCapture(r.name);
      cap->desc() = outer->desc();
      return cap;
    }
    return ErrorAt(r.loc, "undefined value %" + NameText(r.name));
  }

  Status BuildNode(NodeAst& n, Graph* g) {
    std::vector<Value*> inputs, outputs;
    for (const RefAst& r : n.inputs) {
      Value* v = nullptr;
      if (!r.omitted) {
        GE_ASSIGN_OR_RETURN(v, Resolve(r, g));
      }
      inputs.push_back(v);
    }
    for (const DefAst& d : n.outputs) outputs.push_back(d.omitted ? nullptr : g->FindValue(d.name));
    Node* node = g->AddNode(n.op_type, n.name, inputs, outputs, n.domain);
    node->attrs() = std::move(n.attrs);
    node->set_engine(n.engine);
    outer_.push_back(g);
    for (auto& [attr, sub_ast] : n.subgraphs) {
      Graph* sub = node->AddSubgraph(attr, std::make_unique<Graph>(sub_ast->name));
      AttrValue marker;
      marker.type = AttrValue::Type::kGraph;
      node->attrs().Set(attr, marker);
      Status s = Build(*sub_ast, sub);
      if (!s.ok()) {
        outer_.pop_back();
        return s;
      }
    }
    outer_.pop_back();
    return Status::Ok();
  }

  Status ConnectControl(const GraphAst& a, Graph* g) {
    std::map<std::string, std::vector<Node*>> by_name;
    std::vector<Node*> nodes = g->nodes();  // in the order of a.nodes
    for (Node* n : nodes) by_name[n->name()].push_back(n);
    for (size_t i = 0; i < a.nodes.size(); ++i) {
      for (const RefAst& c : a.nodes[i].control) {
        auto it = by_name.find(c.name);
        if (it == by_name.end()) return ErrorAt(c.loc, "undefined node ^" + NameText(c.name));
        if (it->second.size() > 1) {
          return ErrorAt(c.loc, "control input ^" + NameText(c.name) + " is ambiguous: " +
                                    std::to_string(it->second.size()) + " nodes have that name");
        }
        nodes[i]->AddControlInput(it->second[0]);
      }
    }
    return Status::Ok();
  }

  std::vector<Graph*> outer_;  // enclosing graphs of the graph being built, outermost first
};

StatusOr<std::unique_ptr<Graph>> ParseGraphWith(text::SyntaxParser& p) {
  GE_ASSIGN_OR_RETURN(auto ast, p.ParseGraph());
  GE_RETURN_IF_ERROR(p.ExpectEnd());
  auto g = std::make_unique<Graph>(ast->name);
  Builder b;
  GE_RETURN_IF_ERROR(b.Build(*ast, g.get()));
  return g;
}

}  // namespace

StatusOr<std::unique_ptr<Graph>> ParseGraphText(const std::string& text) {
  GE_ASSIGN_OR_RETURN(auto tokens, text::Lex(text));
  text::SyntaxParser p(std::move(tokens));
  return ParseGraphWith(p);
}

StatusOr<std::unique_ptr<Model>> ParseModelText(const std::string& text) {
  GE_ASSIGN_OR_RETURN(auto tokens, text::Lex(text));
  text::SyntaxParser p(std::move(tokens));
  auto m = std::make_unique<Model>();
  GE_RETURN_IF_ERROR(p.ParseHeader(m.get()));
  GE_ASSIGN_OR_RETURN(m->graph, ParseGraphWith(p));
  return m;
}

}  // namespace ge::ir
