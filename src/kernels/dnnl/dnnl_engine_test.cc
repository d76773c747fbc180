#include "kernels/dnnl/dnnl_engine.h"

#include <algorithm>

#include "kernels/dnnl/dnnl_test_util.h"
#include "kernels/exec/kernel_variant.h"
#include "kernels/exec/packed_gemm.h"
#include "kernels/exec/prepared_kernel.h"

namespace ge::dnnl_kernels::testing {
namespace {

// A graph X -> op -> Y whose X desc may have unknown dims.
struct OneNode {
  ir::Graph g{"g"};
  ir::Node* node = nullptr;
};

std::unique_ptr<OneNode> MakeNode(const std::string& op, const std::string& domain, std::vector<TensorDesc> ins,
                                  TensorDesc out, ir::AttrMap attrs = ir::AttrMap()) {
  auto n = std::make_unique<OneNode>();
  std::vector<ir::Value*> in_values;
  for (size_t i = 0; i < ins.size(); ++i) in_values.push_back(n->g.AddInput("x" + std::to_string(i), ins[i]));
  ir::Value* y = n->g.AddValue("y", out);
  n->node = n->g.AddNode(op, "n", in_values, {y}, domain);
  n->node->attrs() = std::move(attrs);
  return n;
}

TensorDesc F32(std::vector<int64_t> dims) {
  return TensorDesc(DataType::kFloat, Shape(Dims(dims.begin(), dims.end())));
}

TEST(DnnlEngine, SupportsWithSymbolicDims) {
  // Dims unknown: attributes, dtypes and ranks decide.
  TensorDesc x(DataType::kFloat, Shape(Dims{kUnknownDim, 3, kUnknownDim, kUnknownDim}));
  auto conv = MakeNode("Conv", "", {x, F32({8, 3, 3, 3})}, TensorDesc(DataType::kFloat, Shape::UnknownRank()));
  EXPECT_TRUE(DnnlSupports(*conv->node));
  auto relu = MakeNode("Relu", "", {x}, x);
  EXPECT_TRUE(DnnlSupports(*relu->node));
  auto mm = MakeNode("MatMul", "", {x, F32({5, 4})}, TensorDesc(DataType::kFloat, Shape::UnknownRank()));
  EXPECT_TRUE(DnnlSupports(*mm->node));
  auto fused = MakeNode("FusedConv", "ge", {x, F32({8, 3, 3, 3})}, TensorDesc(DataType::kFloat, Shape::UnknownRank()),
                        Attrs({{"activation", AV::String("Silu")}}));
  EXPECT_TRUE(DnnlSupports(*fused->node));
}

TEST(DnnlEngine, DoesNotSupport) {
  auto unknown_op = MakeNode("Gather", "", {F32({4, 3}), F32({2})}, F32({2, 3}));
  EXPECT_FALSE(DnnlSupports(*unknown_op->node));
  auto wrong_domain = MakeNode("Conv", "com.microsoft", {F32({1, 3, 5, 5}), F32({4, 3, 3, 3})}, F32({1, 4, 3, 3}));
  EXPECT_FALSE(DnnlSupports(*wrong_domain->node));
  auto f64 = MakeNode("Relu", "", {TensorDesc(DataType::kDouble, Shape(Dims{4}))},
                      TensorDesc(DataType::kDouble, Shape(Dims{4})));
  EXPECT_FALSE(DnnlSupports(*f64->node));
  auto bad_act = MakeNode("FusedConv", "ge", {F32({1, 3, 5, 5}), F32({4, 3, 3, 3})}, F32({1, 4, 3, 3}),
                          Attrs({{"activation", AV::String("Swish")}}));
  EXPECT_FALSE(DnnlSupports(*bad_act->node));
  auto bad_params = MakeNode("FusedConv", "ge", {F32({1, 3, 5, 5}), F32({4, 3, 3, 3})}, F32({1, 4, 3, 3}),
                             Attrs({{"activation", AV::String("Relu")}, {"activation_params", AV::Floats({1.f})}}));
  EXPECT_FALSE(DnnlSupports(*bad_params->node));
  auto blocked = MakeNode("Relu", "", {F32({1, 16, 4, 4})}, F32({1, 16, 4, 4}));
  blocked->node->input(0)->desc().format = Format::kNC1HWC0;
  EXPECT_FALSE(DnnlSupports(*blocked->node));
  auto empty = MakeNode("Relu", "", {F32({0, 4})}, F32({0, 4}));
  EXPECT_FALSE(DnnlSupports(*empty->node));
}

TEST(DnnlEngine, PrepareKernelDispatchesThroughTheEngineTable) {
  std::mt19937 rng(61);
  const Case c("Conv", {RandomTensor({1, 3, 8, 8}, rng), RandomTensor({4, 3, 3, 3}, rng)}, {false, true});
  auto p = PrepareCase(c);
  ASSERT_TRUE(p.ok() && (*p)->kernel != nullptr);
  const kernels::EngineList engines = {CreateDnnlEngine()};
  auto k = exec::PrepareKernel((*p)->request, engines);
  ASSERT_TRUE(k.ok()) << k.status().ToString();
  EXPECT_EQ(std::string((*k)->impl_name()).rfind("dnnl.conv", 0), 0u) << (*k)->impl_name();
  // A node the engine declines falls back to the CPU kernels.
  const Case d("Clip", {RandomTensor({4}, rng), RandomTensor({}, rng)}, {false, false});
  auto q = PrepareCase(d);
  ASSERT_TRUE(q.ok());
  EXPECT_TRUE((*q)->kernel == nullptr);
  auto fallback = exec::PrepareKernel((*q)->request, engines);
  ASSERT_TRUE(fallback.ok()) << fallback.status().ToString();
  EXPECT_EQ(std::string((*fallback)->impl_name()).rfind("dnnl", 0), std::string::npos);
}

TEST(DnnlEngine, InvalidRequestIsAnError) {
  std::mt19937 rng(62);
  const Case c("Relu", {RandomTensor({4}, rng)});
  auto p = PrepareCase(c);
  ASSERT_TRUE(p.ok());
  exec::PrepareRequest r = (*p)->request;
  r.output_descs.clear();
  auto k = PrepareDnnlKernel(r);
  EXPECT_FALSE(k.ok());
  EXPECT_NE(k.status().message().find("n_Relu"), std::string::npos) << k.status().ToString();
}

// A constant-weight MatMul [64, 96] x [96, 128] (the MLP shape class) at `target`, optionally with a variant.
Case ConstWeightMatMul(IsaLevel target, const std::string& variant, std::mt19937& rng) {
  Case c("MatMul", {RandomTensor({64, 96}, rng), RandomTensor({96, 128}, rng)}, {false, true});
  if (!variant.empty()) c.attrs.Set(exec::kKernelVariantAttr, AV::String(variant));
  c.max_isa = target;
  return c;
}

std::string PreparedImpl(const Case& c) {
  auto p = PrepareCase(c);
  if (!p.ok()) return "error: " + p.status().ToString();
  if ((*p)->kernel == nullptr) return "declined";
  Status s = (*p)->Run();
  if (!s.ok()) return "run failed: " + s.ToString();
  auto want = RunRef(c);
  if (!want.ok()) return "ref failed";
  ExpectNear((*p)->outputs[0], (*want)[0].tensor, 1e-4, CaseName(c));
  return (*p)->kernel->impl_name();
}

// Below AVX-512, oneDNN 2.6's AVX2 matmul is slower than ge's packed SGEMM on MLP and transformer shapes: the engine
// hands static constant-weight matmuls to it; the "dnnl" variant keeps oneDNN's, "ge_packed_gemm" asks for ge's.
TEST(DnnlEngine, ConstantWeightMatMulBelowAvx512RunsOnGePackedGemm) {
  if (!exec::PackedGemmAvailable()) GTEST_SKIP() << "no AVX2 + FMA";
  std::mt19937 rng(63);
  EXPECT_EQ(PreparedImpl(ConstWeightMatMul(IsaLevel::kX86_64_V3, "", rng)), "exec.packed_gemm_avx2");
  EXPECT_EQ(PreparedImpl(ConstWeightMatMul(IsaLevel::kX86_64_V3, "dnnl", rng)).rfind("dnnl.matmul", 0), 0u);
  EXPECT_EQ(PreparedImpl(ConstWeightMatMul(IsaLevel::kX86_64_V3, "ge_packed_gemm", rng)), "exec.packed_gemm_avx2");
  const std::string at_v4 = PreparedImpl(ConstWeightMatMul(IsaLevel::kX86_64_V4, "", rng));
  if (DnnlMaxIsaLevel() >= IsaLevel::kX86_64_V4) {
    EXPECT_EQ(at_v4.rfind("dnnl.matmul", 0), 0u) << at_v4;
  } else {
    EXPECT_EQ(at_v4, "exec.packed_gemm_avx2");  // a v4 target here is refused at load; the engine still serves it
  }
  // Weights that are not constant stay on oneDNN.
  Case runtime_b("MatMul", {RandomTensor({64, 96}, rng), RandomTensor({96, 128}, rng)}, {false, false});
  runtime_b.max_isa = IsaLevel::kX86_64_V3;
  EXPECT_EQ(PreparedImpl(runtime_b).rfind("dnnl.matmul", 0), 0u);
  // An activation ge's kernel lacks stays on oneDNN too.
  Case gelu("FusedMatMul", {RandomTensor({64, 96}, rng), RandomTensor({96, 128}, rng)}, {false, true},
            Attrs({{"activation", AV::String("Gelu")}}), "ge");
  gelu.max_isa = IsaLevel::kX86_64_V3;
  EXPECT_EQ(PreparedImpl(gelu).rfind("dnnl.fused_matmul", 0), 0u);
}

// A constant-weight product of at most 512K multiply-adds (an RNN tagger's output layer, [60, 256] x [256, 10])
// goes to ge's packed SGEMM at any target: no oneDNN primitive to create at load. The MLP shape above (786K) stays
// on oneDNN at v4.
TEST(DnnlEngine, SmallConstantWeightMatMulRunsOnGePackedGemmAtAnyTarget) {
  if (!exec::PackedGemmAvailable()) GTEST_SKIP() << "no AVX2 + FMA";
  std::mt19937 rng(65);
  for (IsaLevel target : {IsaLevel::kX86_64_V3, IsaLevel::kX86_64_V4, IsaLevel::kNone}) {
    Case c("MatMul", {RandomTensor({60, 256}, rng), RandomTensor({256, 10}, rng)}, {false, true});
    c.max_isa = target;
    EXPECT_EQ(PreparedImpl(c), "exec.packed_gemm_avx2");
    c.attrs.Set(exec::kKernelVariantAttr, AV::String("dnnl"));
    EXPECT_EQ(PreparedImpl(c).rfind("dnnl.matmul", 0), 0u);
  }
  // One row against 256K weights: the AVX2 kernel's one-row tile is latency-bound, so AVX-512 keeps oneDNN's.
  Case gemv("MatMul", {RandomTensor({1, 1024}, rng), RandomTensor({1024, 256}, rng)}, {false, true});
  gemv.max_isa = IsaLevel::kX86_64_V4;
  const std::string impl = PreparedImpl(gemv);
  if (DnnlMaxIsaLevel() >= IsaLevel::kX86_64_V4) EXPECT_EQ(impl.rfind("dnnl.matmul", 0), 0u) << impl;
  // A one-row product with few weights (a classifier head on the last hidden state) goes to ge's.
  Case head("MatMul", {RandomTensor({1, 128}, rng), RandomTensor({128, 10}, rng)}, {false, true});
  EXPECT_EQ(PreparedImpl(head), "exec.packed_gemm_avx2");
}

TEST(DnnlEngine, ConstantWeightMatMulOffersBothVariantsDefaultFirst) {
  if (!exec::PackedGemmAvailable()) GTEST_SKIP() << "no AVX2 + FMA";
  std::mt19937 rng(64);
  const Case v3 = ConstWeightMatMul(IsaLevel::kX86_64_V3, "", rng);  // outlives the request (its constants)
  auto p = PrepareCase(v3);
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(exec::VariantsOnEngines((*p)->request, TestEngines()),
            (std::vector<std::string>{"ge_packed_gemm", "dnnl"}));
  if (DnnlMaxIsaLevel() >= IsaLevel::kX86_64_V4) {
    const Case v4 = ConstWeightMatMul(IsaLevel::kX86_64_V4, "", rng);
    auto q = PrepareCase(v4);
    ASSERT_TRUE(q.ok());
    EXPECT_EQ(exec::VariantsOnEngines((*q)->request, TestEngines()),
              (std::vector<std::string>{"dnnl", "ge_packed_gemm"}));
  }
  Case runtime_b("MatMul", {RandomTensor({64, 96}, rng), RandomTensor({96, 128}, rng)}, {false, false});
  auto r = PrepareCase(runtime_b);
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(exec::VariantsOnEngines((*r)->request, TestEngines()).empty());
}

// The tuner takes a variant's first name as the engine's default: below AVX-512 that is ge's Winograd for a 3x3
// convolution where it pays.
TEST(DnnlEngine, ConvVariantsListTheDefaultFirst) {
  if (!exec::PackedGemmAvailable()) GTEST_SKIP() << "no AVX2 + FMA";
  std::mt19937 rng(65);
  Case c("Conv", {RandomTensor({1, 32, 16, 16}, rng), RandomTensor({32, 32, 3, 3}, rng)}, {false, true},
         Attrs({{"pads", AV::Ints({1, 1, 1, 1})}}));
  c.input_formats = {Format::kNHWC};
  c.output_formats = {Format::kNHWC};
  c.max_isa = IsaLevel::kX86_64_V3;
  auto p = PrepareCase(c);
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  ASSERT_NE((*p)->kernel, nullptr);
  EXPECT_STREQ((*p)->kernel->impl_name(), "exec.winograd_conv");
  const std::vector<std::string> names = exec::VariantsOnEngines((*p)->request, TestEngines());
  ASSERT_GE(names.size(), 2u);
  EXPECT_EQ(names.front(), "ge_winograd");
  // A 1x1 convolution has no Winograd: oneDNN's default comes first.
  Case one("Conv", {RandomTensor({1, 32, 16, 16}, rng), RandomTensor({32, 32, 1, 1}, rng)}, {false, true});
  one.input_formats = {Format::kNHWC};
  one.output_formats = {Format::kNHWC};
  one.max_isa = IsaLevel::kX86_64_V3;
  auto q = PrepareCase(one);
  ASSERT_TRUE(q.ok()) << q.status().ToString();
  const std::vector<std::string> one_names = exec::VariantsOnEngines((*q)->request, TestEngines());
  ASSERT_FALSE(one_names.empty());
  EXPECT_EQ(std::find(one_names.begin(), one_names.end(), "ge_winograd"), one_names.end());
  EXPECT_NE(one_names.front(), "ge_im2col");
  // A stride-2 3x3 convolution over 128 channels: im2col + packed SGEMM is the default there.
  Case s2("Conv", {RandomTensor({1, 128, 14, 14}, rng), RandomTensor({128, 128, 3, 3}, rng)}, {false, true},
          Attrs({{"pads", AV::Ints({1, 1, 1, 1})}, {"strides", AV::Ints({2, 2})}}));
  s2.input_formats = {Format::kNHWC};
  s2.output_formats = {Format::kNHWC};
  s2.max_isa = IsaLevel::kX86_64_V3;
  auto t = PrepareCase(s2);
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  ASSERT_NE((*t)->kernel, nullptr);
  EXPECT_STREQ((*t)->kernel->impl_name(), "exec.im2col_conv");
  const std::vector<std::string> s2_names = exec::VariantsOnEngines((*t)->request, TestEngines());
  ASSERT_GE(s2_names.size(), 2u);
  EXPECT_EQ(s2_names.front(), "ge_im2col");
}

// Where ge's plain depthwise kernel or the pointwise-as-matmul form is the default, the tuner lists it first and can
// ask for it again; another variant prepares oneDNN's convolution.
TEST(DnnlEngine, PlainDepthwiseAndPointwiseMatmulAreTunableVariants) {
  if (static_cast<int>(DnnlMaxIsaLevel()) < static_cast<int>(IsaLevel::kX86_64_V4)) GTEST_SKIP() << "no AVX-512";
  std::mt19937 rng(66);
  Case dw("Conv", {RandomTensor({1, 16, 40}, rng), RandomTensor({16, 1, 5}, rng)}, {false, true},
          Attrs({{"pads", AV::Ints({2, 2})}, {"group", AV::Int(16)}}));
  auto p = PrepareCase(dw);
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  ASSERT_NE((*p)->kernel, nullptr);
  EXPECT_STREQ((*p)->kernel->impl_name(), "exec.depthwise_conv_plain");
  const std::vector<std::string> dw_names = exec::VariantsOnEngines((*p)->request, TestEngines());
  ASSERT_GE(dw_names.size(), 2u);
  EXPECT_EQ(dw_names.front(), "ge_depthwise_plain");
  Case dw_dnnl = dw;
  dw_dnnl.attrs.Set(exec::kKernelVariantAttr, AV::String(dw_names[1]));
  EXPECT_EQ(PreparedImpl(dw_dnnl).rfind("dnnl.conv", 0), 0u);
  Case dw_ge = dw;
  dw_ge.attrs.Set(exec::kKernelVariantAttr, AV::String("ge_depthwise_plain"));
  EXPECT_EQ(PreparedImpl(dw_ge), "exec.depthwise_conv_plain");

  Case pw("Conv", {RandomTensor({2, 8, 30}, rng), RandomTensor({16, 8, 1}, rng)}, {false, true});
  auto q = PrepareCase(pw);
  ASSERT_TRUE(q.ok()) << q.status().ToString();
  ASSERT_NE((*q)->kernel, nullptr);
  EXPECT_EQ(std::string((*q)->kernel->impl_name()).rfind("dnnl.conv(brg:", 0), 0u);
  const std::vector<std::string> pw_names = exec::VariantsOnEngines((*q)->request, TestEngines());
  ASSERT_GE(pw_names.size(), 2u);
  EXPECT_EQ(pw_names.front(), "matmul");
  Case pw_conv = pw;
  pw_conv.attrs.Set(exec::kKernelVariantAttr, AV::String(pw_names[1]));
  EXPECT_EQ(PreparedImpl(pw_conv).rfind("dnnl.conv(x64:gemm", 0), 0u) << PreparedImpl(pw_conv);
  // 128 input channels: the convolution is the default, the matmul a variant.
  Case wide("Conv", {RandomTensor({1, 128, 30}, rng), RandomTensor({16, 128, 1}, rng)}, {false, true});
  auto w = PrepareCase(wide);
  ASSERT_TRUE(w.ok()) << w.status().ToString();
  const std::vector<std::string> wide_names = exec::VariantsOnEngines((*w)->request, TestEngines());
  ASSERT_GE(wide_names.size(), 2u);
  EXPECT_NE(wide_names.front(), "matmul");
  EXPECT_NE(std::find(wide_names.begin(), wide_names.end(), "matmul"), wide_names.end());
  Case wide_mm = wide;
  wide_mm.attrs.Set(exec::kKernelVariantAttr, AV::String("matmul"));
  EXPECT_EQ(PreparedImpl(wide_mm).rfind("dnnl.conv(brg:", 0), 0u);
}

}  // namespace
}  // namespace ge::dnnl_kernels::testing
