#include <gtest/gtest.h>

#include "compiler/passes/pass_test_util.h"
#include "compiler/passes/passes.h"

namespace ge::compiler {
namespace {

using testing::ModelsAgree;
using testing::Parse;
using testing::RunOnePass;

// Pad (opset 11+ inputs) + AveragePool, and Pad + Conv with pads of its own.
const char* kNet = R"(opset "" 13
graph net(%x: float32[1,4,9,9]) {
  const %p1: int64[8] = [0, 0, 1, 1, 0, 0, 1, 1]
  const %p2: int64[8] = [0, 0, 0, 2, 0, 0, 1, 0]
  const %w: float32[3,4,3,3] = <elided 108 elements>
  pad1: %a = Pad(%x, %p1)
  avg: %b = AveragePool(%a) {kernel_shape=[3,3], strides=[2,2]}
  pad2: %c = Pad(%x, %p2)
  conv: %d = Conv(%c, %w) {pads=[1,1,1,1]}
  return %b, %d
})";

TEST(PadFusionPass, FoldsZeroPadsIntoAveragePoolAndConv) {
  auto before = Parse(kNet);
  auto after = Parse(kNet);
  ASSERT_TRUE(before && after);
  auto r = RunOnePass(CreatePadFusionPass(), *after);
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_TRUE(r.changed);
  const ir::Graph& g = *after->graph;
  EXPECT_EQ(g.num_nodes(), 2);
  const ir::Node* avg = g.FindValue("b")->producer();
  EXPECT_EQ(avg->input(0), g.FindValue("x"));
  EXPECT_EQ(avg->attrs().GetInts("pads"), (std::vector<int64_t>{1, 1, 1, 1}));
  EXPECT_EQ(avg->attrs().GetInt("count_include_pad", 0), 1);
  const ir::Node* conv = g.FindValue("d")->producer();
  EXPECT_EQ(conv->attrs().GetInts("pads"), (std::vector<int64_t>{1, 3, 2, 1}));
  EXPECT_TRUE(ModelsAgree(*before, *after, 1e-6));
}

TEST(PadFusionPass, LeavesPadsThatChangeTheMeaning) {
  for (const char* body : {
           // a non-zero pad value
           "const %v: float32[] = [1]\n  pad: %a = Pad(%x, %p, %v)\n  avg: %b = AveragePool(%a) {kernel_shape=[3,3]}",
           // reflect padding
           "pad: %a = Pad(%x, %p) {mode=\"reflect\"}\n  avg: %b = AveragePool(%a) {kernel_shape=[3,3]}",
           // the pool has pads of its own that exclude the padding from the count
           "pad: %a = Pad(%x, %p)\n  avg: %b = AveragePool(%a) {kernel_shape=[3,3], pads=[1,1,1,1]}",
           // ceil_mode windows may pass the padded end
           "pad: %a = Pad(%x, %p)\n  avg: %b = AveragePool(%a) {kernel_shape=[3,3], strides=[2,2], ceil_mode=1}",
           // MaxPool pads with -inf, not zero
           "pad: %a = Pad(%x, %p)\n  avg: %b = MaxPool(%a) {kernel_shape=[3,3]}",
       }) {
    SCOPED_TRACE(body);
    auto m = Parse(std::string("opset \"\" 13\ngraph net(%x: float32[1,4,9,9]) {\n  const %p: int64[8] = "
                               "[0, 0, 1, 1, 0, 0, 1, 1]\n  ") + body + "\n  return %b\n}");
    ASSERT_NE(m, nullptr);
    auto r = RunOnePass(CreatePadFusionPass(), *m);
    ASSERT_TRUE(r.status.ok());
    EXPECT_FALSE(r.changed);
  }
}

}  // namespace
}  // namespace ge::compiler
