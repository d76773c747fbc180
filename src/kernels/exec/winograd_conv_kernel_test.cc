// ge's Winograd F(4x4, 3x3) kernel against the reference convolution: NHWC in and out, odd sizes (partial tiles),
// pads 0-2 (also uneven and SAME_UPPER), channel counts off the vector width and the 16-column panels, batch 2,
// bias, FusedConv's Sum, Relu and Clip, chunks of tiles (large images) and a thread pool; what it declines, and
// where it does not pay.
#include "kernels/exec/winograd_conv_kernel.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <random>

#include "base/testing/expect_match.h"
#include "kernels/exec/nhwc_conv_test_util.h"
#include "kernels/exec/packed_gemm.h"
#include "kernels/ref/families.h"
#include "kernels/ref/testing/op_tester.h"
#include "ops/families.h"

namespace ge::exec::testing {
namespace {

using Act = ConvAct;

struct Case {
  Dims x;
  int64_t k;
  bool bias, sum;
  Act act;
  std::vector<int64_t> pads = {1, 1, 1, 1};
  const char* auto_pad = nullptr;
};

void Check(const Case& c, uint32_t seed, rt::IntraOpPool* pool = nullptr) {
  ir::AttrMap window;
  if (c.auto_pad != nullptr) {
    window.Set("auto_pad", ir::AttrValue::String(c.auto_pad));
  } else {
    window.Set("pads", ir::AttrValue::Ints(c.pads));
  }
  std::unique_ptr<NhwcConvTest> t = MakeNhwcConvTest(c.x, c.k, 3, 3, window, c.bias, c.sum, c.act, seed);
  ASSERT_NE(t, nullptr);
  const Tensor& want = t->want;
  const Tensor& ys = t->ys;
  std::unique_ptr<PreparedKernel> k = PrepareWinogradConvNhwc(t->request, WinogradPolicy::kWhereSupported);
  ASSERT_NE(k, nullptr);
  EXPECT_STREQ(k->impl_name(), "exec.winograd_conv");
  std::unique_ptr<KernelBinding> binding = t->Bind(*k);
  ASSERT_NE(binding, nullptr);
  rt::TaskContext ctx;
  ctx.pool = pool;
  for (int run = 0; run < 2; ++run) {  // a second run on the same binding (scratch reused) gives the same
    ASSERT_TRUE(k->fn()(binding.get(), ctx).ok());
    // F(4, 3)'s transforms scale values by up to 10x and back: elementwise errors reach ~1e-4 of sums over up to
    // 9 x 128 products of [-1, 1) values (|y| up to ~15), while the relative L2 error stays ~1e-6.
    const Tensor got = PermuteNchwNhwc(ys, false);
    EXPECT_TRUE(TensorsMatch(got, want, Tolerance{5e-4, 1e-4})) << DimsToString(c.x) << " k " << c.k << " run " << run;
    double diff = 0, norm = 0;
    for (int64_t i = 0; i < want.numel(); ++i) {
      const double d = static_cast<double>(got.data<float>()[i]) - want.data<float>()[i];
      diff += d * d;
      norm += static_cast<double>(want.data<float>()[i]) * want.data<float>()[i];
    }
    EXPECT_LE(std::sqrt(diff / std::max(norm, 1e-30)), 1e-5) << DimsToString(c.x) << " k " << c.k;
    if (run == 0) std::printf("%s k %lld: relative L2 error %.2e\n", DimsToString(c.x).c_str(),
                              static_cast<long long>(c.k), std::sqrt(diff / std::max(norm, 1e-30)));
  }
}

TEST(WinogradConv, MatchesTheDirectConvolution) {
  if (!WinogradConvAvailable(IsaLevel::kNone)) GTEST_SKIP() << "no AVX2 + FMA";
  const Case cases[] = {
      {{1, 16, 8, 8}, 16, false, false, Act::kNone},
      {{1, 13, 7, 9}, 20, true, false, Act::kNone},   // channel tails, partial tiles
      {{2, 32, 5, 6}, 33, true, true, Act::kRelu},    // batch 2, a 1-column panel
      {{1, 8, 1, 1}, 8, true, false, Act::kRelu},     // one pixel
      {{1, 64, 14, 14}, 64, true, true, Act::kClip},
      {{1, 3, 9, 10}, 5, true, false, Act::kNone, {0, 0, 0, 0}},  // no padding
      {{1, 24, 11, 6}, 16, false, true, Act::kRelu, {2, 0, 1, 2}},  // uneven pads up to 2
      {{1, 16, 9, 9}, 24, true, false, Act::kNone, {}, "SAME_UPPER"},
  };
  uint32_t seed = 1;
  for (const Case& c : cases) Check(c, seed += 10);
}

// Larger than one chunk of tiles (the scratch holds ~2 MB of them), with the tiles split over a thread pool.
TEST(WinogradConv, ChunksOfTilesOnAThreadPool) {
  if (!WinogradConvAvailable(IsaLevel::kNone)) GTEST_SKIP() << "no AVX2 + FMA";
  auto pool = rt::ThreadPool::Create(3, rt::PoolBackend::kThreads);
  ASSERT_TRUE(pool.ok());
  Check({{2, 64, 56, 57}, 64, true, true, Act::kRelu}, 7, pool->get());
  Check({{1, 128, 28, 28}, 120, true, false, Act::kNone}, 8, pool->get());
}

// Relu and Clip keep NaN as the reference kernels do (Relu(NaN) = Clip(NaN) = NaN): a NaN bias makes its channel
// NaN at every pixel, the other channels stay finite.
TEST(WinogradConv, ReluAndClipKeepNaNAsTheReference) {
  if (!WinogradConvAvailable(IsaLevel::kNone)) GTEST_SKIP() << "no AVX2 + FMA";
  for (Act act : {Act::kRelu, Act::kClip}) {
    ir::AttrMap window;
    window.Set("pads", ir::AttrValue::Ints({1, 1, 1, 1}));
    std::unique_ptr<NhwcConvTest> t = MakeNhwcConvTest({1, 16, 8, 8}, 16, 3, 3, window, true, false, act, 3);
    ASSERT_NE(t, nullptr);
    const int64_t nan_channel = 5;
    t->b.data<float>()[nan_channel] = std::nanf("");
    std::unique_ptr<PreparedKernel> k = PrepareWinogradConvNhwc(t->request, WinogradPolicy::kWhereSupported);
    ASSERT_NE(k, nullptr);
    std::unique_ptr<KernelBinding> binding = t->Bind(*k);
    ASSERT_NE(binding, nullptr);
    rt::TaskContext ctx;
    ASSERT_TRUE(k->fn()(binding.get(), ctx).ok());
    const float* y = t->ys.data<float>();  // NHWC
    for (int64_t p = 0; p < 64; ++p) {
      for (int64_t c = 0; c < 16; ++c) {
        const float v = y[p * 16 + c];
        if (c == nan_channel) {
          ASSERT_TRUE(std::isnan(v)) << "pixel " << p << ": " << v << (act == Act::kRelu ? " (Relu)" : " (Clip)");
        } else {
          ASSERT_TRUE(std::isfinite(v)) << "pixel " << p << " channel " << c;
        }
      }
    }
  }
}

TEST(WinogradConv, Declines) {
  Tensor w = RandomUnit({8, 8, 3, 3}, 1);
  ir::Graph g("g");
  TensorDesc plain(DataType::kFloat, Shape({1, 8, 6, 6}));
  PrepareRequest r;
  r.input_descs = {plain, TensorDesc(DataType::kFloat, Shape(w.dims()))};
  r.const_inputs = {nullptr, &w};
  r.output_descs = {plain};
  ir::Node* node = g.AddNode("Conv", "conv", {g.AddInput("x", plain), g.AddConstant("w", w)}, {g.AddValue("y", plain)});
  node->attrs().Set("pads", ir::AttrValue::Ints({1, 1, 1, 1}));
  r.node = node;
  const auto any = WinogradPolicy::kWhereSupported;
  EXPECT_EQ(PrepareWinogradConvNhwc(r, any), nullptr);  // plain NCHW
  TensorDesc nhwc = plain;
  nhwc.format = Format::kNHWC;
  r.input_descs[0] = r.output_descs[0] = nhwc;
  if (WinogradConvAvailable(IsaLevel::kNone)) {
    EXPECT_NE(PrepareWinogradConvNhwc(r, any), nullptr);
    EXPECT_EQ(PrepareWinogradConvNhwc(r), nullptr);  // 8 channels, 4 tiles: the transforms would not pay
  }
  r.max_isa = IsaLevel::kX86_64_V2;
  EXPECT_EQ(PrepareWinogradConvNhwc(r, any), nullptr);  // the target has no AVX2
  r.max_isa = IsaLevel::kNone;
  r.allow_bf16 = true;
  EXPECT_EQ(PrepareWinogradConvNhwc(r, any), nullptr);
  r.allow_bf16 = false;
  node->attrs().Set("strides", ir::AttrValue::Ints({2, 2}));
  EXPECT_EQ(PrepareWinogradConvNhwc(r, any), nullptr);
  node->attrs().Erase("strides");
  node->attrs().Set("dilations", ir::AttrValue::Ints({2, 2}));
  EXPECT_EQ(PrepareWinogradConvNhwc(r, any), nullptr);
  node->attrs().Erase("dilations");
  node->attrs().Set("group", ir::AttrValue::Int(2));
  EXPECT_EQ(PrepareWinogradConvNhwc(r, any), nullptr);
  node->attrs().Erase("group");
  r.const_inputs[1] = nullptr;  // weights that are not constant
  EXPECT_EQ(PrepareWinogradConvNhwc(r, any), nullptr);
}

// ResNet stages at 56x56, 28x28 and 14x14 are where it pays; at 7x7 reading the transformed weights costs more.
TEST(WinogradConv, PaysOnResNetStagesDownTo14x14) {
  if (!WinogradConvAvailable(IsaLevel::kNone)) GTEST_SKIP() << "no AVX2 + FMA";
  for (int64_t side : {56, 28, 14, 7}) {
    Tensor w = RandomUnit({64, 64, 3, 3}, 1);
    ir::Graph g("g");
    TensorDesc x(DataType::kFloat, Shape({1, 64, side, side}));
    x.format = Format::kNHWC;
    PrepareRequest r;
    r.input_descs = {x, TensorDesc(DataType::kFloat, Shape(w.dims()))};
    r.const_inputs = {nullptr, &w};
    r.output_descs = {x};
    ir::Node* node = g.AddNode("Conv", "conv", {g.AddInput("x", x), g.AddConstant("w", w)}, {g.AddValue("y", x)});
    node->attrs().Set("pads", ir::AttrValue::Ints({1, 1, 1, 1}));
    r.node = node;
    EXPECT_EQ(PrepareWinogradConvNhwc(r) != nullptr, side >= 14) << side;
  }
}

}  // namespace
}  // namespace ge::exec::testing
