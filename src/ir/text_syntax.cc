#include "ir/text_syntax.h"

#include <algorithm>
#include <limits>

namespace ge::ir::text {

namespace {

constexpr int kMaxGraphDepth = 64;
// Largest tensor an <elided N elements> body stands for (read back as zeros).
constexpr int64_t kMaxElidedBytes = int64_t{1} << 30;

// Out-of-range doubles become +-inf instead of an undefined conversion.
float NarrowToFloat(double d) {
  if (d > std::numeric_limits<float>::max()) return std::numeric_limits<float>::infinity();
  if (d < -std::numeric_limits<float>::max()) return -std::numeric_limits<float>::infinity();
  return static_cast<float>(d);
}

bool IsFloatWord(const std::string& s) {
  int64_t i;
  double d;
  return !ToInt64(s, &i) && ToDouble(s, &d);
}

}  // namespace

const Token& SyntaxParser::Next() {
  const Token& t = t_[p_];
  if (p_ + 1 < t_.size()) ++p_;
  return t;
}

bool SyntaxParser::IsPunct(const char* s, size_t k) const { return Peek(k).kind == Tok::kPunct && Peek(k).text == s; }
bool SyntaxParser::IsWord(const char* s, size_t k) const { return Peek(k).kind == Tok::kWord && Peek(k).text == s; }
bool SyntaxParser::IsName(size_t k) const { return Peek(k).kind == Tok::kWord || Peek(k).kind == Tok::kString; }

bool SyntaxParser::Accept(const char* punct) {
  if (!IsPunct(punct)) return false;
  Next();
  return true;
}

Status SyntaxParser::Expected(const std::string& what) const {
  return ErrorAt(Peek().line, Peek().col, "expected " + what + ", got " + Describe(Peek()));
}

Status SyntaxParser::Expect(const char* punct, const std::string& context) {
  if (Accept(punct)) return Status::Ok();
  return Expected(std::string("'") + punct + "' " + context);
}

Status SyntaxParser::ExpectEnd() const {
  if (Peek().kind == Tok::kEnd) return Status::Ok();
  return Expected("end of input after the graph");
}

StatusOr<std::string> SyntaxParser::ParseName(const std::string& what) {
  if (!IsName()) return Expected(what);
  return Next().text;
}

StatusOr<int64_t> SyntaxParser::ParseInt(const std::string& what) {
  int64_t v;
  if (Peek().kind != Tok::kWord || !ToInt64(Peek().text, &v)) return Expected(what);
  Next();
  return v;
}

StatusOr<DataType> SyntaxParser::ParseDataType() {
  if (Peek().kind != Tok::kWord || !DataTypeFromName(Peek().text).ok()) return Expected("a data type (float32, int64, ...)");
  return *DataTypeFromName(Next().text);
}

StatusOr<Shape> SyntaxParser::ParseShape() {
  GE_RETURN_IF_ERROR(Expect("[", "to start a shape"));
  if (Accept("*")) {
    GE_RETURN_IF_ERROR(Expect("]", "after '*' (unknown rank)"));
    return Shape::UnknownRank();
  }
  Shape s;
  while (!Accept("]")) {
    if (s.rank() > 0) GE_RETURN_IF_ERROR(Expect(",", "or ']' in a shape"));
    int64_t d;
    if (Accept("?")) {
      s.AddDim(kUnknownDim);
    } else if (Peek().kind == Tok::kWord && ToInt64(Peek().text, &d)) {
      Next();
      s.AddDim(d < 0 ? kUnknownDim : d);
    } else if (IsName()) {
      s.AddDim(kUnknownDim, Next().text);
    } else {
      return Expected("a dim (a number, '?' or a symbol)");
    }
  }
  return s;
}

StatusOr<TensorDesc> SyntaxParser::ParseDesc() {
  TensorDesc d;
  if (Accept("?")) {
    d.kind = ValueKind::kUnknown;
    return d;
  }
  int close = 0;
  if (IsWord("optional") && IsPunct("(", 1)) {
    Next(), Next(), ++close;
    d.kind = ValueKind::kOptional;
  }
  if (IsWord("seq") && IsPunct("(", 1)) {
    Next(), Next(), ++close;
    (d.kind == ValueKind::kOptional ? d.elem_kind : d.kind) = ValueKind::kSequence;
  }
  GE_ASSIGN_OR_RETURN(d.dtype, ParseDataType());
  GE_ASSIGN_OR_RETURN(d.shape, ParseShape());
  if (Peek().kind == Tok::kAt) {
    if (!ParseFormat(Peek().text, &d.format)) {
      return Expected("a format (ND, NCHW, NHWC, NC1HWC0, NC1HWC0_C8, FRACTAL_Z) after '@'");
    }
    Next();
  }
  while (close-- > 0) GE_RETURN_IF_ERROR(Expect(")", "to close the type"));
  return d;
}

StatusOr<DefAst> SyntaxParser::ParseDef(bool allow_omitted) {
  DefAst d;
  d.loc = {Peek().line, Peek().col};
  if (allow_omitted && IsWord("_")) {
    Next();
    d.omitted = true;
    return d;
  }
  if (Peek().kind != Tok::kRef) return Expected(allow_omitted ? "a value (%name) or '_'" : "a value (%name)");
  d.name = Next().text;
  if (Accept(":")) {
    GE_ASSIGN_OR_RETURN(d.desc, ParseDesc());
    d.has_desc = true;
  }
  return d;
}

StatusOr<RefAst> SyntaxParser::ParseRef() {
  RefAst r;
  r.loc = {Peek().line, Peek().col};
  if (IsWord("_")) {
    Next();
    r.omitted = true;
  } else if (Peek().kind == Tok::kRef) {
    r.name = Next().text;
  } else {
    return Expected("a value (%name) or '_'");
  }
  return r;
}

StatusOr<Tensor> SyntaxParser::ParseTypedTensor() {
  const Token where = Peek();
  GE_ASSIGN_OR_RETURN(DataType dt, ParseDataType());
  GE_ASSIGN_OR_RETURN(Shape s, ParseShape());
  if (!s.IsFullyKnown()) return ErrorAt(where.line, where.col, "a tensor needs known dims, got " + s.ToString());
  return ParseBody(dt, s.dims(), where);
}

StatusOr<Tensor> SyntaxParser::ParseBody(DataType dt, const Dims& dims, const Token& where) {
  const std::string type = std::string(DataTypeName(dt)) + DimsToString(dims);
  if (dt == DataType::kUndefined) return ErrorAt(where.line, where.col, "a tensor cannot have data type undefined");
  if (Peek().kind == Tok::kAngle && Peek().text == "null") {
    Next();
    return Tensor();
  }
  // Bounded before anything is allocated: values written out need a token each, and an elided tensor (a dump's
  // placeholder for large weights, read back as zeros) at most kMaxElidedBytes.
  auto numel = CheckedNumElements(dims);
  if (!numel.ok()) return ErrorAt(where.line, where.col, numel.status().message());
  const Token start = Peek();
  const bool elided = start.kind == Tok::kAngle;
  const int64_t element_bytes = std::max<int64_t>(1, static_cast<int64_t>(DataTypeSize(dt)));
  if (elided && *numel > kMaxElidedBytes / element_bytes) {
    return ErrorAt(where.line, where.col, type + " is elided, and elided tensors are read back as zeros of at most " +
                                              std::to_string(kMaxElidedBytes) + " bytes");
  }
  if (!elided && *numel > static_cast<int64_t>(t_.size() - std::min(p_, t_.size()))) {
    return ErrorAt(where.line, where.col, type + " has " + std::to_string(*numel) +
                                              " elements, more than the text's remaining tokens");
  }
  auto made = Tensor::Create(dt, dims);
  if (!made.ok()) return ErrorAt(where.line, where.col, made.status().message());
  Tensor t = std::move(made).value();
  if (start.kind == Tok::kAngle) {
    int64_t n = -1;
    if (start.text.rfind("elided ", 0) == 0) {
      std::string rest = start.text.substr(7);
      size_t sp = rest.find(' ');
      if (sp == std::string::npos || rest.substr(sp) != " elements" || !ToInt64(rest.substr(0, sp), &n)) n = -1;
    }
    if (n < 0) return Expected("'[' or <elided N elements> for the values of " + type);
    if (n != t.numel()) {
      return ErrorAt(start.line, start.col, "elided " + std::to_string(n) + " elements, but " + type + " has " +
                                                std::to_string(t.numel()));
    }
    Next();
    return t;
  }
  GE_RETURN_IF_ERROR(Expect("[", "to start the values of " + type));
  int64_t count = 0;
  while (!Accept("]")) {
    if (count > 0) GE_RETURN_IF_ERROR(Expect(",", "or ']' between tensor values"));
    if (count >= t.numel()) {
      return ErrorAt(start.line, start.col, type + " has " + std::to_string(t.numel()) + " elements, got more");
    }
    GE_RETURN_IF_ERROR(ParseElement(&t, count++));
  }
  if (count != t.numel()) {
    return ErrorAt(start.line, start.col, type + " has " + std::to_string(t.numel()) + " elements, got " +
                                              std::to_string(count));
  }
  return t;
}

Status SyntaxParser::ParseElement(Tensor* t, int64_t i) {
  const Token tok = Peek();
  const std::string what = std::string("a ") + DataTypeName(t->dtype()) + " value";
  bool ok = false;
  auto number = [&](double* d) { return tok.kind == Tok::kWord && ToDouble(tok.text, d); };
  Status visit = VisitDataType(t->dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    T& out = t->data<T>()[i];
    if constexpr (std::is_same_v<T, std::string>) {
      if ((ok = tok.kind == Tok::kString)) out = tok.text;
    } else if constexpr (std::is_same_v<T, bool>) {
      if ((ok = tok.kind == Tok::kWord && (tok.text == "true" || tok.text == "1"))) out = true;
      if (tok.kind == Tok::kWord && (tok.text == "false" || tok.text == "0")) ok = true, out = false;
    } else if constexpr (std::is_same_v<T, std::complex<float>> || std::is_same_v<T, std::complex<double>>) {
      if (!IsPunct("(")) return;
      Next();
      double re, im;  // on failure the error points at the element's first token
      if (Peek().kind != Tok::kWord || !ToDouble(Next().text, &re)) return;
      if (!Accept(",") || Peek().kind != Tok::kWord || !ToDouble(Next().text, &im)) return;
      if (IsPunct(")")) ok = true, out = T(re, im);
    } else if constexpr (std::is_floating_point_v<T> || std::is_same_v<T, float16> || std::is_same_v<T, bfloat16>) {
      double d;
      if (!(ok = number(&d))) return;
      if constexpr (std::is_same_v<T, double>) {
        out = d;
      } else {
        out = static_cast<T>(NarrowToFloat(d));
      }
    } else if constexpr (std::is_signed_v<T>) {
      int64_t v;
      ok = tok.kind == Tok::kWord && ToInt64(tok.text, &v) && v >= std::numeric_limits<T>::min() &&
           v <= std::numeric_limits<T>::max();
      if (ok) out = static_cast<T>(v);
    } else {
      uint64_t v;
      ok = tok.kind == Tok::kWord && ToUint64(tok.text, &v) && v <= std::numeric_limits<T>::max();
      if (ok) out = static_cast<T>(v);
    }
  });
  GE_RETURN_IF_ERROR(visit);
  if (!ok) return ErrorAt(tok.line, tok.col, "expected " + what + ", got " + Describe(tok));
  Next();
  return Status::Ok();
}

StatusOr<AttrValue> SyntaxParser::ParseAttr() {
  const Token tok = Peek();
  if (tok.kind == Tok::kString) return AttrValue::String(Next().text);
  if (tok.kind == Tok::kAngle) {
    AttrValue a;
    if (tok.text == "graph") a.type = AttrValue::Type::kGraph;
    if (tok.text == "graphs") a.type = AttrValue::Type::kGraphs;
    if (tok.text != "graph" && tok.text != "graphs" && tok.text != "undefined") {
      return Expected("<graph>, <graphs> or <undefined>");
    }
    Next();
    return a;
  }
  if (IsPunct("[")) return ParseAttrList();
  if (tok.kind != Tok::kWord) return Expected("an attribute value");
  if (IsPunct("[", 1) && IsPunct("]", 2)) {
    using T = AttrValue::Type;
    const std::pair<const char*, T> kEmpty[] = {
        {"ints", T::kInts}, {"floats", T::kFloats}, {"strings", T::kStrings}, {"tensors", T::kTensors}};
    for (const auto& [name, type] : kEmpty) {
      if (tok.text != name) continue;
      Next(), Next(), Next();
      AttrValue a;
      a.type = type;
      return a;
    }
  }
  if (DataTypeFromName(tok.text).ok() && IsPunct("[", 1)) {
    GE_ASSIGN_OR_RETURN(Tensor t, ParseTypedTensor());
    return AttrValue::TensorValue(std::move(t));
  }
  int64_t i = 0;
  double d = 0;
  if (!ToInt64(tok.text, &i) && !ToDouble(tok.text, &d)) {
    return Expected("an attribute value (number, string, list or tensor)");
  }
  Next();
  return ToInt64(tok.text, &i) ? AttrValue::Int(i) : AttrValue::Float(NarrowToFloat(d));
}

StatusOr<AttrValue> SyntaxParser::ParseAttrList() {
  Next();  // '['
  if (Accept("]")) return AttrValue::Ints({});
  if (Peek().kind == Tok::kString) {
    std::vector<std::string> v;
    do {
      if (Peek().kind != Tok::kString) return Expected("a string in a list of strings");
      v.push_back(Next().text);
    } while (Accept(","));
    GE_RETURN_IF_ERROR(Expect("]", "to close the list of strings"));
    return AttrValue::Strings(std::move(v));
  }
  if (Peek().kind == Tok::kWord && DataTypeFromName(Peek().text).ok()) {
    std::vector<Tensor> v;
    do {
      GE_ASSIGN_OR_RETURN(Tensor t, ParseTypedTensor());
      v.push_back(std::move(t));
    } while (Accept(","));
    GE_RETURN_IF_ERROR(Expect("]", "to close the list of tensors"));
    return AttrValue::Tensors(std::move(v));
  }
  std::vector<Token> words;
  bool floats = false;
  do {
    double d;
    if (Peek().kind != Tok::kWord || !ToDouble(Peek().text, &d)) return Expected("a number in a list of numbers");
    floats = floats || IsFloatWord(Peek().text);
    words.push_back(Next());
  } while (Accept(","));
  GE_RETURN_IF_ERROR(Expect("]", "to close the list of numbers"));
  std::vector<int64_t> ints;
  std::vector<float> fs;
  for (const Token& w : words) {
    double d;
    int64_t i;
    if (!floats && !ToInt64(w.text, &i)) return ErrorAt(w.line, w.col, "integer '" + w.text + "' is out of range");
    ToDouble(w.text, &d);
    if (floats) fs.push_back(NarrowToFloat(d)); else ints.push_back(i);
  }
  return floats ? AttrValue::Floats(std::move(fs)) : AttrValue::Ints(std::move(ints));
}

Status SyntaxParser::ParseNode(GraphAst* g) {
  NodeAst n;
  n.loc = {Peek().line, Peek().col};
  n.name = Next().text;
  GE_RETURN_IF_ERROR(Expect(":", "after the node name"));
  if (!IsPunct("=")) {
    do {
      GE_ASSIGN_OR_RETURN(DefAst d, ParseDef(true));
      n.outputs.push_back(std::move(d));
    } while (Accept(","));
  }
  GE_RETURN_IF_ERROR(Expect("=", "after the outputs of node " + NameText(n.name)));
  GE_ASSIGN_OR_RETURN(n.op_type, ParseName("an op type"));
  if (Accept("::")) {
    n.domain = n.op_type;
    GE_ASSIGN_OR_RETURN(n.op_type, ParseName("an op type after '::'"));
  }
  GE_RETURN_IF_ERROR(Expect("(", "after the op type"));
  if (!IsPunct(")")) {
    do {
      GE_ASSIGN_OR_RETURN(RefAst r, ParseRef());
      n.inputs.push_back(std::move(r));
    } while (Accept(","));
  }
  GE_RETURN_IF_ERROR(Expect(")", "after the inputs of node " + NameText(n.name)));
  if (Accept("{") && !Accept("}")) {
    do {
      const Token at = Peek();
      GE_ASSIGN_OR_RETURN(std::string name, ParseName("an attribute name"));
      if (n.attrs.Has(name)) return ErrorAt(at.line, at.col, "attribute " + NameText(name) + " is set twice");
      GE_RETURN_IF_ERROR(Expect("=", "after the attribute name"));
      GE_ASSIGN_OR_RETURN(AttrValue a, ParseAttr());
      n.attrs.Set(name, std::move(a));
    } while (Accept(","));
    GE_RETURN_IF_ERROR(Expect("}", "or ',' after an attribute"));
  }
  if (Peek().kind == Tok::kAt) n.engine = Next().text;
  while (Peek().kind == Tok::kCaret) {
    n.control.push_back(RefAst{Peek().text, {Peek().line, Peek().col}, false});
    Next();
  }
  g->nodes.push_back(std::move(n));
  return Status::Ok();
}

Status SyntaxParser::ParseConst(GraphAst* g) {
  ConstAst c;
  GE_ASSIGN_OR_RETURN(c.def, ParseDef(false));
  GE_RETURN_IF_ERROR(Expect("=", "after the constant's type"));
  const Token at = Peek();
  if (IsPunct("[") || at.kind == Tok::kAngle) {
    const TensorDesc& d = c.def.desc;
    if (!c.def.has_desc || d.kind != ValueKind::kTensor || !d.shape.IsFullyKnown()) {
      return ErrorAt(at.line, at.col, "constant %" + NameText(c.def.name) +
                                          " needs a tensor type with known dims before its values, or a typed "
                                          "tensor (float32[2] [1, 2])");
    }
    GE_ASSIGN_OR_RETURN(c.value, ParseBody(d.dtype, d.shape.dims(), at));
  } else {
    GE_ASSIGN_OR_RETURN(c.value, ParseTypedTensor());
  }
  if (!c.value.valid()) return ErrorAt(at.line, at.col, "a constant needs values, got <null>");
  if (!c.def.has_desc) c.def.desc = TensorDesc(c.value.dtype(), Shape(c.value.dims()));
  g->consts.push_back(std::move(c));
  return Status::Ok();
}

Status SyntaxParser::ParseStatements(GraphAst* g, int depth) {
  const std::string opened = "graph " + NameText(g->name) + " opened at line " + std::to_string(g->loc.line) +
                             ", column " + std::to_string(g->loc.col);
  for (;;) {
    const Token tok = Peek();
    if (tok.kind == Tok::kEnd) {
      return ErrorAt(tok.line, tok.col, "unexpected end of input: " + opened + " is not closed with 'return ... }'");
    }
    if (IsWord("return")) break;
    if (IsWord("const")) {
      Next();
      GE_RETURN_IF_ERROR(ParseConst(g));
    } else if (IsWord("capture")) {
      Next();
      GE_ASSIGN_OR_RETURN(DefAst d, ParseDef(false));
      g->captures.push_back(std::move(d));
    } else if (IsName() && IsPunct("=", 1)) {
      if (g->nodes.empty()) return ErrorAt(tok.line, tok.col, "subgraph " + NameText(tok.text) + " must follow the node that owns it");
      NodeAst& owner = g->nodes.back();
      for (const auto& s : owner.subgraphs) {
        if (s.first == tok.text) return ErrorAt(tok.line, tok.col, "node " + NameText(owner.name) + " already has subgraph " + NameText(tok.text));
      }
      Next(), Next();
      GE_ASSIGN_OR_RETURN(auto sub, ParseGraph(depth + 1));
      owner.subgraphs.emplace_back(tok.text, std::move(sub));
    } else if (IsName() && IsPunct(":", 1)) {
      GE_RETURN_IF_ERROR(ParseNode(g));
    } else {
      return Expected("a statement (const, capture, NAME: ... = Op(...), NAME = graph ..., or return)");
    }
  }
  Next();  // 'return'
  if (Peek().kind == Tok::kRef || IsWord("_")) {
    do {
      GE_ASSIGN_OR_RETURN(RefAst r, ParseRef());
      g->outputs.push_back(std::move(r));
    } while (Accept(","));
  }
  if (Peek().kind == Tok::kEnd) return ErrorAt(Peek().line, Peek().col, "unexpected end of input: " + opened + " is not closed with '}'");
  return Expect("}", "to close " + opened);
}

StatusOr<std::unique_ptr<GraphAst>> SyntaxParser::ParseGraph(int depth) {
  if (depth > kMaxGraphDepth) return Expected("at most " + std::to_string(kMaxGraphDepth) + " nested subgraphs");
  auto g = std::make_unique<GraphAst>();
  g->loc = {Peek().line, Peek().col};
  if (!IsWord("graph")) return Expected("'graph'");
  Next();
  GE_ASSIGN_OR_RETURN(g->name, ParseName("a graph name"));
  GE_RETURN_IF_ERROR(Expect("(", "after the graph name"));
  if (!IsPunct(")")) {
    do {
      GE_ASSIGN_OR_RETURN(DefAst d, ParseDef(false));
      g->inputs.push_back(std::move(d));
    } while (Accept(","));
  }
  GE_RETURN_IF_ERROR(Expect(")", "after the graph inputs"));
  GE_RETURN_IF_ERROR(Expect("{", "to open the graph body"));
  GE_RETURN_IF_ERROR(ParseStatements(g.get(), depth));
  return g;
}

Status SyntaxParser::ParseHeader(Model* m) {
  for (;;) {
    const Token at = Peek();
    if (IsWord("ir_version")) {
      Next();
      GE_ASSIGN_OR_RETURN(m->ir_version, ParseInt("an IR version number"));
    } else if (IsWord("producer")) {
      Next();
      GE_ASSIGN_OR_RETURN(m->producer, ParseName("a producer name"));
    } else if (IsWord("opset")) {
      Next();
      GE_ASSIGN_OR_RETURN(std::string domain, ParseName("an opset domain (\"\" for ai.onnx)"));
      if (domain == "ai.onnx") domain.clear();
      GE_ASSIGN_OR_RETURN(int64_t version, ParseInt("an opset version number"));
      if (!m->opsets.emplace(domain, version).second) {
        return ErrorAt(at.line, at.col, "opset " + Quote(domain) + " is imported twice");
      }
    } else {
      return Status::Ok();
    }
  }
}

}  // namespace ge::ir::text
