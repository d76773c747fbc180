// LayerNormFusion and AttentionFusion: the IR text before and after, interpreter agreement of the unfused and
// fused graphs on random inputs, and the cases that must not fuse.
#include <gtest/gtest.h>

#include <string>

#include "compiler/passes/pass_test_util.h"
#include "compiler/passes/passes.h"

namespace ge::compiler {
namespace {

using testing::ModelsAgree;
using testing::Parse;
using testing::RunAndDump;
using testing::RunOnePass;

// The decomposed LayerNorm as torch.onnx writes it at opset 13; `tail` ends the graph (the beta Add and return).
std::string LayerNormText(const std::string& tail) {
  return R"(opset "" 13
graph g(%x: float32[2,3,4]) {
  const %two: float32[] = [2]
  const %eps: float32[] = [1e-05]
  const %gamma: float32[4] = [1, 0.5, -2, 3]
  const %beta: float32[4] = [0.25, 0, -1, 2]
  m: %m: float32[2,3,1] = ReduceMean(%x) {axes=[-1]}
  sub: %d: float32[2,3,4] = Sub(%x, %m)
  pow: %p: float32[2,3,4] = Pow(%d, %two)
  m2: %v: float32[2,3,1] = ReduceMean(%p) {axes=[-1]}
  add_eps: %ve: float32[2,3,1] = Add(%v, %eps)
  sqrt: %s: float32[2,3,1] = Sqrt(%ve)
  div: %n: float32[2,3,4] = Div(%d, %s)
  mul: %g: float32[2,3,4] = Mul(%n, %gamma)
)" + tail + "}";
}

std::string FuseAndCompare(std::unique_ptr<GraphPass> pass, const std::string& text, double tol) {
  auto original = Parse(text);
  auto fused = Parse(text);
  if (!original || !fused) return "";
  auto r = RunOnePass(std::move(pass), *fused);
  EXPECT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_TRUE(r.changed);
  EXPECT_EQ(fused->opsets["ge"], 1);
  EXPECT_TRUE(ModelsAgree(*original, *fused, tol));
  return ir::DumpText(*fused->graph);
}

TEST(LayerNormFusionPass, TorchExport) {
  const std::string out = FuseAndCompare(CreateLayerNormFusionPass(), LayerNormText(R"(  add: %y: float32[2,3,4] = Add(%g, %beta)
  return %y
)"), 0.0);
  EXPECT_EQ(out, R"(graph g(%x: float32[2,3,4]) {
  const %gamma: float32[4] = [1, 0.5, -2, 3]
  const %beta: float32[4] = [0.25, 0, -1, 2]
  m: %y: float32[2,3,4] = ge::LayerNormalization(%x, %gamma, %beta) {axis=-1, epsilon=1e-05}
  return %y
}
)");
}

TEST(LayerNormFusionPass, WithoutBetaAndBetaFirst) {
  const std::string no_beta = FuseAndCompare(CreateLayerNormFusionPass(), LayerNormText("  return %g\n"), 0.0);
  EXPECT_NE(no_beta.find("ge::LayerNormalization(%x, %gamma) {axis=-1, epsilon=1e-05}"), std::string::npos)
      << no_beta;
  const std::string swapped = FuseAndCompare(CreateLayerNormFusionPass(), LayerNormText(R"(  add: %y: float32[2,3,4] = Add(%beta, %g)
  return %y
)"), 0.0);
  EXPECT_NE(swapped.find("ge::LayerNormalization(%x, %gamma, %beta)"), std::string::npos) << swapped;
}

TEST(LayerNormFusionPass, DoesNotFireWhenUnsafe) {
  const std::string cases[] = {
      // the centered value is also a graph output
      LayerNormText("  add: %y: float32[2,3,4] = Add(%g, %beta)\n  return %y, %d\n"),
      // the normalized value is read elsewhere
      LayerNormText("  add: %y: float32[2,3,4] = Add(%g, %beta)\n  relu: %r = Relu(%n)\n  return %y, %r\n"),
  };
  for (const std::string& text : cases) {
    bool changed = true;
    const std::string out = RunAndDump(CreateLayerNormFusionPass(), text, &changed);
    EXPECT_FALSE(changed) << text << "\n" << out;
  }
  // a mean over another axis, and a power other than 2
  std::string other_axis = LayerNormText("  return %g\n");
  other_axis.replace(other_axis.find("{axes=[-1]}"), 11, "{axes=[1]}");
  std::string cube = LayerNormText("  return %g\n");
  cube.replace(cube.find("= [2]"), 5, "= [3]");
  for (const std::string& text : {other_axis, cube}) {
    auto m = Parse(text);
    if (!m) continue;
    auto r = RunOnePass(CreateLayerNormFusionPass(), *m);
    EXPECT_TRUE(r.status.ok()) << r.status.ToString();
    EXPECT_FALSE(r.changed) << text;
  }
}

// torch.nn.MultiheadAttention's export for S = 3, B = 2, H = 2, D = 2 (E = 4), QKV packed in one [3, 2, 12].
std::string AttentionText(const std::string& scale_op, const std::string& extra_output) {
  return R"(opset "" 13
graph g(%qkv: float32[3,2,12]) {
  const %s0: int64[1] = [0]
  const %s1: int64[1] = [4]
  const %s2: int64[1] = [8]
  const %s3: int64[1] = [12]
  const %ax: int64[1] = [-1]
  const %heads: int64[3] = [3, 4, 2]
  const %c: float32[] = [1.4142135]
  const %merged: int64[2] = [6, 4]
  sq: %q: float32[3,2,4] = Slice(%qkv, %s0, %s1, %ax)
  sk: %k: float32[3,2,4] = Slice(%qkv, %s1, %s2, %ax)
  sv: %v: float32[3,2,4] = Slice(%qkv, %s2, %s3, %ax)
  rq: %qr: float32[3,4,2] = Reshape(%q, %heads)
  tq: %qt: float32[4,3,2] = Transpose(%qr) {perm=[1, 0, 2]}
  rk: %kr: float32[3,4,2] = Reshape(%k, %heads)
  rv: %vr: float32[3,4,2] = Reshape(%v, %heads)
  tv: %vt: float32[4,3,2] = Transpose(%vr) {perm=[1, 0, 2]}
  scale: %qs: float32[4,3,2] = )" + scale_op + R"((%qt, %c)
  tk: %kt: float32[4,2,3] = Transpose(%kr) {perm=[1, 2, 0]}
  mm1: %sc: float32[4,3,3] = MatMul(%qs, %kt)
  sm: %p: float32[4,3,3] = Softmax(%sc) {axis=-1}
  mm2: %o: float32[4,3,2] = MatMul(%p, %vt)
  to: %ot: float32[3,4,2] = Transpose(%o) {perm=[1, 0, 2]}
  ro: %y: float32[6,4] = Reshape(%ot, %merged)
  return %y)" + extra_output + "\n}";
}

TEST(AttentionFusionPass, TorchMultiheadAttention) {
  const std::string out = FuseAndCompare(CreateAttentionFusionPass(), AttentionText("Div", ""), 1e-6);
  EXPECT_EQ(out, R"(graph g(%qkv: float32[3,2,12]) {
  const %merged: int64[2] = [6, 4]
  mm1: %ot/heads: float32[3,2,4] = ge::Attention(%qkv, %qkv, %qkv) {head_size=2, k_offset=4, num_heads=2, q_offset=0, scale=0.70710677, v_offset=8}
  ro: %y: float32[6,4] = Reshape(%ot/heads, %merged)
  return %y
}
)");
  const std::string mul = FuseAndCompare(CreateAttentionFusionPass(), AttentionText("Mul", ""), 1e-6);
  EXPECT_NE(mul.find("scale=1.4142135"), std::string::npos) << mul;
}

TEST(AttentionFusionPass, DoesNotFireWhenUnsafe) {
  for (const std::string& extra : {std::string(", %p"), std::string(", %kt"), std::string(", %qs")}) {
    bool changed = true;
    const std::string text = AttentionText("Div", extra);
    const std::string out = RunAndDump(CreateAttentionFusionPass(), text, &changed);
    EXPECT_FALSE(changed) << text << "\n" << out;
  }
  // Q scaled by a non-constant
  std::string text = AttentionText("Add", "");
  bool changed = true;
  RunAndDump(CreateAttentionFusionPass(), text, &changed);
  EXPECT_FALSE(changed);
}

}  // namespace
}  // namespace ge::compiler

namespace ge::compiler {
namespace {

TEST(LayoutSimplifyPass, UnitDimTransposeAndReshapeChain) {
  const std::string text = R"(opset "" 13
graph g(%x: float32[1,3,4]) {
  const %s1: int64[2] = [3, 4]
  const %s2: int64[3] = [3, 1, 4]
  t: %t: float32[3,1,4] = Transpose(%x) {perm=[1, 0, 2]}
  relu: %r: float32[3,1,4] = Relu(%t)
  r1: %a: float32[3,4] = Reshape(%r, %s1)
  r2: %b: float32[3,1,4] = Reshape(%a, %s2)
  t2: %y: float32[1,4,3] = Transpose(%b) {perm=[1, 2, 0]}
  return %y
})";
  auto original = testing::Parse(text);
  auto simplified = testing::Parse(text);
  ASSERT_TRUE(original && simplified);
  auto r = testing::RunOnePass(CreateLayoutSimplifyPass(), *simplified);
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_TRUE(r.changed);
  EXPECT_TRUE(testing::ModelsAgree(*original, *simplified, 0.0));
  // The first Transpose moves only the unit dim; the last one reorders 3 and 4 and stays.
  EXPECT_EQ(ir::DumpText(*simplified->graph), R"(graph g(%x: float32[1,3,4]) {
  const %s2: int64[3] = [3, 1, 4]
  const %t/shape: int64[3] = [3, 1, 4]
  t: %t: float32[3,1,4] = Reshape(%x, %t/shape)
  relu: %r: float32[3,1,4] = Relu(%t)
  r2: %b: float32[3,1,4] = Reshape(%r, %s2)
  t2: %y: float32[1,4,3] = Transpose(%b) {perm=[1,2,0]}
  return %y
}
)");
}

// torch's bidirectional RNN at batch 1: a unit-dim Transpose becomes a Reshape, and the Reshape after it, whose 0s
// copied the Transpose's dims, must keep its output dims once the chain collapses.
TEST(LayoutSimplifyPass, ReshapeChainWithCopiedDims) {
  const std::string text = R"(opset "" 13
graph g(%x: float32[5,2,1,3]) {
  const %s: int64[3] = [0, 0, -1]
  t: %t: float32[5,1,2,3] = Transpose(%x) {perm=[0, 2, 1, 3]}
  r: %y: float32[5,1,6] = Reshape(%t, %s)
  return %y
})";
  auto original = testing::Parse(text);
  auto simplified = testing::Parse(text);
  ASSERT_TRUE(original && simplified);
  auto r = testing::RunOnePass(CreateLayoutSimplifyPass(), *simplified);
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_TRUE(r.changed);
  EXPECT_TRUE(testing::ModelsAgree(*original, *simplified, 0.0));
  EXPECT_EQ(ir::DumpText(*simplified->graph), R"(graph g(%x: float32[5,2,1,3]) {
  const %r/shape: int64[3] = [5, 1, 6]
  r: %y: float32[5,1,6] = Reshape(%x, %r/shape)
  return %y
}
)");
}

}  // namespace
}  // namespace ge::compiler
