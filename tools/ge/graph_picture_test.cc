// Graph pictures (graph_picture.h): the DOT text names every node and edge, escapes odd node names, marks layout
// changes, fused ops and reference implementations, shows placements in tooltips; a resnet18-like graph renders
// to SVG through Graphviz's dot (skipped where dot is absent); without dot the .dot is written instead.
#include "graph_picture.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

namespace ge::cli {
namespace {

TensorDesc Desc(Dims dims, Format format = Format::kND) {
  TensorDesc d(DataType::kFloat, Shape(std::move(dims)));
  d.format = format;
  return d;
}

size_t Count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + what.size())) ++n;
  return n;
}

// Every double quote of |dot| that is not escaped opens or closes a string: their count is even on every line.
bool QuotesBalanced(const std::string& dot) {
  std::istringstream lines(dot);
  std::string line;
  while (std::getline(lines, line)) {
    int quotes = 0;
    for (size_t i = 0; i < line.size(); ++i) {
      if (line[i] == '\\') {
        ++i;
      } else if (line[i] == '"') {
        ++quotes;
      }
    }
    if (quotes % 2 != 0) return false;
  }
  return true;
}

struct SmallGraph {
  ir::Graph g{"small \"graph\""};
  ir::Node *conv, *trans, *fused, *relu;
  ir::Value *x, *y;
  SmallGraph() {
    x = g.AddInput("x", Desc({1, 3, 8, 8}));
    ir::Value* w = g.AddConstant("w", Tensor::FromVector<float>(std::vector<float>(4 * 3 * 9, 0.5f), {4, 3, 3, 3}));
    ir::Value* a = g.AddValue("a", Desc({1, 4, 8, 8}, Format::kNHWC));
    ir::Value* b = g.AddValue("b", Desc({1, 4, 8, 8}));
    ir::Value* c = g.AddValue("c", Desc({1, 4, 8, 8}));
    y = g.AddValue("y", Desc({1, 4, 8, 8}));
    conv = g.AddNode("Conv", "conv \"odd\"\\name\nline2 <&>", {x, w}, {a});
    conv->set_engine("dnnl");
    conv->attrs().Set("kernel_impl", ir::AttrValue::String("dnnl.conv(jit:avx2)"));
    trans = g.AddNode("TransData", "to_nchw", {a}, {b}, "ge");
    trans->set_engine("dnnl");
    fused = g.AddNode("FusedConv", "fused", {b, w}, {c}, "ge");
    fused->set_engine("ge");
    relu = g.AddNode("Relu", "relu", {c, b}, {y});
    relu->set_engine("ref");
    relu->attrs().Set("kernel_impl", ir::AttrValue::String("ref"));
    g.AddOutput(y);
  }
};

TEST(GraphPictureTest, EveryNodeAndEdgeWithEscapedNames) {
  SmallGraph s;
  GraphPictureInfo info;
  info.placements[s.conv->output(0)] = ValuePlacement{"feature map", 4096, 1024};
  info.streams[s.conv] = 1;
  const std::string dot = GraphToDot(s.g, info);
  EXPECT_TRUE(QuotesBalanced(dot)) << dot;
  EXPECT_EQ(dot.rfind("digraph \"small \\\"graph\\\"\" {", 0), 0u) << dot;
  for (const char* id : {"  n0 [", "  n1 [", "  n2 [", "  n3 [", "  in0 [", "  out0 ["}) {
    EXPECT_EQ(Count(dot, id), 1u) << id;
  }
  // Data edges: x->conv, conv->trans, trans->fused, fused->relu, trans->relu, relu->out; none from the constant.
  for (const char* e : {"in0 -> n0 ", "n0 -> n1 ", "n1 -> n2 ", "n2 -> n3 ", "n1 -> n3 ", "n3 -> out0 "}) {
    EXPECT_EQ(Count(dot, e), 1u) << e;
  }
  EXPECT_EQ(Count(dot, " -> n") + Count(dot, " -> out"), 6u);
  EXPECT_NE(dot.find("conv \\\"odd\\\"\\\\name\\nline2 <&>"), std::string::npos);
  EXPECT_NE(dot.find("label=\"float32[1,4,8,8]@NHWC\""), std::string::npos) << dot;  // shape and layout
  EXPECT_NE(dot.find("feature map @ 4096, 1024 bytes"), std::string::npos);
  EXPECT_NE(dot.find("\\nstream 1"), std::string::npos);
  EXPECT_NE(dot.find("+1 constant"), std::string::npos);
  EXPECT_NE(dot.find("dnnl.conv(jit:avx2)"), std::string::npos);
  EXPECT_NE(dot.find("shape=hexagon"), std::string::npos);                    // TransData
  EXPECT_EQ(Count(dot, "peripheries=2"), 2u);                                 // FusedConv and its legend entry
  EXPECT_NE(dot.find("style=\"rounded,filled,dashed\""), std::string::npos);  // the reference kernel
  for (const char* legend : {"dnnl: oneDNN", "ge: ge's fast kernels", "ref: reference", "layout change (TransData)",
                             "fused op", "reference implementation"}) {
    EXPECT_NE(dot.find(legend), std::string::npos) << legend;
  }
}

TEST(GraphPictureTest, ControlCharactersAndOddTitles) {
  ir::Graph g("t\x01\tab");
  ir::Value* x = g.AddInput("x\"y", Desc({2}));
  ir::Value* y = g.AddValue("y", Desc({2}));
  g.AddNode("Neg", "\\", {x}, {y});
  g.AddOutput(y);
  const std::string dot = GraphToDot(g);
  EXPECT_TRUE(QuotesBalanced(dot)) << dot;
  EXPECT_EQ(dot.find('\x01'), std::string::npos);
  EXPECT_EQ(dot.find('\t'), std::string::npos);
  EXPECT_NE(dot.find("input x\\\"y"), std::string::npos);
  EXPECT_NE(dot.find("Neg\\n\\\\\""), std::string::npos) << dot;  // the name "\" then the closing quote
}

std::string TempPath(const std::string& name) {
  return ::testing::TempDir() + "/graph_picture_" + std::to_string(::getpid()) + "_" + name;
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(GraphPictureTest, WithoutDotWritesTheDotFileAndSaysSo) {
  SmallGraph s;
  const std::string svg = TempPath("nodot.svg");
  auto written = WriteGraphPicture(GraphToDot(s.g), svg, "");
  ASSERT_TRUE(written.ok()) << written.status().ToString();
  EXPECT_EQ(written->path, TempPath("nodot.dot"));
  EXPECT_NE(written->note.find("not installed"), std::string::npos);
  EXPECT_EQ(ReadFile(written->path).rfind("digraph", 0), 0u);
  std::remove(written->path.c_str());
  // A .dot is written as text whether or not dot is there.
  auto text = WriteGraphPicture("digraph {}\n", TempPath("plain.dot"), "/nonexistent/dot");
  ASSERT_TRUE(text.ok());
  EXPECT_TRUE(text->note.empty());
  EXPECT_EQ(ReadFile(TempPath("plain.dot")), "digraph {}\n");
  std::remove(TempPath("plain.dot").c_str());
}

TEST(GraphPictureTest, BadExtensionAndBadDotProgramAreErrors) {
  auto bad = WriteGraphPicture("digraph {}\n", TempPath("x.jpeg2"), "");
  EXPECT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find(".svg"), std::string::npos);
  auto missing = WriteGraphPicture("digraph {}\n", TempPath("x.svg"), "/nonexistent/dot");
  EXPECT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("/nonexistent/dot"), std::string::npos);
}

// A resnet18-shaped graph: stem conv + pool, 4 stages of 2 basic blocks (conv-relu-conv, a strided 1x1 projection
// where the shape changes, residual add, relu), global pool, gemm; NHWC inside, TransData at both ends.
std::unique_ptr<ir::Graph> Resnet18Like(int* num_nodes) {
  auto g = std::make_unique<ir::Graph>("resnet18_like");
  int counter = 0;
  auto value = [&](Dims dims, Format f) {
    return g->AddValue("v" + std::to_string(counter++), Desc(std::move(dims), f));
  };
  auto node = [&](const std::string& op, const std::string& name, std::vector<ir::Value*> in, ir::Value* out,
                  const std::string& engine, const std::string& domain = "") {
    ir::Node* n = g->AddNode(op, name, in, {out}, domain);
    n->set_engine(engine);
    n->attrs().Set("kernel_impl", ir::AttrValue::String(engine + "." + op));
    return out;
  };
  ir::Value* x = g->AddInput("input", Desc({1, 3, 224, 224}));
  ir::Value* h = node("TransData", "to_nhwc", {x}, value({1, 3, 224, 224}, Format::kNHWC), "dnnl", "ge");
  h = node("FusedConv", "stem", {h}, value({1, 64, 112, 112}, Format::kNHWC), "dnnl", "ge");
  h = node("MaxPool", "pool", {h}, value({1, 64, 56, 56}, Format::kNHWC), "ge");
  int64_t c = 64, hw = 56;
  for (int stage = 0; stage < 4; ++stage) {
    for (int block = 0; block < 2; ++block) {
      const std::string p = "layer" + std::to_string(stage + 1) + "." + std::to_string(block);
      const bool down = stage > 0 && block == 0;
      const int64_t oc = down ? c * 2 : c, ohw = down ? hw / 2 : hw;
      ir::Value* a = node("FusedConv", p + ".conv1", {h}, value({1, oc, ohw, ohw}, Format::kNHWC), "dnnl", "ge");
      ir::Value* shortcut =
          down ? node("Conv", p + ".downsample", {h}, value({1, oc, ohw, ohw}, Format::kNHWC), "dnnl") : h;
      h = node("FusedConv", p + ".conv2+add+relu", {a, shortcut}, value({1, oc, ohw, ohw}, Format::kNHWC), "dnnl",
               "ge");
      c = oc;
      hw = ohw;
    }
  }
  h = node("GlobalAveragePool", "avgpool", {h}, value({1, 512, 1, 1}, Format::kNHWC), "dnnl");
  h = node("TransData", "to_nchw", {h}, value({1, 512, 1, 1}, Format::kND), "dnnl", "ge");
  h = node("Flatten", "flatten", {h}, value({1, 512}, Format::kND), "ref");
  h = node("Gemm", "fc", {h}, value({1, 1000}, Format::kND), "ge");
  g->AddOutput(h);
  *num_nodes = g->num_nodes();
  return g;
}

TEST(GraphPictureTest, RendersAResnet18LikeGraphThroughDot) {
  const std::string dot_program = FindDotProgram();
  if (dot_program.empty()) GTEST_SKIP() << "Graphviz's dot is not installed";
  int num_nodes = 0;
  std::unique_ptr<ir::Graph> g = Resnet18Like(&num_nodes);
  EXPECT_GT(num_nodes, 20);
  const std::string svg = TempPath("resnet18.svg");
  auto written = WriteGraphPicture(GraphToDot(*g), svg, dot_program);
  ASSERT_TRUE(written.ok()) << written.status().ToString();
  EXPECT_EQ(written->path, svg);
  const std::string text = ReadFile(svg);
  EXPECT_NE(text.find("<svg"), std::string::npos);
  for (int i = 0; i < num_nodes; ++i) {
    EXPECT_NE(text.find("<title>n" + std::to_string(i) + "</title>"), std::string::npos) << "node " << i;
  }
  EXPECT_NE(text.find("layer4.1.conv2+add+relu"), std::string::npos);
  EXPECT_NE(text.find("float32[1,512,7,7]@NHWC"), std::string::npos);
  std::remove(svg.c_str());
  const std::string png = TempPath("resnet18.png");
  ASSERT_TRUE(WriteGraphPicture(GraphToDot(*g), png, dot_program).ok());
  EXPECT_EQ(ReadFile(png).substr(1, 3), "PNG");
  std::remove(png.c_str());
}

}  // namespace
}  // namespace ge::cli
