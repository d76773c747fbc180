#include "ir/dump.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sstream>

#include "ir/text_lexer.h"

namespace ge::ir {

namespace {

using text::NameText;
using text::Quote;

// Shortest decimal that reads back to the same value (precision 9 for float, 17 for double).
std::string FloatText(double v, bool is_double) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v < 0 ? "-inf" : "inf";
  char buf[40];
  const int max_prec = is_double ? 17 : 9;
  for (int p = 1; p <= max_prec; ++p) {
    std::snprintf(buf, sizeof(buf), "%.*g", p, v);
    if (is_double ? std::strtod(buf, nullptr) == v : std::strtof(buf, nullptr) == static_cast<float>(v)) break;
  }
  return buf;
}

// Float attributes always read back as floats: "1.0", not "1".
std::string AttrFloatText(float f) {
  std::string s = FloatText(f, false);
  if (s.find_first_of(".eni") == std::string::npos) s += ".0";
  return s;
}

// Names that start a statement must not read back as a keyword.
std::string StmtName(const std::string& s) {
  if (s == "const" || s == "capture" || s == "return") return Quote(s);
  return NameText(s);
}

std::string SymbolText(const std::string& s) {
  bool bare = text::IsBareWord(s) && (std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_');
  return bare ? s : Quote(s);
}

std::string ShapeText(const Shape& s) {
  if (s.unknown_rank()) return "[*]";
  std::string o = "[";
  for (int i = 0; i < s.rank(); ++i) {
    if (i) o += ",";
    if (s.dim(i) >= 0) {
      o += std::to_string(s.dim(i));
    } else {
      o += s.symbol(i).empty() ? "?" : SymbolText(s.symbol(i));
    }
  }
  return o + "]";
}

bool IsDefaultDesc(const TensorDesc& d) {
  return d.kind == ValueKind::kTensor && d.dtype == DataType::kUndefined && d.shape.unknown_rank() &&
         d.format == Format::kND;
}

std::string Def(const Value* v) {
  if (!v) return "_";
  std::string s = "%" + NameText(v->name());
  return IsDefaultDesc(v->desc()) ? s : s + ": " + DescText(v->desc());
}

std::string Ref(const Value* v) { return v ? "%" + NameText(v->name()) : "_"; }

std::string ElementText(const Tensor& t, int64_t i) {
  std::string s;
  Status st = VisitDataType(t.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T& x = t.data<T>()[i];
    if constexpr (std::is_same_v<T, std::string>) {
      s = Quote(x);
    } else if constexpr (std::is_same_v<T, bool>) {
      s = x ? "true" : "false";
    } else if constexpr (std::is_same_v<T, std::complex<float>> || std::is_same_v<T, std::complex<double>>) {
      constexpr bool kDbl = std::is_same_v<T, std::complex<double>>;
      s = "(" + FloatText(x.real(), kDbl) + ", " + FloatText(x.imag(), kDbl) + ")";
    } else if constexpr (std::is_same_v<T, double>) {
      s = FloatText(x, true);
    } else if constexpr (std::is_same_v<T, float> || std::is_same_v<T, float16> || std::is_same_v<T, bfloat16>) {
      s = FloatText(static_cast<float>(x), false);
    } else {
      s = std::to_string(x);
    }
  });
  st.IgnoreError();
  return s;
}

// The element list of a tensor: "[1, 2.5]", or "<elided N elements>".
std::string TensorBody(const Tensor& t, const DumpOptions& o) {
  if (!t.valid()) return "<null>";
  const int64_t n = t.numel();
  if (o.max_tensor_elements >= 0 && n > o.max_tensor_elements) return "<elided " + std::to_string(n) + " elements>";
  std::string s = "[";
  for (int64_t i = 0; i < n; ++i) {
    if (i) s += ", ";
    s += ElementText(t, i);
  }
  return s + "]";
}

// Whether `= [...]` alone describes the constant (its dtype and dims are those of the value's desc).
bool DescImpliesTensor(const TensorDesc& d, const Tensor& t) {
  return t.valid() && d.kind == ValueKind::kTensor && d.dtype == t.dtype() && d.shape.IsFullyKnown() &&
         d.shape.dims() == t.dims();
}

void DumpGraph(const Graph& g, const DumpOptions& opt, int indent, std::ostringstream& os) {
  const std::string pad(indent, ' ');
  os << "graph " << NameText(g.name()) << "(";
  for (size_t i = 0; i < g.inputs().size(); ++i) os << (i ? ", " : "") << Def(g.inputs()[i]);
  os << ") {\n";
  for (const Value* v : g.values()) {
    if (!v->is_constant()) continue;
    os << pad << "  const %" << NameText(v->name()) << ": " << DescText(v->desc()) << " = ";
    const Tensor& t = *v->const_value();
    os << (DescImpliesTensor(v->desc(), t) ? TensorBody(t, opt) : TensorText(t, opt)) << "\n";
  }
  for (const Value* v : g.values()) {
    if (v->is_capture()) os << pad << "  capture " << Def(v) << "\n";
  }
  auto order = g.TopologicalOrder();
  std::vector<Node*> nodes = order.ok() ? *order : g.nodes();
  if (!order.ok()) os << pad << "  # " << order.status().message() << "\n";
  for (const Node* n : nodes) {
    os << pad << "  " << StmtName(n->name()) << ":";
    for (int i = 0; i < n->num_outputs(); ++i) os << (i ? ", " : " ") << Def(n->output(i));
    os << " = " << (n->domain().empty() ? "" : NameText(n->domain()) + "::") << NameText(n->op_type()) << "(";
    for (int i = 0; i < n->num_inputs(); ++i) os << (i ? ", " : "") << Ref(n->input(i));
    os << ")";
    bool first = true;
    for (const auto& [name, a] : n->attrs().all()) {
      if (a.type == AttrValue::Type::kGraph && n->subgraph(name) != nullptr) continue;  // printed below
      os << (first ? " {" : ", ") << NameText(name) << "=" << AttrText(a, opt);
      first = false;
    }
    if (!first) os << "}";
    if (!n->engine().empty()) os << " @" << NameText(n->engine());
    for (const Node* c : n->control_inputs()) os << " ^" << NameText(c->name());
    os << "\n";
    for (const auto& [attr, sub] : n->subgraphs()) {
      os << pad << "    " << StmtName(attr) << " = ";
      DumpGraph(*sub, opt, indent + 4, os);
    }
  }
  os << pad << "  return";
  for (size_t i = 0; i < g.outputs().size(); ++i) os << (i ? ", " : " ") << Ref(g.outputs()[i]);
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

std::string DotDesc(const Value* v) { return IsDefaultDesc(v->desc()) ? "?" : DescText(v->desc()); }

}  // namespace

std::string DescText(const TensorDesc& d) {
  if (d.kind == ValueKind::kUnknown) return "?";
  std::string t = std::string(DataTypeName(d.dtype)) + ShapeText(d.shape);
  if (d.format != Format::kND) t += std::string("@") + FormatName(d.format);
  if (d.kind == ValueKind::kSequence) return "seq(" + t + ")";
  if (d.kind == ValueKind::kOptional) return d.elem_kind == ValueKind::kSequence ? "optional(seq(" + t + "))" : "optional(" + t + ")";
  return t;
}

std::string TensorText(const Tensor& t, const DumpOptions& options) {
  return std::string(DataTypeName(t.dtype())) + DimsToString(t.dims()) + " " + TensorBody(t, options);
}

std::string AttrText(const AttrValue& a, const DumpOptions& options) {
  using T = AttrValue::Type;
  std::string s;
  auto list = [&s](const char* empty_name, size_t n, const char* sep, auto&& item) {
    if (n == 0) {
      s = std::string(empty_name) + "[]";
      return;
    }
    s = "[";
    for (size_t k = 0; k < n; ++k) s += (k ? sep : "") + item(k);
    s += "]";
  };
  switch (a.type) {
    case T::kUndefined: return "<undefined>";
    case T::kInt: return std::to_string(a.i);
    case T::kFloat: return AttrFloatText(a.f);
    case T::kString: return Quote(a.s);
    case T::kTensor: return TensorText(a.t, options);
    case T::kInts: list("ints", a.ints.size(), ",", [&](size_t k) { return std::to_string(a.ints[k]); }); break;
    case T::kFloats: list("floats", a.floats.size(), ",", [&](size_t k) { return AttrFloatText(a.floats[k]); }); break;
    case T::kStrings: list("strings", a.strings.size(), ",", [&](size_t k) { return Quote(a.strings[k]); }); break;
    case T::kTensors:
      list("tensors", a.tensors.size(), ", ", [&](size_t k) { return TensorText(a.tensors[k], options); });
      break;
    case T::kGraph: return "<graph>";
    case T::kGraphs: return "<graphs>";
  }
  return s;
}

std::string DumpText(const Graph& g, const DumpOptions& options) {
  std::ostringstream os;
  DumpGraph(g, options, 0, os);
  return os.str();
}

std::string DumpModelText(const Model& m, const DumpOptions& options) {
  std::ostringstream os;
  os << "ir_version " << m.ir_version << "\n";
  if (!m.producer.empty()) os << "producer " << Quote(m.producer) << "\n";
  for (const auto& [domain, version] : m.opsets) os << "opset " << Quote(domain) << " " << version << "\n";
  if (m.graph) DumpGraph(*m.graph, options, 0, os);
  return os.str();
}

std::string DumpDot(const Graph& g) {
  std::ostringstream os;
  os << "digraph \"" << DotEscape(g.name()) << "\" {\n  rankdir=TB;\n";
  for (const Value* v : g.inputs()) {
    os << "  \"v:" << DotEscape(v->name()) << "\" [shape=ellipse,label=\"" << DotEscape(v->name()) << "\\n"
       << DotEscape(DotDesc(v)) << "\"];\n";
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
      os << "  \"" << DotEscape(src) << "\" -> \"n:" << DotEscape(n->name()) << "\" [label=\"" << DotEscape(DotDesc(in))
         << "\"];\n";
    }
    for (const Node* c : n->control_inputs()) {
      os << "  \"n:" << DotEscape(c->name()) << "\" -> \"n:" << DotEscape(n->name()) << "\" [style=dashed];\n";
    }
  }
  for (const Value* o : g.outputs()) {
    if (!o) continue;
    os << "  \"out:" << DotEscape(o->name()) << "\" [shape=ellipse,label=\"" << DotEscape(o->name()) << "\"];\n";
    std::string src = o->producer() ? "n:" + o->producer()->name() : "v:" + o->name();
    os << "  \"" << DotEscape(src) << "\" -> \"out:" << DotEscape(o->name()) << "\";\n";
  }
  os << "}\n";
  return os.str();
}

}  // namespace ge::ir
