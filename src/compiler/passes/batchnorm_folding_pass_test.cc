#include <gtest/gtest.h>

#include "compiler/passes/pass_test_util.h"
#include "compiler/passes/passes.h"

namespace ge::compiler {
namespace {

using testing::ModelsAgree;
using testing::Parse;
using testing::RunAndDump;
using testing::RunOnePass;

// Runs the pass on a copy and checks the interpreter agrees with the original; returns the folded dump.
std::string FoldAndCompare(const std::string& text) {
  auto original = Parse(text);
  auto folded = Parse(text);
  if (!original || !folded) return "";
  auto r = RunOnePass(CreateBatchNormFoldingPass(), *folded);
  EXPECT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_TRUE(r.changed);
  EXPECT_TRUE(ModelsAgree(*original, *folded, 1e-5));
  return ir::DumpText(*folded->graph);
}

TEST(BatchNormFoldingPass, ConvWeightsAndBiasExact) {
  // s = scale / sqrt(var + eps) = [2, 1]; t = bias - mean * s = [-1.5, -3].
  std::string out = FoldAndCompare(R"(opset "" 17
graph g(%x: float32[1,2,3,3]) {
  const %w: float32[2,2,1,1] = [1, 2, 3, 4]
  const %b: float32[2] = [1, 1]
  const %scale: float32[2] = [4, 3]
  const %bias: float32[2] = [0.5, -1]
  const %mean: float32[2] = [1, 2]
  const %var: float32[2] = [4, 9]
  conv: %c = Conv(%x, %w, %b)
  bn: %y = BatchNormalization(%c, %scale, %bias, %mean, %var) {epsilon=0.0}
  relu: %r = Relu(%y)
  return %r
})");
  EXPECT_EQ(out, R"(graph g(%x: float32[1,2,3,3]) {
  const %w_bn: float32[2,2,1,1] = [2, 4, 3, 4]
  const %b_bn: float32[2] = [0.5, -2]
  conv: %c = Conv(%x, %w_bn, %b_bn)
  relu: %r = Relu(%c)
  return %r
}
)");
}

TEST(BatchNormFoldingPass, ConvWithoutBiasFeedingAGraphOutput) {
  std::string out = FoldAndCompare(R"(opset "" 17
graph g(%x: float32[2,3,5,5]) {
  const %w: float32[4,3,3,3] = [0.1, -0.2, 0.3, 0.4, -0.5, 0.6, 0.7, 0.8, -0.9, 1, 1.1, 1.2, -1.3, 1.4, 1.5, 1.6, 1.7, 1.8, 1.9, 2, 2.1, 2.2, 2.3, -2.4, 2.5, 2.6, 2.7, 0.1, -0.2, 0.3, 0.4, -0.5, 0.6, 0.7, 0.8, -0.9, 1, 1.1, 1.2, -1.3, 1.4, 1.5, 1.6, 1.7, 1.8, 1.9, 2, 2.1, 2.2, 2.3, -2.4, 2.5, 2.6, 2.7, 0.1, -0.2, 0.3, 0.4, -0.5, 0.6, 0.7, 0.8, -0.9, 1, 1.1, 1.2, -1.3, 1.4, 1.5, 1.6, 1.7, 1.8, 1.9, 2, 2.1, 2.2, 2.3, -2.4, 2.5, 2.6, 2.7, 0.1, -0.2, 0.3, 0.4, -0.5, 0.6, 0.7, 0.8, -0.9, 1, 1.1, 1.2, -1.3, 1.4, 1.5, 1.6, 1.7, 1.8, 1.9, 2, 2.1, 2.2, 2.3, -2.4, 2.5, 2.6, 2.7]
  const %scale: float32[4] = [1.5, 0.5, -1, 2]
  const %bias: float32[4] = [0.1, 0.2, 0.3, 0.4]
  const %mean: float32[4] = [0.3, -0.2, 0.1, 0]
  const %var: float32[4] = [0.9, 1.1, 0.5, 2]
  conv: %c = Conv(%x, %w) {pads=[1,1,1,1]}
  bn: %y = BatchNormalization(%c, %scale, %bias, %mean, %var)
  return %y
})");
  // The output keeps its name: Conv now produces %y.
  EXPECT_NE(out.find("conv: %y = Conv(%x, %w_bn, %conv_bias) {pads=[1,1,1,1]}"), std::string::npos) << out;
  EXPECT_EQ(out.find("BatchNormalization"), std::string::npos) << out;
}

TEST(BatchNormFoldingPass, GemmAndMatMulAdd) {
  std::string gemm = FoldAndCompare(R"(opset "" 17
graph g(%x: float32[3,2]) {
  const %w: float32[4,2] = [1, 2, 3, 4, 5, 6, 7, -8]
  const %c: float32[4] = [0.5, -0.5, 1, 2]
  const %scale: float32[4] = [1.5, 0.5, -1, 2]
  const %bias: float32[4] = [0.1, 0.2, 0.3, 0.4]
  const %mean: float32[4] = [0.3, -0.2, 0.1, 0]
  const %var: float32[4] = [0.9, 1.1, 0.5, 2]
  fc: %f = Gemm(%x, %w, %c) {alpha=0.5, beta=2.0, transB=1}
  bn: %y = BatchNormalization(%f, %scale, %bias, %mean, %var)
  return %y
})");
  EXPECT_EQ(gemm.find("BatchNormalization"), std::string::npos) << gemm;
  std::string mm = FoldAndCompare(R"(opset "" 17
graph g(%x: float32[3,2]) {
  const %w: float32[2,4] = [1, 2, 3, 4, 5, 6, 7, -8]
  const %c: float32[4] = [0.5, -0.5, 1, 2]
  const %scale: float32[4] = [1.5, 0.5, -1, 2]
  const %bias: float32[4] = [0.1, 0.2, 0.3, 0.4]
  const %mean: float32[4] = [0.3, -0.2, 0.1, 0]
  const %var: float32[4] = [0.9, 1.1, 0.5, 2]
  mm: %m = MatMul(%x, %w)
  add: %a: float32[3,4] = Add(%c, %m)
  bn: %y = BatchNormalization(%a, %scale, %bias, %mean, %var)
  relu: %r = Relu(%y)
  return %r
})");
  EXPECT_NE(mm.find("mm: %m = MatMul(%x, %w_bn)"), std::string::npos) << mm;
  EXPECT_NE(mm.find("add: %a: float32[3,4] = Add(%c_bn, %m)"), std::string::npos) << mm;
  EXPECT_EQ(mm.find("BatchNormalization"), std::string::npos) << mm;
}

TEST(BatchNormFoldingPass, DoesNotFireWhenUnsafe) {
  const char* cases[] = {
      // The conv output has a second consumer.
      R"(opset "" 17
graph g(%x: float32[1,2,3,3]) {
  const %w: float32[2,2,1,1] = [1, 2, 3, 4]
  const %p: float32[2] = [1, 1]
  conv: %c = Conv(%x, %w)
  bn: %y = BatchNormalization(%c, %p, %p, %p, %p)
  other: %o = Relu(%c)
  return %y, %o
}
)",
      // The weights are not constant.
      R"(opset "" 17
graph g(%x: float32[1,2,3,3], %w: float32[2,2,1,1]) {
  const %p: float32[2] = [1, 1]
  conv: %c = Conv(%x, %w)
  bn: %y = BatchNormalization(%c, %p, %p, %p, %p)
  return %y
}
)",
      // Training mode.
      R"(opset "" 17
graph g(%x: float32[1,2,3,3]) {
  const %w: float32[2,2,1,1] = [1, 2, 3, 4]
  const %p: float32[2] = [1, 1]
  conv: %c = Conv(%x, %w)
  bn: %y, %rm, %rv = BatchNormalization(%c, %p, %p, %p, %p) {training_mode=1}
  return %y, %rm, %rv
}
)",
      // MatMul + Add with a rank-3 result: BN's channel axis is not the MatMul's columns.
      R"(opset "" 17
graph g(%x: float32[2,3,2]) {
  const %w: float32[2,3] = [1, 2, 3, 4, 5, 6]
  const %c: float32[3] = [1, 1, 1]
  const %p: float32[3] = [1, 1, 1]
  mm: %m = MatMul(%x, %w)
  add: %a: float32[2,3,3] = Add(%m, %c)
  bn: %y = BatchNormalization(%a, %p, %p, %p, %p)
  return %y
}
)",
  };
  for (const char* text : cases) {
    std::string s(text);
    bool changed = true;
    EXPECT_EQ(RunAndDump(CreateBatchNormFoldingPass(), s, &changed), s.substr(s.find("graph")));
    EXPECT_FALSE(changed) << s;
  }
}

}  // namespace
}  // namespace ge::compiler
