#include <cstdio>
#include <cstring>
#include <tuple>

#include "kernels/dnnl/dnnl_test_util.h"

namespace ge::dnnl_kernels::testing {
namespace {

using Ints = std::vector<int64_t>;

Case ConvCase(const Dims& x, const Dims& w, bool bias, bool const_w, ir::AttrMap a, std::mt19937& rng) {
  std::vector<Tensor> in = {RandomTensor(x, rng), RandomTensor(w, rng, -1, 1)};
  if (bias) in.push_back(RandomTensor({w[0]}, rng));
  return Case("Conv", in, {false, const_w, true}, std::move(a));
}

TEST(DnnlConv, Conv2dShapesAndAttributes) {
  std::mt19937 rng(1);
  // Plain 3x3 with bias, constant and non-constant weights.
  ExpectDnnlMatchesRef(
      ConvCase({2, 8, 10, 9}, {16, 8, 3, 3}, true, true, Attrs({{"pads", AV::Ints({1, 1, 1, 1})}}), rng));
  ExpectDnnlMatchesRef(
      ConvCase({2, 8, 10, 9}, {16, 8, 3, 3}, false, false, Attrs({{"pads", AV::Ints({1, 1, 1, 1})}}), rng));
  // 1x1, with and without bias.
  ExpectDnnlMatchesRef(ConvCase({1, 16, 7, 7}, {32, 16, 1, 1}, true, true, ir::AttrMap(), rng));
  ExpectDnnlMatchesRef(ConvCase({1, 16, 7, 7}, {32, 16, 1, 1}, false, true, ir::AttrMap(), rng));
  // Grouped, depthwise (strided), dilated, asymmetric pads, strides.
  ExpectDnnlMatchesRef(ConvCase({1, 8, 7, 7}, {6, 4, 3, 3}, true, true, Attrs({{"group", AV::Int(2)}}), rng));
  ExpectDnnlMatchesRef(ConvCase({1, 8, 7, 7}, {6, 4, 3, 3}, true, false, Attrs({{"group", AV::Int(2)}}), rng));
  ExpectDnnlMatchesRef(
      ConvCase({2, 16, 9, 9}, {16, 1, 3, 3}, true, true,
               Attrs({{"group", AV::Int(16)}, {"strides", AV::Ints({2, 2})}, {"pads", AV::Ints({1, 1, 1, 1})}}), rng));
  ExpectDnnlMatchesRef(ConvCase({1, 4, 12, 11}, {5, 4, 3, 3}, true, true,
                                Attrs({{"dilations", AV::Ints({2, 3})}, {"pads", AV::Ints({2, 3, 2, 3})}}), rng));
  ExpectDnnlMatchesRef(
      ConvCase({1, 3, 9, 8}, {4, 3, 3, 2}, true, true, Attrs({{"pads", AV::Ints({0, 1, 2, 0})}}), rng));
  ExpectDnnlMatchesRef(ConvCase({2, 3, 13, 11}, {4, 3, 3, 3}, false, true,
                                Attrs({{"strides", AV::Ints({2, 3})}, {"pads", AV::Ints({1, 0, 0, 1})}}), rng));
  // Strided with a tail the last window skips (oneDNN's and ONNX's floor agree).
  ExpectDnnlMatchesRef(ConvCase({1, 2, 6, 6}, {3, 2, 3, 3}, true, true, Attrs({{"strides", AV::Ints({2, 2})}}), rng));
}

TEST(DnnlConv, AutoPad) {
  std::mt19937 rng(2);
  for (const char* ap : {"SAME_UPPER", "SAME_LOWER", "VALID", "NOTSET"}) {
    for (int64_t s : {1, 2}) {
      SCOPED_TRACE(std::string(ap) + " stride " + std::to_string(s));
      ExpectDnnlMatchesRef(ConvCase({1, 3, 10, 9}, {4, 3, 4, 3}, true, true,
                                    Attrs({{"auto_pad", AV::String(ap)}, {"strides", AV::Ints({s, s})}}), rng));
    }
  }
}

TEST(DnnlConv, Conv1dAnd3d) {
  std::mt19937 rng(3);
  ExpectDnnlMatchesRef(ConvCase({2, 4, 20}, {6, 4, 5}, true, true,
                                Attrs({{"strides", AV::Ints({2})}, {"pads", AV::Ints({2, 1})}}), rng));
  ExpectDnnlMatchesRef(
      ConvCase({2, 4, 20}, {8, 2, 3}, false, false, Attrs({{"group", AV::Int(2)}, {"dilations", AV::Ints({2})}}), rng));
  ExpectDnnlMatchesRef(
      ConvCase({1, 3, 6, 7, 8}, {4, 3, 3, 3, 3}, true, true, Attrs({{"pads", AV::Ints({1, 1, 1, 1, 1, 1})}}), rng));
}

// A 1-D convolution runs on oneDNN's jit kernel, not brgconv (whose creation JITs code unrolled over the output
// row), and matches the reference: padded edges, strides, dilation, groups, widths that are not a multiple of any
// block, and a real thread pool.
TEST(DnnlConv, Conv1dAvoidsBrgconv) {
  std::mt19937 rng(11);
  auto pool = rt::ThreadPool::Create(2);
  ASSERT_TRUE(pool.ok());
  struct Shape1d {
    int64_t c, m, w, k, group;
    Ints strides, pads, dilations;
  };
  for (const Shape1d& s : std::vector<Shape1d>{{1, 32, 997, 10, 1, {5}, {0, 0}, {1}},
                                               {64, 48, 401, 3, 1, {2}, {1, 1}, {1}},
                                               {96, 64, 263, 3, 1, {1}, {2, 0}, {2}},
                                               {32, 32, 129, 2, 2, {2}, {0, 1}, {1}}}) {
    Case c = ConvCase({1, s.c, s.w}, {s.m, s.c / s.group, s.k}, true, true,
                      Attrs({{"strides", AV::Ints(s.strides)},
                             {"pads", AV::Ints(s.pads)},
                             {"dilations", AV::Ints(s.dilations)},
                             {"group", AV::Int(s.group)}}),
                      rng);
    c.threads = 2;
    SCOPED_TRACE("c " + std::to_string(s.c) + " w " + std::to_string(s.w));
    ExpectDnnlMatchesRef(c, 1e-4, pool->get());
    auto p = PrepareCase(c);
    ASSERT_TRUE(p.ok() && (*p)->kernel != nullptr);
    const std::string impl = (*p)->kernel->impl_name();
    EXPECT_EQ(impl.find("(brgconv:"), std::string::npos) << impl;
    if (DnnlMaxIsaLevel() >= IsaLevel::kX86_64_V4) EXPECT_NE(impl.find("avx512"), std::string::npos) << impl;
  }
}

TEST(DnnlConv, DeclinesWhatItDoesNotRun) {
  std::mt19937 rng(4);
  Tensor xd = Tensor::Create(DataType::kDouble, {1, 2, 5, 5}).value();
  Tensor wd = Tensor::Create(DataType::kDouble, {3, 2, 3, 3}).value();
  ExpectDeclined(Case("Conv", {xd, wd}, {false, true}));
  // A 4-D spatial conv (rank 6).
  ExpectDeclined(ConvCase({1, 2, 3, 3, 3, 3}, {2, 2, 2, 2, 2, 2}, false, true, ir::AttrMap(), rng));
}

TEST(DnnlConvTranspose, Shapes) {
  std::mt19937 rng(5);
  auto make = [&](const Dims& x, const Dims& w, bool bias, bool const_w, ir::AttrMap a) {
    std::vector<Tensor> in = {RandomTensor(x, rng), RandomTensor(w, rng, -1, 1)};
    if (bias) in.push_back(RandomTensor({w[1] * a.GetInt("group", 1)}, rng));
    return Case("ConvTranspose", in, {false, const_w, true}, std::move(a));
  };
  ExpectDnnlMatchesRef(make(
      {1, 4, 5, 5}, {4, 6, 3, 3}, true, true,
      Attrs({{"strides", AV::Ints({2, 2})}, {"pads", AV::Ints({1, 1, 1, 1})}, {"output_padding", AV::Ints({1, 1})}})));
  ExpectDnnlMatchesRef(make({2, 4, 4, 4}, {4, 3, 3, 3}, true, false, Attrs({{"group", AV::Int(2)}})));
  ExpectDnnlMatchesRef(make({1, 3, 5, 6}, {3, 2, 3, 3}, false, true,
                            Attrs({{"dilations", AV::Ints({2, 2})}, {"pads", AV::Ints({1, 0, 2, 1})}})));
  ExpectDnnlMatchesRef(make({1, 2, 3, 3}, {2, 3, 3, 3}, true, true,
                            Attrs({{"strides", AV::Ints({2, 2})}, {"output_shape", AV::Ints({6, 6})}})));
  ExpectDnnlMatchesRef(make({1, 2, 4, 5}, {2, 3, 4, 4}, true, true,
                            Attrs({{"strides", AV::Ints({2, 2})}, {"auto_pad", AV::String("SAME_UPPER")}})));
  ExpectDnnlMatchesRef(make({1, 4, 8, 8}, {4, 4, 4, 4}, true, true,
                            Attrs({{"strides", AV::Ints({2, 2})}, {"pads", AV::Ints({1, 1, 1, 1})}})));
  // output_padding past the transposed extent gives bias-only outputs (a negative oneDNN pad): declined.
  ExpectDeclined(make({1, 2, 4, 4}, {2, 2, 3, 3}, true, true,
                      Attrs({{"strides", AV::Ints({2, 2})}, {"output_padding", AV::Ints({1, 1})}})));
}

// In plain slots (a ConvTranspose outside any convolution chain) the kernel runs oneDNN's direct deconvolution in its
// preferred layout behind reorders rather than the GEMM-based one plain layouts get.
TEST(DnnlConvTranspose, PlainSlotsRunADirectKernel) {
  std::mt19937 rng(6);
  const Case c("ConvTranspose",
               {RandomTensor({1, 32, 9, 7}, rng), RandomTensor({32, 16, 4, 4}, rng, -1, 1), RandomTensor({16}, rng)},
               {false, true, true}, Attrs({{"strides", AV::Ints({2, 2})}, {"pads", AV::Ints({1, 1, 1, 1})}}));
  ExpectDnnlMatchesRef(c);
  if (!__builtin_cpu_supports("avx2")) GTEST_SKIP() << "oneDNN's direct deconvolutions need AVX2";
  auto p = PrepareCase(c);
  ASSERT_TRUE(p.ok() && (*p)->kernel != nullptr);
  EXPECT_EQ(std::string((*p)->kernel->impl_name()).find("gemm"), std::string::npos) << (*p)->kernel->impl_name();
}

// [N, C, H, W] <-> the same values stored NHWC.
Tensor Nhwc(const Tensor& nchw, bool to_nhwc) {
  const Dims& d = nchw.dims();
  Tensor out = Tensor::Create(DataType::kFloat, d).value();
  const int64_t n = d[0], c = d[1], h = d[2], w = d[3];
  const float* src = nchw.data<float>();
  float* dst = out.data<float>();
  for (int64_t a = 0; a < n; ++a)
    for (int64_t ch = 0; ch < c; ++ch)
      for (int64_t y = 0; y < h; ++y)
        for (int64_t x = 0; x < w; ++x) {
          const int64_t plain = ((a * c + ch) * h + y) * w + x, nhwc = ((a * h + y) * w + x) * c + ch;
          if (to_nhwc) {
            dst[nhwc] = src[plain];
          } else {
            dst[plain] = src[nhwc];
          }
        }
  return out;
}

// Inside convolution chains ConvTranspose reads and writes the chain's NHWC activations.
TEST(DnnlConvTranspose, NhwcActivations) {
  std::mt19937 rng(6);
  for (const auto& [x, w, stride] : {std::tuple<Dims, Dims, int64_t>{{1, 32, 7, 9}, {32, 16, 2, 2}, 2},
                                     {{2, 8, 5, 5}, {8, 12, 4, 4}, 2},
                                     {{1, 5, 6, 6}, {5, 7, 3, 3}, 1}}) {
    Case c("ConvTranspose", {RandomTensor(x, rng), RandomTensor(w, rng, -1, 1), RandomTensor({w[1]}, rng)},
           {false, true, true}, Attrs({{"strides", AV::Ints({stride, stride})}}));
    auto want = RunRef(c);
    ASSERT_TRUE(want.ok()) << want.status().ToString();
    c.inputs[0] = Nhwc(c.inputs[0], true);
    c.input_formats = {Format::kNHWC};
    c.output_formats = {Format::kNHWC};
    auto p = PrepareCase(c);
    ASSERT_TRUE(p.ok()) << p.status().ToString();
    ASSERT_NE((*p)->kernel, nullptr);
    ASSERT_TRUE((*p)->Run().ok());
    ExpectNear(Nhwc((*p)->outputs[0], false), (*want)[0].tensor, 1e-4, CaseName(c));
  }
}

Case FusedConvCase(const std::string& act, std::vector<float> params, bool bias, bool sum, std::mt19937& rng,
                   const Dims& x = {1, 8, 9, 9}, const Dims& w = {8, 8, 3, 3}, int64_t group = 1) {
  ir::AttrMap a = Attrs({{"pads", AV::Ints({1, 1, 1, 1})}, {"group", AV::Int(group)}});
  if (!act.empty()) a.Set("activation", AV::String(act));
  if (!params.empty()) a.Set("activation_params", AV::Floats(params));
  std::vector<Tensor> in = {RandomTensor(x, rng), RandomTensor(w, rng, -0.5, 0.5)};
  in.push_back(bias ? RandomTensor({w[0]}, rng) : Tensor());
  if (sum) in.push_back(RandomTensor({x[0], w[0], x[2] + 3 - w[2], x[3] + 3 - w[3]}, rng));  // pads 1
  return Case("FusedConv", in, {false, true, true, false}, a, "ge");
}

TEST(DnnlFusedConv, EveryActivationWithBiasAndSum) {
  std::mt19937 rng(6);
  const std::vector<std::pair<std::string, std::vector<float>>> acts = {
      {"", {}},
      {"Relu", {}},
      {"LeakyRelu", {0.2f}},
      {"LeakyRelu", {}},
      {"Clip", {0, 6}},
      {"Clip", {}},
      {"Sigmoid", {}},
      {"Tanh", {}},
      {"HardSigmoid", {0.3f, 0.4f}},
      {"HardSigmoid", {}},
      {"HardSwish", {}},
      {"Elu", {0.7f}},
      {"Gelu", {}},
      {"Silu", {}},
  };
  for (const auto& [act, params] : acts) {
    for (bool sum : {false, true}) {
      SCOPED_TRACE(act + (sum ? " + sum" : ""));
      ExpectDnnlMatchesRef(FusedConvCase(act, params, true, sum, rng));
    }
  }
  ExpectDnnlMatchesRef(FusedConvCase("Relu", {}, false, true, rng));
  ExpectDnnlMatchesRef(FusedConvCase("Relu", {}, true, true, rng, {2, 16, 8, 8}, {16, 1, 3, 3}, 16));
  // 1x1: plain activations, the Sum copied into the output slot.
  ExpectDnnlMatchesRef(FusedConvCase("Relu", {}, true, true, rng, {1, 16, 5, 5}, {8, 16, 1, 1}));
  ExpectDnnlMatchesRef(FusedConvCase("HardSwish", {}, false, true, rng, {1, 16, 5, 5}, {8, 16, 1, 1}));
}

TEST(DnnlFusedConv, DeclinesBadActivations) {
  std::mt19937 rng(7);
  ExpectDeclined(FusedConvCase("Clip", {6, 0}, true, false, rng));  // min > max
}

TEST(DnnlFusedConv, SumAlreadyInTheOutputSlot) {
  std::mt19937 rng(8);
  // 3x3 runs on blocked activations (Sum reordered in), 1x1 on the plain slots (no copy: Sum is the destination).
  for (const Dims& w : {Dims{8, 8, 3, 3}, Dims{8, 8, 1, 1}}) {
    const Case c = FusedConvCase("Relu", {}, true, true, rng, {1, 8, 9, 9}, w);
    auto p = PrepareCase(c);
    ASSERT_TRUE(p.ok()) << p.status().ToString();
    ASSERT_NE((*p)->kernel, nullptr);
    // The planner put Y on Sum's buffer (in-place residual add).
    (*p)->binding->io.outputs[0] = (*p)->binding->io.inputs[3];
    ASSERT_TRUE((*p)->Run().ok());
    auto want = RunRef(c);
    ASSERT_TRUE(want.ok()) << want.status().ToString();
    ExpectNear((*p)->inputs[3], (*want)[0].tensor, 1e-4, std::string("in-place sum ") + (*p)->kernel->impl_name());
  }
}

TEST(DnnlConv, SlotsRepatchedBetweenRuns) {
  std::mt19937 rng(9);
  Case c = ConvCase({1, 4, 8, 8}, {6, 4, 3, 3}, true, true, Attrs({{"pads", AV::Ints({1, 1, 1, 1})}}), rng);
  auto p = PrepareCase(c);
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  ASSERT_NE((*p)->kernel, nullptr);
  for (int run = 0; run < 3; ++run) {
    // New input and output buffers each run, as zero-copy IO binds user buffers.
    c.inputs[0] = RandomTensor({1, 4, 8, 8}, rng);
    Tensor x = c.inputs[0].Clone().value();
    Tensor y = Tensor::Create(DataType::kFloat, {1, 6, 8, 8}).value();
    (*p)->binding->io.inputs[0] = x.raw_data();
    (*p)->binding->io.outputs[0] = y.raw_data();
    ASSERT_TRUE((*p)->Run().ok());
    auto want = RunRef(c);
    ASSERT_TRUE(want.ok());
    ExpectNear(y, (*want)[0].tensor, 1e-4, "run " + std::to_string(run));
  }
}

TEST(DnnlConv, RealThreadPoolAndTwoThreads) {
  std::mt19937 rng(10);
  auto pool = rt::ThreadPool::Create(2);
  ASSERT_TRUE(pool.ok());
  Case c = ConvCase({2, 16, 14, 14}, {32, 16, 3, 3}, true, true, Attrs({{"pads", AV::Ints({1, 1, 1, 1})}}), rng);
  c.threads = 2;
  ExpectDnnlMatchesRef(c, 1e-4, pool->get());
}

}  // namespace
}  // namespace ge::dnnl_kernels::testing

namespace ge::dnnl_kernels::testing {
namespace {

// A 1x1 stride-1 unpadded convolution (or FusedConv) over plain activations, x [N, C, spatial...] -> cout channels.
Case PointwiseCase(const Dims& x, int64_t cout, const std::string& act, bool bias, bool sum, bool const_w,
                   std::mt19937& rng) {
  Dims w = {cout, x[1]};
  Dims y = {x[0], cout};
  for (size_t i = 2; i < x.size(); ++i) {
    w.push_back(1);
    y.push_back(x[i]);
  }
  ir::AttrMap a;
  if (!act.empty()) a.Set("activation", AV::String(act));
  if (act == "Clip") a.Set("activation_params", AV::Floats({-0.5f, 0.5f}));
  std::vector<Tensor> in = {RandomTensor(x, rng), RandomTensor(w, rng, -0.5, 0.5)};
  in.push_back(bias ? RandomTensor({cout}, rng) : Tensor());
  const bool fused = sum || !act.empty();
  if (sum) in.push_back(RandomTensor(y, rng));
  if (!fused) return Case("Conv", in, {false, const_w, true}, a);
  return Case("FusedConv", in, {false, const_w, true, false}, a, "ge");
}

// Few input channels: W [Cout, Cin] times each image's [Cin, S] on oneDNN's brgemm matmul (bias a per-row binary
// post-op, then Sum and the activation; SiLU after the primitive), checked against ref; 128+ input channels stay on
// the convolution.
TEST(DnnlConv, PointwiseConvolutionsAsMatmul) {
  std::mt19937 rng(21);
  const bool avx512 = static_cast<int>(DnnlMaxIsaLevel()) >= static_cast<int>(IsaLevel::kX86_64_V4);
  const char* conv = avx512 ? "dnnl.conv(brg:" : "dnnl.";
  const char* fused = avx512 ? "dnnl.fused_conv(brg:" : "dnnl.";
  ExpectDnnlMatchesRef(PointwiseCase({8, 3, 1024}, 64, "", true, false, true, rng), 1e-4, nullptr, conv);  // PointNet
  ExpectDnnlMatchesRef(PointwiseCase({2, 64, 37}, 127, "", true, false, true, rng), 1e-4, nullptr, conv);
  ExpectDnnlMatchesRef(PointwiseCase({2, 5, 37}, 11, "", false, false, false, rng), 1e-4, nullptr, conv);
  ExpectDnnlMatchesRef(PointwiseCase({1, 16, 5, 7}, 8, "", true, false, true, rng), 1e-4, nullptr, conv);
  for (const char* act : {"Relu", "Clip", "HardSwish", "Silu"}) {
    SCOPED_TRACE(act);
    ExpectDnnlMatchesRef(PointwiseCase({3, 13, 29}, 24, act, true, false, true, rng), 1e-4, nullptr, fused);
    ExpectDnnlMatchesRef(PointwiseCase({1, 16, 5, 7}, 8, act, true, true, true, rng), 1e-4, nullptr, fused);
    ExpectDnnlMatchesRef(PointwiseCase({2, 7, 3, 4, 5}, 9, act, false, true, true, rng), 1e-4, nullptr, fused);
  }
  ExpectDnnlMatchesRef(PointwiseCase({2, 128, 50}, 32, "", true, false, true, rng), 1e-4, nullptr, "dnnl.conv(x64");
}

}  // namespace
}  // namespace ge::dnnl_kernels::testing
