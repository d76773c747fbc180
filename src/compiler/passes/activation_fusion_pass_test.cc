#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <string>

#include "compiler/passes/pass_test_util.h"
#include "compiler/passes/passes.h"

namespace ge::compiler {
namespace {

using testing::ModelsAgree;
using testing::Parse;
using testing::RunAndDump;
using testing::RunOnePass;

// "[v0, v1, ...]": n values in [-1, 1) (multiples of 1/8 shifted by i/64, deterministic).
std::string Values(int n) {
  std::string s = "[";
  for (int i = 0; i < n; ++i) {
    char buf[32];
    std::snprintf(buf, sizeof(buf), "%g", -1 + 0.125 * ((i * 37) % 16) + (i % 5) / 64.0);
    s += (i ? ", " : "") + std::string(buf);
  }
  return s + "]";
}

// A model whose input %x: float32[1,3,6,6] goes through conv (4 output channels, 3x3, padded) into %c, then
// `body`, which returns what it wants; %res: float32[1,4,6,6] is a second input for residual sums.
std::string ConvModel(const std::string& body, int opset = 17) {
  return "opset \"\" " + std::to_string(opset) + R"(
graph g(%x: float32[1,3,6,6], %res: float32[1,4,6,6]) {
  const %w: float32[4,3,3,3] = )" + Values(108) + R"(
  const %b: float32[4] = [0.25, -0.5, 0.125, 0]
  conv: %c: float32[1,4,6,6] = Conv(%x, %w, %b) {pads=[1,1,1,1]}
)" + body + "}";
}

// A model whose input %x: float32[2,3,4] goes through MatMul with a [4,5] constant into %m, then `body`.
std::string MatMulModel(const std::string& body) {
  return R"(opset "" 17
graph g(%x: float32[2,3,4]) {
  const %w: float32[4,5] = )" + Values(20) + R"(
  mm: %m: float32[2,3,5] = MatMul(%x, %w)
)" + body + "}";
}

struct Fused {
  std::string dump;
  bool changed = false;
  double error = 0;  // relative L2 between the interpreter's outputs before and after
};

// Runs the pass on a copy; when it changed anything, checks the interpreter agrees with the original.
Fused FuseAndCompare(const std::string& text) {
  Fused f;
  auto original = Parse(text);
  auto fused = Parse(text);
  if (!original || !fused) return f;
  auto r = RunOnePass(CreateActivationFusionPass(), *fused);
  EXPECT_TRUE(r.status.ok()) << r.status.ToString();
  f.changed = r.changed;
  f.dump = ir::DumpText(*fused->graph);
  if (f.changed) {
    EXPECT_EQ(fused->opsets["ge"], 1);
    double e1 = 0, e2 = 0;
    EXPECT_TRUE(ModelsAgree(*original, *fused, 1e-6, 1, &e1)) << text;
    EXPECT_TRUE(ModelsAgree(*original, *fused, 1e-6, 2, &e2)) << text;
    f.error = std::max(e1, e2);
  }
  return f;
}

bool Has(const std::string& dump, const std::string& line) { return dump.find(line) != std::string::npos; }

TEST(ActivationFusionPass, ConvRelu) {
  Fused f = FuseAndCompare(ConvModel("  relu: %y = Relu(%c)\n  return %y\n"));
  EXPECT_TRUE(f.changed);
  EXPECT_TRUE(Has(f.dump, R"(  conv: %y = ge::FusedConv(%x, %w, %b) {activation="Relu", pads=[1,1,1,1]}
  return %y
})")) << f.dump;
}

TEST(ActivationFusionPass, BatchNormRelu) {
  Fused f = FuseAndCompare(R"(opset "" 17
graph g(%x: float32[1,2,3,3]) {
  const %s: float32[2] = [1.5, 0.5]
  const %b: float32[2] = [0.25, -0.5]
  const %m: float32[2] = [0.1, -0.2]
  const %v: float32[2] = [2, 0.5]
  bn: %n: float32[1,2,3,3] = BatchNormalization(%x, %s, %b, %m, %v)
  relu: %y = Relu(%n)
  return %y
})");
  EXPECT_TRUE(f.changed);
  EXPECT_TRUE(Has(f.dump, R"(bn: %y = ge::FusedBatchNormalization(%x, %s, %b, %m, %v) {activation="Relu"})")) << f.dump;
}

TEST(ActivationFusionPass, EverySingleNodeActivation) {
  struct Case {
    std::string body;
    std::string attrs;
    int opset = 17;
  };
  const Case cases[] = {
      {"  a: %y = LeakyRelu(%c) {alpha=0.2}\n", R"(activation="LeakyRelu", activation_params=[0.2])"},
      {"  a: %y = LeakyRelu(%c)\n", R"(activation="LeakyRelu", activation_params=[0.01])"},
      {"  const %lo: float32[] = [-0.5]\n  const %hi: float32[] = [0.75]\n  a: %y = Clip(%c, %lo, %hi)\n",
       R"(activation="Clip", activation_params=[-0.5,0.75])"},
      {"  const %hi: float32[] = [6]\n  a: %y = Clip(%c, _, %hi)\n",
       R"(activation="Clip", activation_params=[-3.4028235e+38,6.0])"},
      {"  a: %y = Clip(%c) {max=6.0, min=0.0}\n", R"(activation="Clip", activation_params=[0.0,6.0])", 6},
      {"  a: %y = Sigmoid(%c)\n", R"(activation="Sigmoid")"},
      {"  a: %y = Tanh(%c)\n", R"(activation="Tanh")"},
      {"  a: %y = HardSigmoid(%c) {alpha=0.3}\n", R"(activation="HardSigmoid", activation_params=[0.3,0.5])"},
      {"  a: %y = HardSwish(%c)\n", R"(activation="HardSwish")"},
      {"  a: %y = Elu(%c) {alpha=0.5}\n", R"(activation="Elu", activation_params=[0.5])"},
  };
  for (const Case& c : cases) {
    Fused f = FuseAndCompare(ConvModel(c.body + "  return %y\n", c.opset));
    EXPECT_TRUE(f.changed) << c.body;
    EXPECT_TRUE(Has(f.dump, "conv: %y = ge::FusedConv(%x, %w, %b) {" + c.attrs + ", pads=[1,1,1,1]}")) << f.dump;
    EXPECT_FALSE(Has(f.dump, "a: ")) << f.dump;
    // The fused reference kernel computes what the separate nodes compute, rounding included.
    EXPECT_EQ(f.error, 0.0) << c.body;
  }
}

TEST(ActivationFusionPass, ResidualSumThenActivation) {
  Fused f = FuseAndCompare(ConvModel("  add: %s: float32[1,4,6,6] = Add(%res, %c)\n  relu: %y = Relu(%s)\n"
                                     "  return %y\n"));
  EXPECT_TRUE(Has(f.dump, R"(conv: %y = ge::FusedConv(%x, %w, %b, %res) {activation="Relu", pads=[1,1,1,1]})"))
      << f.dump;
  EXPECT_EQ(f.error, 0.0);
  // The sum alone when its result has other uses; no bias input then stays omitted.
  Fused g = FuseAndCompare(R"(opset "" 17
graph g(%x: float32[1,2,3,3], %res: float32[1,2,3,3]) {
  const %w: float32[2,2,1,1] = [1, -2, 0.5, 0.25]
  conv: %c: float32[1,2,3,3] = Conv(%x, %w)
  add: %s: float32[1,2,3,3] = Add(%c, %res)
  relu: %y = Relu(%s)
  return %y, %s
})");
  EXPECT_TRUE(Has(g.dump, "conv: %s: float32[1,2,3,3] = ge::FusedConv(%x, %w, _, %res)\n")) << g.dump;
  EXPECT_TRUE(Has(g.dump, "relu: %y = Relu(%s)")) << g.dump;
}

// ResNet's downsampling block: Add(conv_a, conv_b) -> Relu. The first conv takes the second's output as its Sum.
TEST(ActivationFusionPass, TwoConvsIntoOneSum) {
  Fused f = FuseAndCompare(ConvModel(R"(  const %w2: float32[4,3,1,1] = [1, 0.5, -1, 2, 0.25, -0.5, 1, 1, -2, 0.75, 0.5, 1]
  conv2: %d: float32[1,4,6,6] = Conv(%x, %w2)
  add: %s: float32[1,4,6,6] = Add(%c, %d)
  relu: %y = Relu(%s)
  return %y
)"));
  EXPECT_TRUE(Has(f.dump, R"(conv: %y = ge::FusedConv(%x, %w, %b, %d) {activation="Relu", pads=[1,1,1,1]})"))
      << f.dump;
  EXPECT_TRUE(Has(f.dump, "conv2: %d: float32[1,4,6,6] = Conv(%x, %w2)")) << f.dump;
}

TEST(ActivationFusionPass, Silu) {
  for (const char* mul : {"Mul(%c, %sg)", "Mul(%sg, %c)"}) {
    Fused f = FuseAndCompare(ConvModel(std::string("  sig: %sg = Sigmoid(%c)\n  mul: %y = ") + mul +
                                       "\n  return %y\n"));
    EXPECT_TRUE(Has(f.dump, R"(conv: %y = ge::FusedConv(%x, %w, %b) {activation="Silu", pads=[1,1,1,1]})"))
        << f.dump;
    EXPECT_EQ(f.error, 0.0);
  }
}

TEST(ActivationFusionPass, GeluAsExported) {
  const std::string consts = R"(  const %sqrt2: float32[] = [1.4142135]
  const %rsqrt2: float32[] = [0.70710677]
  const %one: float32[] = [1]
  const %half: float32[] = [0.5]
)";
  const char* forms[] = {
      // torch.onnx, nn.GELU(): Mul(Mul(x, Add(Erf(Div(x, sqrt2)), 1)), 0.5).
      R"(  d: %d = Div(%m, %sqrt2)
  e: %e = Erf(%d)
  a: %e1 = Add(%e, %one)
  p: %p = Mul(%m, %e1)
  y: %y = Mul(%p, %half)
)",
      // BERT (HuggingFace): x * 0.5 * (1.0 + erf(x / sqrt(2))).
      R"(  h: %h = Mul(%m, %half)
  d: %d = Div(%m, %sqrt2)
  e: %e = Erf(%d)
  a: %e1 = Add(%one, %e)
  y: %y = Mul(%h, %e1)
)",
      // x * (0.5 * (1 + erf(x * 1/sqrt(2)))).
      R"(  d: %d = Mul(%rsqrt2, %m)
  e: %e = Erf(%d)
  a: %e1 = Add(%e, %one)
  q: %q = Mul(%e1, %half)
  y: %y = Mul(%m, %q)
)",
  };
  for (const char* form : forms) {
    Fused f = FuseAndCompare(MatMulModel(consts + form + "  return %y\n"));
    if (form == forms[0]) {
      EXPECT_EQ(f.error, 0.0);  // the form the kernel follows
    }
    EXPECT_TRUE(Has(f.dump, R"(  mm: %y = ge::FusedMatMul(%x, %w) {activation="Gelu"}
  return %y)")) << f.dump;
  }
}

TEST(ActivationFusionPass, GemmAndFusedFormsWithoutActivation) {
  Fused gemm = FuseAndCompare(R"(opset "" 17
graph g(%x: float32[3,4]) {
  const %w: float32[5,4] = )" + Values(20) + R"(
  fc: %f: float32[3,5] = Gemm(%x, %w) {transB=1}
  t: %y = Tanh(%f)
  return %y
})");
  EXPECT_TRUE(Has(gemm.dump, R"(fc: %y = ge::FusedGemm(%x, %w) {activation="Tanh", transB=1})")) << gemm.dump;
  Fused mm = FuseAndCompare(MatMulModel(R"(  const %bias: float32[5] = [1, 2, 3, 4, 5]
  fm: %f: float32[2,3,5] = ge::FusedMatMul(%x, %w, %bias)
  r: %y = Relu(%f)
  return %y, %m
)"));
  EXPECT_TRUE(Has(mm.dump, R"(fm: %y = ge::FusedMatMul(%x, %w, %bias) {activation="Relu"})")) << mm.dump;
  Fused conv = FuseAndCompare(ConvModel(R"(  fc: %f: float32[1,4,6,6] = ge::FusedConv(%x, %w, %b, %res) {pads=[1,1,1,1]}
  r: %y = Elu(%f)
  return %y, %c
)"));
  EXPECT_TRUE(Has(conv.dump, R"(fc: %y = ge::FusedConv(%x, %w, %b, %res) {activation="Elu", activation_params=[1.0], )"
                             R"(pads=[1,1,1,1]})"))
      << conv.dump;
}

TEST(ActivationFusionPass, DoesNotFireWhenUnsafe) {
  const std::string cases[] = {
      // The conv output has another use, or is a graph output.
      ConvModel("  relu: %y = Relu(%c)\n  neg: %n = Neg(%c)\n  return %y, %n\n"),
      ConvModel("  relu: %y = Relu(%c)\n  return %y, %c\n"),
      // Already fused with an activation.
      ConvModel("  fc: %f = ge::FusedConv(%x, %w, %b) {activation=\"Relu\", pads=[1,1,1,1]}\n"
                "  t: %y = Tanh(%f)\n  return %y, %c\n"),
      // A Clip bound that is not a constant.
      ConvModel("  const %lo: float32[] = [0]\n  s: %hi = ReduceMax(%res) {keepdims=0}\n"
                "  a: %y = Clip(%c, %lo, %hi)\n  return %y\n"),
      // Residual operands that are constant or broadcast.
      ConvModel("  const %k: float32[1,4,6,6] = " + Values(144) + "\n  add: %y = Add(%c, %k)\n  return %y\n"),
      ConvModel("  const %k: float32[4,1,1] = [1, 2, 3, 4]\n  add: %y = Add(%c, %k)\n  return %y\n"),
      // Silu whose sigmoid is also a graph output; a GELU with the wrong constant.
      ConvModel("  sig: %sg = Sigmoid(%c)\n  mul: %y = Mul(%c, %sg)\n  return %y, %sg\n"),
      MatMulModel(R"(  const %k: float32[] = [1.5]
  const %one: float32[] = [1]
  const %half: float32[] = [0.5]
  d: %d = Div(%m, %k)
  e: %e = Erf(%d)
  a: %e1 = Add(%e, %one)
  p: %p = Mul(%m, %e1)
  y: %y = Mul(%p, %half)
  return %y
)"),
      // An activation of a MatMul's graph output.
      MatMulModel("  r: %y = Relu(%m)\n  return %y, %m\n"),
  };
  for (const std::string& text : cases) {
    bool changed = true;
    std::string out = RunAndDump(CreateActivationFusionPass(), text, &changed);
    EXPECT_FALSE(changed) << text << "\n" << out;
    EXPECT_EQ(out.find("ge::Fused") == std::string::npos, text.find("ge::Fused") == std::string::npos) << out;
  }
}

// Subgraphs are fused too; a value a subgraph reads by name stays.
TEST(ActivationFusionPass, SubgraphsAndCaptures) {
  bool changed = false;
  std::string out = RunAndDump(CreateActivationFusionPass(), R"(opset "" 17
graph g(%x: float32[2,3], %cond: bool[]) {
  const %w: float32[3,3] = [1, 2, 3, 4, 5, 6, 7, 8, 9]
  mm: %m: float32[2,3] = MatMul(%x, %w)
  r: %r = Relu(%m)
  if: %y = If(%cond)
  then_branch = graph then() {
    mm2: %m2: float32[2,3] = MatMul(%r, %w)
    t: %t = Tanh(%m2)
    return %t
  }
  else_branch = graph else() {
    n: %n = Neg(%m)
    return %n
  }
  return %y
})", &changed);
  EXPECT_TRUE(changed);
  EXPECT_TRUE(Has(out, "r: %r = Relu(%m)")) << out;
  EXPECT_TRUE(Has(out, R"(mm2: %t = ge::FusedMatMul(%r, %w) {activation="Tanh"})")) << out;
}

// A double Clip without an upper bound would clamp at double's max, which float activation_params cannot hold.
TEST(ActivationFusionPass, KeepsDoubleClipWithAnOpenBound) {
  bool changed = true;
  RunAndDump(CreateActivationFusionPass(), R"(opset "" 17
graph g(%x: float64[2,3], %w: float64[3,3]) {
  const %lo: float64[] = [0]
  mm: %m: float64[2,3] = MatMul(%x, %w)
  c: %y = Clip(%m, %lo)
  return %y
})", &changed);
  EXPECT_FALSE(changed);
}

}  // namespace
}  // namespace ge::compiler
