#include <gtest/gtest.h>

#include "compiler/passes/pass_test_util.h"
#include "compiler/passes/passes.h"

namespace ge::compiler {
namespace {

using testing::BuiltinEnginesContext;
using testing::ModelsAgree;
using testing::Parse;

// "[v0, v1, ...]" with n exactly representable values a + step * ((i * 37) % 17).
std::string Values(int n, double a, double step) {
  std::string s = "[";
  for (int i = 0; i < n; ++i) {
    char buf[32];
    std::snprintf(buf, sizeof(buf), "%g", a + step * ((i * 37) % 17));
    s += (i ? ", " : "") + std::string(buf);
  }
  return s + "]";
}

std::string ModelText() {
  return R"(opset "" 17
graph net(%x: float32[1,3,8,8]) {
  const %w: float32[4,3,3,3] = )" + Values(108, -1, 0.125) + R"(
  const %b: float32[4] = )" + Values(4, -0.5, 0.25) + R"(
  const %scale: float32[4] = )" + Values(4, 0.5, 0.125) + R"(
  const %bias: float32[4] = )" + Values(4, -0.25, 0.0625) + R"(
  const %mean: float32[4] = )" + Values(4, -0.125, 0.03125) + R"(
  const %var: float32[4] = )" + Values(4, 0.5, 0.25) + R"(
  const %one: int64[1] = [1]
  const %minus_one: int64[1] = [-1]
  conv: %c = Conv(%x, %w, %b) {pads=[1,1,1,1]}
  bn: %n = BatchNormalization(%c, %scale, %bias, %mean, %var)
  relu: %r = Relu(%n)
  id: %i = Identity(%r)
  p1: %p1 = MaxPool(%i) {kernel_shape=[2,2], strides=[2,2]}
  p2: %p2 = MaxPool(%i) {kernel_shape=[2,2], strides=[2,2]}
  sum: %s = Add(%p1, %p2)
  cat: %shape = Concat(%one, %minus_one) {axis=0}
  flat: %f = Reshape(%s, %shape)
  dead: %d = Sigmoid(%r)
  dead2: %d2 = Exp(%d)
  out: %y = Identity(%f)
  return %y
})";
}

TEST(PreparePipeline, ConvBnReluWithDuplicatesAndDeadCode) {
  auto original = Parse(ModelText());
  auto optimized = Parse(ModelText());
  ASSERT_TRUE(original && optimized);
  PassContext ctx = BuiltinEnginesContext();
  ctx.validate = true;
  Status s = RunPreparePipeline(*optimized, ctx);
  ASSERT_TRUE(s.ok()) << s.ToString();
  ir::DumpOptions opts;
  opts.max_tensor_elements = 2;
  EXPECT_EQ(ir::DumpText(*optimized->graph, opts), R"(graph net(%x: float32[1,3,8,8]) {
  const %shape: int64[2] = [1, -1]
  const %w_bn: float32[4,3,3,3] = <elided 108 elements>
  const %b_bn: float32[4] = <elided 4 elements>
  conv: %r: float32[1,4,8,8] = ge::FusedConv(%x, %w_bn, %b_bn) {activation="Relu", pads=[1,1,1,1]} @dnnl
  p1: %p1: float32[1,4,4,4] = MaxPool(%r) {kernel_shape=[2,2], strides=[2,2]} @dnnl
  sum: %s: float32[1,4,4,4] = Add(%p1, %p1) @ref
  flat: %y: float32[1,64] = Reshape(%s, %shape) @ref
  return %y
}
)");
  EXPECT_EQ(optimized->opsets["ge"], 1);
  EXPECT_TRUE(ModelsAgree(*original, *optimized, 1e-5, 1));
  EXPECT_TRUE(ModelsAgree(*original, *optimized, 1e-5, 2));
  // The pipeline is idempotent on its own output.
  std::string once = ir::DumpText(*optimized->graph);
  ASSERT_TRUE(RunPreparePipeline(*optimized, ctx).ok());
  EXPECT_EQ(ir::DumpText(*optimized->graph), once);
}

TEST(PreparePipeline, FusionOption) {
  auto m = Parse(ModelText());
  ASSERT_TRUE(m);
  PassContext ctx;
  ctx.options["ge.fusion"] = "0";
  ASSERT_TRUE(RunPreparePipeline(*m, ctx).ok());
  std::string dump = ir::DumpText(*m->graph);
  EXPECT_NE(dump.find("relu: %r: float32[1,4,8,8] = Relu(%c) @"), std::string::npos) << dump;
  EXPECT_EQ(dump.find("ge::"), std::string::npos) << dump;
  EXPECT_EQ(m->opsets.count("ge"), 0u);
  ctx.options["ge.fusion"] = "yes";
  Status s = RunPreparePipeline(*m, ctx);
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("ge.fusion must be 0 or 1, got 'yes'"), std::string::npos) << s.message();
}

TEST(PreparePipeline, DnnlEngineOption) {
  auto m = Parse(ModelText());
  ASSERT_TRUE(m);
  PassContext ctx = BuiltinEnginesContext();
  ctx.options["ge.engine.dnnl"] = "1";
  ASSERT_TRUE(RunPreparePipeline(*m, ctx).ok());
  std::string dump = ir::DumpText(*m->graph);
  EXPECT_NE(dump.find("ge::FusedConv(%x, %w_bn, %b_bn) {activation=\"Relu\", pads=[1,1,1,1]} @dnnl"),
            std::string::npos) << dump;
  EXPECT_NE(dump.find("MaxPool(%r) {kernel_shape=[2,2], strides=[2,2]} @dnnl"), std::string::npos) << dump;
  EXPECT_NE(dump.find("Add(%p1, %p1) @ref"), std::string::npos) << dump;  // element-wise stays off oneDNN
  ctx.options["ge.engine.dnnl"] = "2";
  EXPECT_FALSE(RunPreparePipeline(*m, ctx).ok());
  ctx.options["ge.engine.dnnl"] = "0";
  auto plain = Parse(ModelText());
  ASSERT_TRUE(RunPreparePipeline(*plain, ctx).ok());
  EXPECT_EQ(ir::DumpText(*plain->graph).find("@dnnl"), std::string::npos);
}

// A decomposed LayerNorm over the last dim of a rank-3 activation fuses whole: its ReduceMeans are also NCW spatial
// means, which ReduceMeanPool would turn into GlobalAveragePool (a pattern LayerNormFusion no longer matches).
TEST(PreparePipeline, DecomposedLayerNormOfRankThreeFusesBeforeMeansBecomePools) {
  const std::string text = R"(opset "" 13
graph g(%x: float32[2,3,4]) {
  const %two: float32[] = [2]
  const %eps: float32[] = [1e-05]
  const %gamma: float32[4] = [1, 0.5, -2, 3]
  const %beta: float32[4] = [0.25, 0, -1, 2]
  m: %m = ReduceMean(%x) {axes=[-1]}
  sub: %d = Sub(%x, %m)
  pow: %p = Pow(%d, %two)
  m2: %v = ReduceMean(%p) {axes=[-1]}
  add_eps: %ve = Add(%v, %eps)
  sqrt: %s = Sqrt(%ve)
  div: %n = Div(%d, %s)
  mul: %g = Mul(%n, %gamma)
  add: %y = Add(%g, %beta)
  return %y
})";
  auto m = Parse(text);
  auto original = Parse(text);
  ASSERT_TRUE(m && original);
  ASSERT_TRUE(RunPreparePipeline(*m, PassContext()).ok());
  const std::string dump = ir::DumpText(*m->graph);
  EXPECT_NE(dump.find("ge::LayerNormalization(%x, %gamma, %beta) {axis=-1, epsilon=1e-05}"), std::string::npos)
      << dump;
  EXPECT_EQ(dump.find("GlobalAveragePool"), std::string::npos) << dump;
  EXPECT_TRUE(ModelsAgree(*original, *m, 1e-5));
}

// An engine is whatever implements kernels::Engine: the pipeline offers it the nodes it claims, in list order, and
// ge.engine.<name>=0 turns it off. No pass names an engine.
class PoolOnlyEngine final : public kernels::Engine {
 public:
  const char* name() const override { return "pools"; }
  std::vector<ops::OpId> Ops() const override { return {ops::OpId::kMaxPool}; }
  bool Claims(const ir::Node& n) const override { return ops::IsOp(n, ops::OpId::kMaxPool); }
  bool Supports(const ir::Node& n) const override { return Claims(n); }
  StatusOr<std::unique_ptr<exec::PreparedKernel>> Prepare(const exec::PrepareRequest&) const override {
    return std::unique_ptr<exec::PreparedKernel>();
  }
  StatusOr<kernels::KernelChoice> Choose(const exec::PrepareRequest&) const override { return kernels::KernelChoice(); }
};

TEST(PreparePipeline, EnginesComeFromTheContextInOrder) {
  PassContext ctx = BuiltinEnginesContext();
  ctx.engines.insert(ctx.engines.begin(), std::make_shared<PoolOnlyEngine>());
  auto m = Parse(ModelText());
  ASSERT_TRUE(RunPreparePipeline(*m, ctx).ok());
  std::string dump = ir::DumpText(*m->graph);
  EXPECT_NE(dump.find("MaxPool(%r) {kernel_shape=[2,2], strides=[2,2]} @pools"), std::string::npos) << dump;
  EXPECT_NE(dump.find("{activation=\"Relu\", pads=[1,1,1,1]} @dnnl"), std::string::npos) << dump;
  ctx.options["ge.engine.pools"] = "0";
  auto off = Parse(ModelText());
  ASSERT_TRUE(RunPreparePipeline(*off, ctx).ok());
  dump = ir::DumpText(*off->graph);
  EXPECT_NE(dump.find("MaxPool(%r) {kernel_shape=[2,2], strides=[2,2]} @dnnl"), std::string::npos) << dump;
  PassContext none;  // no engines: ge's own kernels only
  auto bare = Parse(ModelText());
  ASSERT_TRUE(RunPreparePipeline(*bare, none).ok());
  EXPECT_EQ(ir::DumpText(*bare->graph).find("@dnnl"), std::string::npos);
}

TEST(PreparePipeline, ErrorsNameTheFailingPass) {
  auto m = Parse(R"(opset "" 17
graph g(%x: float32[2]) {
  n: %y = NoSuchOp(%x)
  return %y
})");
  ASSERT_TRUE(m);
  Status s = RunPreparePipeline(*m, {});
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("pass InferShapes: node 'n': unknown op 'NoSuchOp'"), std::string::npos) << s.message();
}

}  // namespace
}  // namespace ge::compiler
