#include <gtest/gtest.h>

#include "compiler/passes/pass_test_util.h"
#include "compiler/passes/passes.h"

namespace ge::compiler {
namespace {

using testing::ModelsAgree;
using testing::Parse;
using testing::RunAndDump;
using testing::RunOnePass;

// Runs the pass on a copy, expects a change and interpreter agreement with the original; returns the dump.
std::string FuseAndCompare(const std::string& text) {
  auto original = Parse(text);
  auto fused = Parse(text);
  if (!original || !fused) return "";
  auto r = RunOnePass(CreateMatMulAddFusionPass(), *fused);
  EXPECT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_TRUE(r.changed);
  EXPECT_EQ(fused->opsets["ge"], 1);
  EXPECT_TRUE(ModelsAgree(*original, *fused, 1e-6));
  return ir::DumpText(*fused->graph);
}

TEST(MatMulAddFusionPass, BiasOnEitherSide) {
  EXPECT_EQ(FuseAndCompare(R"(opset "" 17
graph g(%x: float32[3,2]) {
  const %w: float32[2,4] = [1, 2, 3, 4, 5, 6, 7, -8]
  const %b: float32[4] = [0.5, -0.5, 1, 2]
  mm: %m: float32[3,4] = MatMul(%x, %w)
  add: %a: float32[3,4] = Add(%m, %b)
  relu: %r = Relu(%a)
  return %r
})"),
            R"(graph g(%x: float32[3,2]) {
  const %w: float32[2,4] = [1, 2, 3, 4, 5, 6, 7, -8]
  const %b: float32[4] = [0.5, -0.5, 1, 2]
  mm: %a: float32[3,4] = ge::FusedMatMul(%x, %w, %b)
  relu: %r = Relu(%a)
  return %r
}
)");
  // BERT's form: a rank-3 activation, the bias first, and the sum a graph output that keeps its name.
  EXPECT_EQ(FuseAndCompare(R"(opset "" 17
graph g(%x: float32[2,3,2], %w: float32[2,4]) {
  const %b: float32[4] = [0.5, -0.5, 1, 2]
  mm: %m: float32[2,3,4] = MatMul(%x, %w)
  add: %y: float32[2,3,4] = Add(%b, %m)
  return %y
})"),
            R"(graph g(%x: float32[2,3,2], %w: float32[2,4]) {
  const %b: float32[4] = [0.5, -0.5, 1, 2]
  mm: %y: float32[2,3,4] = ge::FusedMatMul(%x, %w, %b)
  return %y
}
)");
}

TEST(MatMulAddFusionPass, DoesNotFireWhenUnsafeOrNotABias) {
  const char* cases[] = {
      // The MatMul result has another use.
      R"(graph g(%x: float32[3,2]) {
  const %w: float32[2,4] = [1, 2, 3, 4, 5, 6, 7, -8]
  const %b: float32[4] = [0.5, -0.5, 1, 2]
  mm: %m: float32[3,4] = MatMul(%x, %w)
  add: %a: float32[3,4] = Add(%m, %b)
  neg: %n = Neg(%m)
  return %a, %n
}
)",
      // The MatMul result is a graph output.
      R"(graph g(%x: float32[3,2]) {
  const %w: float32[2,4] = [1, 2, 3, 4, 5, 6, 7, -8]
  const %b: float32[4] = [0.5, -0.5, 1, 2]
  mm: %m: float32[3,4] = MatMul(%x, %w)
  add: %a: float32[3,4] = Add(%m, %b)
  return %a, %m
}
)",
      // The bias is not a constant.
      R"(graph g(%x: float32[3,2], %b: float32[4]) {
  const %w: float32[2,4] = [1, 2, 3, 4, 5, 6, 7, -8]
  mm: %m: float32[3,4] = MatMul(%x, %w)
  add: %a: float32[3,4] = Add(%m, %b)
  return %a
}
)",
      // Not 1-D over the last dim: [1,4], [3] broadcast the other way, a scalar.
      R"(graph g(%x: float32[3,2]) {
  const %w: float32[2,4] = [1, 2, 3, 4, 5, 6, 7, -8]
  const %b: float32[1,4] = [0.5, -0.5, 1, 2]
  mm: %m: float32[3,4] = MatMul(%x, %w)
  add: %a: float32[3,4] = Add(%m, %b)
  return %a
}
)",
      R"(graph g(%x: float32[3,2]) {
  const %w: float32[2,3] = [1, 2, 3, 4, 5, 6]
  const %b: float32[3,1] = [0.5, -0.5, 1]
  mm: %m: float32[3,3] = MatMul(%x, %w)
  add: %a: float32[3,3] = Add(%m, %b)
  return %a
}
)",
      R"(graph g(%x: float32[3,2]) {
  const %w: float32[2,4] = [1, 2, 3, 4, 5, 6, 7, -8]
  const %b: float32[] = [0.5]
  mm: %m: float32[3,4] = MatMul(%x, %w)
  add: %a: float32[3,4] = Add(%m, %b)
  return %a
}
)",
      // The MatMul's shape is not known.
      R"(graph g(%x: float32[3,2]) {
  const %w: float32[2,4] = [1, 2, 3, 4, 5, 6, 7, -8]
  const %b: float32[4] = [0.5, -0.5, 1, 2]
  mm: %m = MatMul(%x, %w)
  add: %a = Add(%m, %b)
  return %a
}
)",
      // Integer MatMul.
      R"(graph g(%x: int32[3,2]) {
  const %w: int32[2,4] = [1, 2, 3, 4, 5, 6, 7, -8]
  const %b: int32[4] = [1, 2, 3, 4]
  mm: %m: int32[3,4] = MatMul(%x, %w)
  add: %a: int32[3,4] = Add(%m, %b)
  return %a
}
)",
  };
  for (const char* text : cases) {
    bool changed = true;
    EXPECT_EQ(RunAndDump(CreateMatMulAddFusionPass(), std::string("opset \"\" 17\n") + text, &changed), text);
    EXPECT_FALSE(changed) << text;
  }
}

}  // namespace
}  // namespace ge::compiler
