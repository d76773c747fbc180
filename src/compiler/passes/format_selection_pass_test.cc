#include <gtest/gtest.h>

#include "compiler/passes/pass_test_util.h"
#include "compiler/passes/passes.h"

namespace ge::compiler {
namespace {

using testing::Parse;
using testing::BuiltinEnginesContext;
using testing::RunOnePass;

// conv chain -> pool -> two convs -> concat -> conv -> pool, Relu (a plain reader) and graph outputs.
const char* kNet = R"(opset "" 17
graph net(%x: float32[1,3,8,8]) {
  const %w0: float32[16,3,3,3] = <elided 432 elements>
  const %w1: float32[16,16,1,1] = <elided 256 elements>
  const %w2: float32[16,16,1,1] = <elided 256 elements>
  const %w3: float32[32,32,1,1] = <elided 1024 elements>
  c0: %a: float32[1,16,8,8] = Conv(%x, %w0) {pads=[1,1,1,1]} @dnnl
  pool: %p: float32[1,16,4,4] = MaxPool(%a) {kernel_shape=[2,2], strides=[2,2]} @dnnl
  c1: %b: float32[1,16,4,4] = Conv(%p, %w1) @dnnl
  c2: %c: float32[1,16,4,4] = Conv(%p, %w2) @dnnl
  cat: %k: float32[1,32,4,4] = Concat(%b, %c) {axis=1} @ref
  c3: %y: float32[1,32,4,4] = Conv(%k, %w3) @dnnl
  relu: %r: float32[1,32,4,4] = Relu(%y) @ref
  gap: %q: float32[1,32,1,1] = GlobalAveragePool(%y) @dnnl
  return %r, %y, %q
})";

int Count(const std::string& s, const std::string& what) {
  int n = 0;
  for (size_t at = s.find(what); at != std::string::npos; at = s.find(what, at + 1)) ++n;
  return n;
}

TEST(FormatSelectionPass, KeepsChainsInTheLayoutWithTransDataOnlyAtTheBoundary) {
  for (Format layout : {Format::kNHWC, Format::kNC1HWC0}) {
    SCOPED_TRACE(FormatName(layout));
    auto m = Parse(kNet);
    ASSERT_NE(m, nullptr);
    auto r = RunOnePass(CreateFormatSelectionPass(layout), *m, BuiltinEnginesContext());
    ASSERT_TRUE(r.status.ok()) << r.status.ToString();
    EXPECT_TRUE(r.changed);
    const ir::Graph& g = *m->graph;
    for (const char* name : {"a", "p", "b", "c", "k"}) {
      EXPECT_EQ(g.FindValue(name)->desc().format, layout) << name;
    }
    // The concat reads the layout, so it moved to the engine that understands it.
    EXPECT_EQ(g.FindValue("k")->producer()->engine(), "dnnl");
    // y is read by Relu and is a graph output: one TransData gives both the plain copy, which keeps y's name.
    const ir::Value* y = g.FindValue("y");
    ASSERT_NE(y, nullptr);
    EXPECT_EQ(y->desc().format, Format::kND);  // as before the pass
    EXPECT_EQ(y->producer()->op_type(), "TransData");
    EXPECT_EQ(y->producer()->input(0)->desc().format, layout);
    EXPECT_EQ(g.outputs()[1], y);
    EXPECT_EQ(g.FindValue("r")->producer()->input(0), y);
    EXPECT_EQ(g.outputs()[2]->producer()->op_type(), "TransData");  // q, pooled in the layout
    EXPECT_EQ(Count(ir::DumpText(g), "TransData("), 2);
    // The first convolution reads the plain graph input directly.
    EXPECT_EQ(g.FindValue("x")->desc().format, Format::kND);
  }
}

// Squeeze-and-excitation: the scale Mul reads the activation and its broadcast gate in the layout.
TEST(FormatSelectionPass, BroadcastMulStaysInTheLayout) {
  auto m = Parse(R"(opset "" 17
graph se(%x: float32[1,3,8,8]) {
  const %w0: float32[16,3,3,3] = <elided 432 elements>
  const %w1: float32[16,16,1,1] = <elided 256 elements>
  const %w2: float32[16,16,1,1] = <elided 256 elements>
  c0: %a: float32[1,16,8,8] = Conv(%x, %w0) {pads=[1,1,1,1]} @dnnl
  pool: %p: float32[1,16,1,1] = GlobalAveragePool(%a) @dnnl
  gate: %s: float32[1,16,1,1] = ge::FusedConv(%p, %w1) {activation="Sigmoid"} @dnnl
  scale: %m: float32[1,16,8,8] = Mul(%a, %s) @ref
  c1: %y: float32[1,16,8,8] = Conv(%m, %w2) @dnnl
  return %y
})");
  ASSERT_NE(m, nullptr);
  ASSERT_TRUE(RunOnePass(CreateFormatSelectionPass(Format::kNHWC), *m, BuiltinEnginesContext()).status.ok());
  const ir::Graph& g = *m->graph;
  for (const char* name : {"a", "p", "s", "m"}) EXPECT_EQ(g.FindValue(name)->desc().format, Format::kNHWC) << name;
  EXPECT_EQ(g.FindValue("m")->producer()->engine(), "dnnl");
  EXPECT_EQ(Count(ir::DumpText(g), "TransData("), 0);
}

TEST(FormatSelectionPass, NC1HWC0ConcatNeedsWholeChannelBlocks) {
  std::string text = kNet;
  // 12 + 16 channels: not a whole number of 16-channel blocks for the first input.
  for (auto [from, to] : std::vector<std::pair<std::string, std::string>>{
           {"%w1: float32[16,16,1,1] = <elided 256 elements>", "%w1: float32[12,16,1,1] = <elided 192 elements>"},
           {"%b: float32[1,16,4,4]", "%b: float32[1,12,4,4]"},
           {"%w3: float32[32,32,1,1] = <elided 1024", "%w3: float32[32,28,1,1] = <elided 896"},
           {"%k: float32[1,32,4,4]", "%k: float32[1,28,4,4]"}}) {
    text.replace(text.find(from), from.size(), to);
  }
  auto m = Parse(text);
  ASSERT_NE(m, nullptr);
  ASSERT_TRUE(RunOnePass(CreateFormatSelectionPass(Format::kNC1HWC0), *m, BuiltinEnginesContext()).status.ok());
  const ir::Graph& g = *m->graph;
  EXPECT_EQ(g.FindValue("k")->desc().format, Format::kND);
  EXPECT_EQ(g.FindValue("k")->producer()->engine(), "ref");
  // b and c now feed only a plain reader: they stay plain; a and p still form a chain.
  EXPECT_FALSE(IsNonPlainLayout(g.FindValue("b")->desc().format));
  EXPECT_EQ(g.FindValue("p")->desc().format, Format::kNC1HWC0);
  // With NHWC the same concat stays in the layout.
  auto m2 = Parse(text);
  ASSERT_TRUE(RunOnePass(CreateFormatSelectionPass(Format::kNHWC), *m2, BuiltinEnginesContext()).status.ok());
  EXPECT_EQ(m2->graph->FindValue("k")->desc().format, Format::kNHWC);
}

}  // namespace
}  // namespace ge::compiler
