#include "ir/text_parser.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "ir/dump.h"

namespace ge::ir {
namespace {

// parse(dump(g)) dumps exactly as g; returns the text.
std::string ExpectRoundTrip(const Graph& g) {
  std::string text = DumpText(g);
  auto parsed = ParseGraphText(text);
  EXPECT_TRUE(parsed.ok()) << parsed.status().message() << "\n" << text;
  if (!parsed.ok()) return text;
  EXPECT_EQ(DumpText(**parsed), text);
  EXPECT_TRUE((*parsed)->Validate().ok()) << (*parsed)->Validate().message();
  return text;
}

std::string ParseError(const std::string& text) {
  auto g = ParseGraphText(text);
  EXPECT_FALSE(g.ok()) << text;
  return g.ok() ? "" : g.status().message();
}

AttrValue GraphMarker() {
  AttrValue a;
  a.type = AttrValue::Type::kGraph;
  return a;
}

TEST(TextForm, GoldenSmallGraph) {
  Graph g("g");
  Shape s({2});
  s.AddDim(kUnknownDim, "batch");
  s.AddDim(kUnknownDim);
  Value* x = g.AddInput("x", TensorDesc(DataType::kFloat, s));
  Value* w = g.AddConstant("w", Tensor::FromVector<float>({1, 2.5f, -3}, {3}));
  Value* y = g.AddValue("y", TensorDesc(DataType::kFloat, Shape::UnknownRank()));
  Value* z = g.AddValue("z");
  Node* add = g.AddNode("Add", "add", {x, w}, {y});
  add->attrs().Set("alpha", AttrValue::Float(1));
  add->attrs().Set("axes", AttrValue::Ints({0, -1}));
  add->set_engine("dnnl");
  Node* f = g.AddNode("Fused", "f", {y, nullptr}, {z, nullptr}, "com.x");
  f->AddControlInput(add);
  g.AddOutput(z);
  EXPECT_EQ(ExpectRoundTrip(g),
            "graph g(%x: float32[2,batch,?]) {\n"
            "  const %w: float32[3] = [1, 2.5, -3]\n"
            "  add: %y: float32[*] = Add(%x, %w) {alpha=1.0, axes=[0,-1]} @dnnl\n"
            "  f: %z, _ = com.x::Fused(%y, _) ^add\n"
            "  return %z\n"
            "}\n");
}

TEST(TextForm, ConstantsOfEveryType) {
  Graph g("consts");
  std::vector<Value*> cs;
  cs.push_back(g.AddConstant("f32", Tensor::FromVector<float>({0.1f, -0.0f, 1e-30f, std::nanf(""),
                                                               std::numeric_limits<float>::infinity()}, {5})));
  cs.push_back(g.AddConstant("f64", Tensor::FromVector<double>({0.1, 1.0 / 3}, {2, 1})));
  cs.push_back(g.AddConstant("f16", Tensor::FromVector<float16>({float16(1.5f), float16(-65504.f)}, {2})));
  cs.push_back(g.AddConstant("bf16", Tensor::FromVector<bfloat16>({bfloat16(3.140625f)}, {})));
  cs.push_back(g.AddConstant("i8", Tensor::FromVector<int8_t>({-128, 127}, {2})));
  cs.push_back(g.AddConstant("u64", Tensor::FromVector<uint64_t>({std::numeric_limits<uint64_t>::max()}, {1})));
  cs.push_back(g.AddConstant("i64", Tensor::FromVector<int64_t>({std::numeric_limits<int64_t>::min(), 7}, {1, 2})));
  cs.push_back(g.AddConstant("b", Tensor::FromVector<bool>({true, false}, {2})));
  cs.push_back(g.AddConstant("s", Tensor::FromVector<std::string>({"a\"b\\c\n", "\x01", "ü"}, {3})));
  cs.push_back(g.AddConstant("c", Tensor::FromVector<std::complex<float>>({{1, -2}}, {1})));
  cs.push_back(g.AddConstant("empty", Tensor::FromVector<float>({}, {0, 3})));
  Value* nchw = g.AddConstant("nchw", Tensor::FromVector<float>({1, 2}, {1, 2, 1, 1}));
  nchw->desc().format = Format::kNCHW;
  Value* odd = g.AddConstant("odd", Tensor::FromVector<int32_t>({5}, {1}));
  odd->desc() = TensorDesc();
  Value* y = g.AddValue("y");
  std::vector<Value*> ins = cs;
  ins.push_back(nchw);
  ins.push_back(odd);
  g.AddNode("Concat", "n", ins, {y});
  g.AddOutput(y);
  std::string text = ExpectRoundTrip(g);
  EXPECT_NE(text.find("const %f32: float32[5] = [0.1, -0, 1e-30, nan, inf]"), std::string::npos) << text;
  EXPECT_NE(text.find("const %f64: float64[2,1] = [0.1, 0.3333333333333333]"), std::string::npos) << text;
  EXPECT_NE(text.find("const %f16: float16[2] = [1.5, -65504]"), std::string::npos) << text;
  EXPECT_NE(text.find("const %u64: uint64[1] = [18446744073709551615]"), std::string::npos) << text;
  EXPECT_NE(text.find("const %s: string[3] = [\"a\\\"b\\\\c\\n\", \"\\x01\", \"ü\"]"), std::string::npos) << text;
  EXPECT_NE(text.find("const %c: complex64[1] = [(1, -2)]"), std::string::npos) << text;
  EXPECT_NE(text.find("const %b: bool[2] = [true, false]"), std::string::npos) << text;
  EXPECT_NE(text.find("const %empty: float32[0,3] = []"), std::string::npos) << text;
  EXPECT_NE(text.find("const %nchw: float32[1,2,1,1]@NCHW = [1, 2]"), std::string::npos) << text;
  EXPECT_NE(text.find("const %odd: undefined[*] = int32[1] [5]"), std::string::npos) << text;

  auto parsed = ParseGraphText(text);
  ASSERT_TRUE(parsed.ok());
  const Tensor* f32 = (*parsed)->FindValue("f32")->const_value();
  EXPECT_EQ(f32->data<float>()[0], 0.1f);
  EXPECT_TRUE(std::signbit(f32->data<float>()[1]));
  EXPECT_TRUE(std::isnan(f32->data<float>()[3]));
  EXPECT_EQ((*parsed)->FindValue("f64")->const_value()->data<double>()[1], 1.0 / 3);
  EXPECT_EQ((*parsed)->FindValue("s")->const_value()->data<std::string>()[0], "a\"b\\c\n");
  EXPECT_EQ((*parsed)->FindValue("i64")->const_value()->data<int64_t>()[0], std::numeric_limits<int64_t>::min());
}

TEST(TextForm, AttributesOfEveryType) {
  Graph g("attrs");
  Value* x = g.AddInput("x", TensorDesc(DataType::kFloat, Shape({1})));
  Value* y = g.AddValue("y");
  Node* n = g.AddNode("Op", "n", {x}, {y});
  AttrMap& a = n->attrs();
  a.Set("i", AttrValue::Int(-7));
  a.Set("f", AttrValue::Float(1e-5f));
  a.Set("f_whole", AttrValue::Float(2));
  a.Set("f_inf", AttrValue::Float(-std::numeric_limits<float>::infinity()));
  a.Set("f_nan", AttrValue::Float(std::nanf("")));
  a.Set("s", AttrValue::String("tab\there \"q\" \x7f"));
  a.Set("t", AttrValue::TensorValue(Tensor::FromVector<int64_t>({1, 2, 3, 4}, {2, 2})));
  a.Set("ints", AttrValue::Ints({1, -2, 3}));
  a.Set("ints_empty", AttrValue::Ints({}));
  a.Set("floats", AttrValue::Floats({1, 0.5f, -1e10f}));
  a.Set("floats_empty", AttrValue::Floats({}));
  a.Set("strings", AttrValue::Strings({"a", "", "b,c"}));
  a.Set("strings_empty", AttrValue::Strings({}));
  a.Set("tensors", AttrValue::Tensors({Tensor::Scalar<float>(1), Tensor::FromVector<bool>({true}, {1})}));
  a.Set("tensors_empty", AttrValue::Tensors({}));
  a.Set("undef", AttrValue());
  a.Set("graph_no_body", GraphMarker());
  a.Set("weird name", AttrValue::Int(1));
  g.AddOutput(y);
  std::string text = ExpectRoundTrip(g);
  for (const char* piece : {"i=-7", "f=1e-05", "f_whole=2.0", "f_inf=-inf", "f_nan=nan",
                            "s=\"tab\\there \\\"q\\\" \\x7f\"", "t=int64[2,2] [1, 2, 3, 4]", "ints=[1,-2,3]",
                            "ints_empty=ints[]", "floats=[1.0,0.5,-1e+10]", "floats_empty=floats[]",
                            "strings=[\"a\",\"\",\"b,c\"]", "strings_empty=strings[]",
                            "tensors=[float32[] [1], bool[1] [true]]", "tensors_empty=tensors[]",
                            "undef=<undefined>", "graph_no_body=<graph>", "\"weird name\"=1"}) {
    EXPECT_NE(text.find(piece), std::string::npos) << piece << "\n" << text;
  }
  auto parsed = ParseGraphText(text);
  ASSERT_TRUE(parsed.ok());
  const AttrMap& pa = (*parsed)->nodes()[0]->attrs();
  EXPECT_EQ(pa.Find("f_whole")->type, AttrValue::Type::kFloat);
  EXPECT_EQ(pa.Find("floats_empty")->type, AttrValue::Type::kFloats);
  EXPECT_EQ(pa.GetFloat("f", 0), 1e-5f);
  EXPECT_EQ(pa.GetTensor("t")->data<int64_t>()[3], 4);
}

TEST(TextForm, DescsNamesAndControl) {
  Graph g("descs");
  Shape sym;
  sym.AddDim(kUnknownDim, "batch");
  sym.AddDim(kUnknownDim);
  sym.AddDim(3);
  sym.AddDim(kUnknownDim, "n + 1");
  TensorDesc seq(DataType::kInt64, Shape({2}));
  seq.kind = ValueKind::kSequence;
  TensorDesc opt(DataType::kFloat, Shape::UnknownRank());
  opt.kind = ValueKind::kOptional;
  TensorDesc opt_seq = opt;
  opt_seq.elem_kind = ValueKind::kSequence;
  TensorDesc unknown;
  unknown.kind = ValueKind::kUnknown;
  TensorDesc blocked(DataType::kFloat16, Shape({1, 1, 4, 4, 16}));
  blocked.format = Format::kNC1HWC0;
  Value* a = g.AddInput("input:0", TensorDesc(DataType::kFloat, sym));
  Value* b = g.AddInput("b", seq);
  Value* c = g.AddInput("c", opt);
  Value* d = g.AddInput("d", opt_seq);
  Value* e = g.AddInput("e", unknown);
  Value* f = g.AddInput("f", TensorDesc());
  Value* o1 = g.AddValue("o1", blocked);
  Value* o2 = g.AddValue("o 2");
  Node* first = g.AddNode("Split", "", {a, b, c, d, e, f}, {o1, o2});
  Value* r = g.AddValue("r");
  Node* ret = g.AddNode("Relu", "return", {o1}, {r}, "ai.onnx.ml");
  Value* q = g.AddValue("q");
  Node* last = g.AddNode("Identity", "a b", {o2}, {q});
  last->AddControlInput(ret);
  last->AddControlInput(first);
  g.AddOutput(r);
  g.AddOutput(q);
  g.AddOutput(a);
  std::string text = ExpectRoundTrip(g);
  EXPECT_NE(text.find("graph descs(%\"input:0\": float32[batch,?,3,\"n + 1\"], %b: seq(int64[2]), "
                      "%c: optional(float32[*]), %d: optional(seq(float32[*])), %e: ?, %f) {"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("  \"\": %o1: float16[1,1,4,4,16]@NC1HWC0, %\"o 2\" = Split("), std::string::npos) << text;
  EXPECT_NE(text.find("  \"return\": %r = ai.onnx.ml::Relu(%o1)"), std::string::npos) << text;
  EXPECT_NE(text.find("  \"a b\": %q = Identity(%\"o 2\") ^return ^\"\""), std::string::npos) << text;
  EXPECT_NE(text.find("  return %r, %q, %\"input:0\""), std::string::npos) << text;
}

// If(%c) { then: Loop body capturing two levels out } with an explicit and an implicit capture.
TEST(TextForm, NestedSubgraphsWithCaptures) {
  Graph g("main");
  Value* c = g.AddInput("c", TensorDesc(DataType::kBool, Shape()));
  Value* x = g.AddInput("x", TensorDesc(DataType::kFloat, Shape({2})));
  Value* w = g.AddConstant("w", Tensor::FromVector<float>({1, 2}, {2}));
  Value* y = g.AddValue("y", TensorDesc(DataType::kFloat, Shape({2})));
  Node* iff = g.AddNode("If", "if0", {c}, {y});
  auto then_g = std::make_unique<Graph>("then");
  Value* tx = then_g->AddCapture("x");
  tx->desc() = x->desc();
  Value* tw = then_g->AddCapture("w");
  Value* ty = then_g->AddValue("ty");
  Node* loop = then_g->AddNode("Loop", "loop", {nullptr, nullptr, tx}, {ty});
  auto body = std::make_unique<Graph>("body");
  Value* it = body->AddInput("i", TensorDesc(DataType::kInt64, Shape()));
  Value* cond = body->AddInput("cond", TensorDesc(DataType::kBool, Shape()));
  Value* acc = body->AddInput("acc", TensorDesc(DataType::kFloat, Shape({2})));
  Value* bw = body->AddCapture("w");
  Value* sum = body->AddValue("sum");
  body->AddNode("Add", "add", {acc, bw}, {sum});
  body->AddOutput(cond);
  body->AddOutput(sum);
  (void)it;
  loop->AddSubgraph("body", std::move(body));
  loop->attrs().Set("body", GraphMarker());
  then_g->AddOutput(ty);
  (void)tw;
  iff->AddSubgraph("then_branch", std::move(then_g));
  auto else_g = std::make_unique<Graph>("else");
  Value* ex = else_g->AddCapture("x");
  else_g->AddOutput(ex);
  iff->AddSubgraph("else_branch", std::move(else_g));
  g.AddOutput(y);
  (void)w;
  std::string text = ExpectRoundTrip(g);
  EXPECT_NE(text.find("  if0: %y: float32[2] = If(%c)\n"
                      "    then_branch = graph then() {\n"
                      "      capture %x: float32[2]\n"
                      "      capture %w\n"
                      "      loop: %ty = Loop(_, _, %x)\n"
                      "        body = graph body(%i: int64[], %cond: bool[], %acc: float32[2]) {\n"
                      "          capture %w\n"
                      "          add: %sum = Add(%acc, %w)\n"
                      "          return %cond, %sum\n"
                      "        }\n"
                      "      return %ty\n"
                      "    }\n"
                      "    else_branch = graph else() {\n"
                      "      capture %x\n"
                      "      return %x\n"
                      "    }\n"),
            std::string::npos)
      << text;
  auto parsed = ParseGraphText(text);
  ASSERT_TRUE(parsed.ok());
  Node* pif = (*parsed)->FindValue("y")->producer();
  ASSERT_NE(pif->subgraph("then_branch"), nullptr);
  EXPECT_EQ(pif->attrs().Find("else_branch")->type, AttrValue::Type::kGraph);
  EXPECT_TRUE(pif->subgraph("else_branch")->FindValue("x")->is_capture());
}

TEST(TextForm, HandWrittenForwardReferencesAndImplicitCaptures) {
  const char* text = R"(
    # uses come before definitions; consts after the nodes; no descs on node outputs
    graph hw(%x: float32[2]) {
      mul: %y = Mul(%a, %k) ^add
      add: %a = Add(%x, %x)
      const %k = float32[2] [3, 4]
      if: %z = If(%c)
        then_branch = graph t() {
          id: %r = Identity(%y)   # %y of the outer graph: an implicit capture
          return %r
        }
        else_branch = graph e() { return %x }
      const %c: bool[] = [true]
      return %z, %y
    })";
  auto g = ParseGraphText(text);
  ASSERT_TRUE(g.ok()) << g.status().message();
  EXPECT_TRUE((*g)->Validate().ok());
  EXPECT_EQ(DumpText(**g),
            "graph hw(%x: float32[2]) {\n"
            "  const %k: float32[2] = [3, 4]\n"
            "  const %c: bool[] = [true]\n"
            "  add: %a = Add(%x, %x)\n"
            "  mul: %y = Mul(%a, %k) ^add\n"
            "  if: %z = If(%c)\n"
            "    then_branch = graph t() {\n"
            "      capture %y\n"
            "      id: %r = Identity(%y)\n"
            "      return %r\n"
            "    }\n"
            "    else_branch = graph e() {\n"
            "      capture %x: float32[2]\n"
            "      return %x\n"
            "    }\n"
            "  return %z, %y\n"
            "}\n");
  ExpectRoundTrip(**g);
}

TEST(TextForm, ElidedConstants) {
  Graph g("big");
  Value* w = g.AddConstant("w", Tensor::FromVector<float>(std::vector<float>(100, 1.f), {10, 10}));
  Value* y = g.AddValue("y");
  Node* n = g.AddNode("Neg", "neg", {w}, {y});
  n->attrs().Set("t", AttrValue::TensorValue(Tensor::FromVector<int64_t>({1, 2, 3}, {3})));
  g.AddOutput(y);
  DumpOptions brief;
  brief.max_tensor_elements = 2;
  std::string text = DumpText(g, brief);
  EXPECT_NE(text.find("const %w: float32[10,10] = <elided 100 elements>"), std::string::npos) << text;
  EXPECT_NE(text.find("{t=int64[3] <elided 3 elements>}"), std::string::npos) << text;
  EXPECT_NE(DumpText(g).find("[1, 1, 1,"), std::string::npos);  // the default prints every value
  auto parsed = ParseGraphText(text);
  ASSERT_TRUE(parsed.ok()) << parsed.status().message();
  EXPECT_EQ(DumpText(**parsed, brief), text);
  EXPECT_EQ((*parsed)->FindValue("w")->const_value()->data<float>()[99], 0.f);  // elided values read back as 0
}

TEST(TextForm, ModelWithOpsets) {
  Model m;
  m.ir_version = 9;
  m.producer = "pytorch 2.1";
  m.opsets[""] = 17;
  m.opsets["com.microsoft"] = 1;
  m.graph = std::make_unique<Graph>("g");
  Value* x = m.graph->AddInput("x", TensorDesc(DataType::kFloat, Shape({1})));
  m.graph->AddOutput(x);
  std::string text = DumpModelText(m);
  EXPECT_EQ(text,
            "ir_version 9\nproducer \"pytorch 2.1\"\nopset \"\" 17\nopset \"com.microsoft\" 1\n"
            "graph g(%x: float32[1]) {\n  return %x\n}\n");
  auto parsed = ParseModelText(text);
  ASSERT_TRUE(parsed.ok()) << parsed.status().message();
  EXPECT_EQ((*parsed)->OpsetFor(""), 17);
  EXPECT_EQ((*parsed)->OpsetFor("com.microsoft"), 1);
  EXPECT_EQ(DumpModelText(**parsed), text);
  auto bare = ParseModelText("opset \"ai.onnx\" 13 graph g() { return }");
  ASSERT_TRUE(bare.ok()) << bare.status().message();
  EXPECT_EQ((*bare)->OpsetFor(""), 13);
  auto dup = ParseModelText("opset \"\" 13\nopset \"\" 14\ngraph g() { return }");
  ASSERT_FALSE(dup.ok());
  EXPECT_EQ(dup.status().message(), "line 2, column 1: opset \"\" is imported twice");
}

TEST(TextForm, Errors) {
  EXPECT_EQ(ParseError("graph g() {\n  n: %y = Relu(%x) !\n  return %y\n}"),
            "line 2, column 20: unexpected character '!'");
  EXPECT_EQ(ParseError("graph g(%x) {\n  n: %y = Relu(%nope)\n  return %y\n}"),
            "line 2, column 16: undefined value %nope");
  EXPECT_EQ(ParseError("graph g(%x) {\n  a: %y = Relu(%x)\n  b: %y = Neg(%x)\n  return %y\n}"),
            "line 3, column 6: duplicate definition of %y (first defined at line 2, column 6)");
  EXPECT_EQ(ParseError("graph g(%x) {\n  n: %y = If(%x)\n    then_branch = graph t() {\n      return %x\n"),
            "line 5, column 1: unexpected end of input: graph t opened at line 3, column 19 is not closed with '}'");
  EXPECT_EQ(ParseError("graph g(%x) {\n  n: %y = If(%x)\n    b = graph t() {\n      n2: %z = Neg(%x)\n"
                       "  return %y\n}"),
            "line 6, column 2: unexpected end of input: graph g opened at line 1, column 1 is not closed with "
            "'return ... }'");
  EXPECT_EQ(ParseError("graph g(%x) {\n  n: %y = Relu(%x) {a=1 b=2}\n  return %y\n}"),
            "line 2, column 25: expected '}' or ',' after an attribute, got 'b'");
  EXPECT_EQ(ParseError("graph g() {\n  const %w: float32[3] = [1, 2]\n  return %w\n}"),
            "line 2, column 26: float32[3] has 3 elements, got 2");
  EXPECT_EQ(ParseError("graph g() {\n  const %w: int8[1] = [300]\n  return %w\n}"),
            "line 2, column 24: expected a int8 value, got '300'");
  EXPECT_EQ(ParseError("graph g() {\n  const %w: float32[?] = [1]\n  return %w\n}"),
            "line 2, column 26: constant %w needs a tensor type with known dims before its values, or a typed "
            "tensor (float32[2] [1, 2])");
  EXPECT_EQ(ParseError("graph g(%x: floot[2]) {\n  return %x\n}"),
            "line 1, column 13: expected a data type (float32, int64, ...), got 'floot'");
  EXPECT_EQ(ParseError("graph g(%x) {\n  n: %y = Relu(%x) {s=\"abc}\n  return %y\n}"),
            "line 2, column 23: string is not closed with '\"' before the end of the line");
  EXPECT_EQ(ParseError("graph g(%x) {\n  n: %y = Relu(%x) {s=\"a\\q\"}\n  return %y\n}"),
            "line 2, column 25: unknown escape '\\q' (expected \\\" \\\\ \\n \\t \\r \\xHH)");
  EXPECT_EQ(ParseError("graph g(%x) {\n  n: %y = Relu(%x) ^ghost\n  return %y\n}"),
            "line 2, column 20: undefined node ^ghost");
  EXPECT_EQ(ParseError("graph g(%x) {\n  capture %x2\n  return %x\n}"),
            "line 2, column 11: capture %x2 outside a subgraph");
  EXPECT_EQ(ParseError("graph g(%x) {\n  body = graph b() { return }\n  return %x\n}"),
            "line 2, column 3: subgraph body must follow the node that owns it");
  EXPECT_EQ(ParseError("graph g(%x) {\n  %y = Relu(%x)\n  return %y\n}"),
            "line 2, column 3: expected a statement (const, capture, NAME: ... = Op(...), NAME = graph ..., or "
            "return), got %y");
  EXPECT_EQ(ParseError("graph g(%x) {\n  return %x\n}\n}"), "line 4, column 1: expected end of input after the graph, got '}'");
  EXPECT_EQ(ParseError(""), "line 1, column 1: expected 'graph', got end of input");
}

TEST(TextForm, CyclicGraphStillRoundTrips) {
  Graph g("cyc");
  Value* a = g.AddValue("a");
  Value* b = g.AddValue("b");
  g.AddNode("Relu", "r1", {a}, {b});
  g.AddNode("Relu", "r2", {b}, {a});
  g.AddOutput(b);
  std::string text = DumpText(g);
  EXPECT_NE(text.find("  # graph 'cyc' has a cycle through node 'r1' (Relu)\n"), std::string::npos) << text;
  auto parsed = ParseGraphText(text);
  ASSERT_TRUE(parsed.ok()) << parsed.status().message();
  EXPECT_EQ(DumpText(**parsed), text);
}

TEST(TextForm, SubgraphUsesOuterConstantAndShadows) {
  const char* text =
      "graph g(%c: bool[]) {\n"
      "  const %k: int64[1] = [2]\n"
      "  if: %y = If(%c)\n"
      "    then_branch = graph t() {\n"
      "      const %c: int64[1] = [5]\n"  // shadows the outer %c
      "      add: %s = Add(%k, %c)\n"
      "      return %s\n"
      "    }\n"
      "  return %y\n"
      "}\n";
  auto g = ParseGraphText(text);
  ASSERT_TRUE(g.ok()) << g.status().message();
  Graph* t = (*g)->FindValue("y")->producer()->subgraph("then_branch");
  EXPECT_TRUE(t->FindValue("k")->is_capture());
  EXPECT_EQ(t->FindValue("k")->desc().dtype, DataType::kInt64);
  EXPECT_TRUE(t->FindValue("c")->is_constant());
  EXPECT_NE(DumpText(**g).find("      capture %k: int64[1]\n      add: %s = Add(%k, %c)\n"), std::string::npos)
      << DumpText(**g);
  ExpectRoundTrip(**g);
  EXPECT_EQ(ParseError("graph g(%x) {\n  n: %y = If(%x)\n    b = graph t() {\n      capture %nope\n"
                       "      return %nope\n    }\n  return %y\n}"),
            "line 4, column 15: capture %nope names no value of an enclosing graph");
}

TEST(TextForm, EveryTruncationFailsCleanly) {
  const std::string text =
      "graph g(%x: float32[batch,?], %s: seq(int64[*])) {\n"
      "  const %w: complex64[1] = [(1, -2)]\n"
      "  const %t: string[1] = [\"a\\n\"]\n"
      "  n: %y: optional(float32[2]@NCHW), _ = com.x::Op(%x, _, %w) {f=[1.0,2.5], t=int8[1] [3], s=\"q\"} @dnnl\n"
      "  m: %z = If(%x) ^n\n"
      "    then_branch = graph t() {\n"
      "      capture %y\n"
      "      return %y\n"
      "    }\n"
      "  return %z\n"
      "}\n";
  ASSERT_TRUE(ParseGraphText(text).ok()) << ParseGraphText(text).status().message();
  for (size_t n = 0; n + 2 < text.size(); ++n) {
    auto g = ParseGraphText(text.substr(0, n));
    ASSERT_FALSE(g.ok()) << n;
    EXPECT_EQ(g.status().message().rfind("line ", 0), 0u) << g.status().message();
  }
}

TEST(TextForm, StableAcrossReparse) {
  const char* text = "graph s(%a: float32[2]) { n1: %b = Relu(%a) n2: %c = Neg(%a) n3: %d = Add(%b, %c) return %d }";
  auto g1 = ParseGraphText(text);
  ASSERT_TRUE(g1.ok()) << g1.status().message();
  std::string once = DumpText(**g1);
  EXPECT_EQ(once, DumpText(**g1));
  auto g2 = ParseGraphText(once);
  ASSERT_TRUE(g2.ok());
  EXPECT_EQ(DumpText(**g2), once);
}

}  // namespace
}  // namespace ge::ir

namespace ge::ir {
namespace {

// Sizes the text does not pay for are refused before anything is allocated: an elided tensor above 1 GiB, written
// values beyond the tokens left.
TEST(TextParser, AbsurdTensorSizesAreRefusedBeforeAllocating) {
  auto huge_elided = ParseModelText(
      "graph g(%x: float32[2]) {\n  add: %y = Add(%x, %k)\n"
      "  const %k = float32[100000,100000] <elided 10000000000 elements>\n  return %y\n}\n");
  ASSERT_FALSE(huge_elided.ok());
  EXPECT_NE(huge_elided.status().message().find("elided"), std::string::npos) << huge_elided.status().ToString();
  auto huge_written = ParseModelText(
      "graph g(%x: float32[2]) {\n  add: %y = Add(%x, %k)\n  const %k = float32[100000,100000] [1, 2]\n"
      "  return %y\n}\n");
  ASSERT_FALSE(huge_written.ok());
  EXPECT_NE(huge_written.status().message().find("remaining tokens"), std::string::npos)
      << huge_written.status().ToString();
  // An elided tensor within the bound still reads back as zeros.
  auto small = ParseModelText(
      "graph g(%x: float32[2]) {\n  add: %y = Add(%x, %k)\n  const %k = float32[2] <elided 2 elements>\n"
      "  return %y\n}\n");
  ASSERT_TRUE(small.ok()) << small.status().ToString();
}

}  // namespace
}  // namespace ge::ir
