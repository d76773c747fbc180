#include <gtest/gtest.h>

#include "compiler/passes/pass_test_util.h"
#include "compiler/passes/passes.h"

namespace ge::compiler {
namespace {

using testing::ModelsAgree;
using testing::Parse;
using testing::PatternValues;
using testing::RunOnePass;

std::string Net(const std::string& conv_attrs, int out_channels = 4) {
  const std::string m = std::to_string(out_channels);
  return R"(opset "" 17
opset "ge" 1
graph net(%a: float32[1,3,5,5], %b: float32[1,4,5,5], %c: float32[1,2,5,5]) {
  const %w: float32[)" +
         m + R"(,9,1,1] = )" + PatternValues(out_channels * 9, 0.1) + R"(
  const %bias: float32[)" +
         m + R"(] = )" + PatternValues(out_channels, 0.05) + R"(
  cat: %k = Concat(%a, %b, %c) {axis=1}
  conv: %y = ge::FusedConv(%k, %w, %bias) {)" +
         conv_attrs + R"(}
  return %y
})";
}

TEST(ConcatConvSplitPass, OneConvolutionPerConcatenatedInput) {
  const std::string text = Net("activation=\"Relu\"");
  auto before = Parse(text);
  auto after = Parse(text);
  ASSERT_TRUE(before && after);
  auto r = RunOnePass(CreateConcatConvSplitPass(), *after);
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_TRUE(r.changed);
  const ir::Graph& g = *after->graph;
  EXPECT_EQ(g.num_nodes(), 3);
  const ir::Node* last = g.FindValue("y")->producer();
  EXPECT_EQ(last->name(), "conv");
  EXPECT_EQ(last->attrs().GetString("activation", ""), "Relu");
  EXPECT_EQ(last->input(0), g.FindValue("c"));
  const ir::Node* middle = last->input(3)->producer();
  EXPECT_EQ(middle->input(0), g.FindValue("b"));
  EXPECT_FALSE(middle->attrs().Has("activation"));
  const ir::Node* first = middle->input(3)->producer();
  EXPECT_EQ(first->input(0), g.FindValue("a"));
  EXPECT_EQ(first->input(2), g.FindValue("bias"));
  EXPECT_EQ(first->input(1)->const_value()->dims(), (Dims{4, 3, 1, 1}));
  EXPECT_TRUE(ModelsAgree(*before, *after, 1e-6));
}

TEST(ConcatConvSplitPass, LeavesOtherConvolutions) {
  for (const char* attrs : {"pads=[1,1,1,1]", "strides=[2,2]", "kernel_shape=[1,1], group=3"}) {
    SCOPED_TRACE(attrs);
    auto m = Parse(Net(attrs));
    ASSERT_NE(m, nullptr);
    auto r = RunOnePass(CreateConcatConvSplitPass(), *m);
    ASSERT_TRUE(r.status.ok());
    EXPECT_FALSE(r.changed);
  }
}

// Three parts into 5 output channels: the partial sums (2 extra outputs of 5 channels) would move more than the
// concat of 9 channels, so the concat stays.
TEST(ConcatConvSplitPass, KeepsTheConcatWhenPartialSumsWouldMoveMore) {
  auto m = Parse(Net("activation=\"Relu\"", 5));
  ASSERT_NE(m, nullptr);
  auto r = RunOnePass(CreateConcatConvSplitPass(), *m);
  ASSERT_TRUE(r.status.ok());
  EXPECT_FALSE(r.changed);
  EXPECT_EQ(m->graph->num_nodes(), 2);
}

}  // namespace
}  // namespace ge::compiler
