// ge's im2col + packed SGEMM convolution against the reference convolution: NHWC in and out, windows 1x1 to 5x3,
// strides 1 and 2, pads (also uneven and SAME_UPPER), channel counts off the vector width and the 16-column panels,
// batch 2, bias, FusedConv's Sum, Relu and Clip, several chunks of pixels on a thread pool; and what it declines.
#include "kernels/exec/im2col_conv_kernel.h"

#include <gtest/gtest.h>

#include <cmath>

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
  int64_t k, kh, kw;
  std::vector<int64_t> strides, pads;
  bool bias, sum;
  Act act;
  const char* auto_pad = nullptr;
  bool sum_in_place = false;  // the Sum is Y's own buffer, as the planner runs residual adds
};

void Check(const Case& c, uint32_t seed, rt::IntraOpPool* pool = nullptr) {
  SCOPED_TRACE(DimsToString(c.x) + " k " + std::to_string(c.k) + " window " + std::to_string(c.kh) + "x" +
               std::to_string(c.kw) + " stride " + std::to_string(c.strides[0]));
  ir::AttrMap window;
  window.Set("strides", ir::AttrValue::Ints(c.strides));
  if (c.auto_pad != nullptr) {
    window.Set("auto_pad", ir::AttrValue::String(c.auto_pad));
  } else {
    window.Set("pads", ir::AttrValue::Ints(c.pads));
  }
  std::unique_ptr<NhwcConvTest> t = MakeNhwcConvTest(c.x, c.k, c.kh, c.kw, window, c.bias, c.sum, c.act, seed);
  ASSERT_NE(t, nullptr);
  const Tensor& want = t->want;
  const Tensor& ys = t->ys;
  const Tensor& ss = t->ss;
  std::unique_ptr<PreparedKernel> k = PrepareIm2colConvNhwc(t->request);
  ASSERT_NE(k, nullptr);
  EXPECT_STREQ(k->impl_name(), "exec.im2col_conv");
  std::unique_ptr<KernelBinding> binding = t->Bind(*k, c.sum_in_place);
  ASSERT_NE(binding, nullptr);
  rt::TaskContext ctx;
  ctx.pool = pool;
  for (int run = 0; run < 2; ++run) {  // a second run on the same binding (scratch reused) gives the same
    if (c.sum_in_place) {
      if (run == 1) break;  // the Sum was consumed
      ASSERT_TRUE(k->fn()(binding.get(), ctx).ok());
      EXPECT_TRUE(TensorsMatch(PermuteNchwNhwc(ss, false), want, Tolerance{1e-4, 1e-5})) << "in place";
      continue;
    }
    ASSERT_TRUE(k->fn()(binding.get(), ctx).ok());
    // The same products as the direct convolution, summed in another order.
    EXPECT_TRUE(TensorsMatch(PermuteNchwNhwc(ys, false), want, Tolerance{1e-4, 1e-5})) << "run " << run;
  }
}

TEST(Im2colConv, MatchesTheDirectConvolution) {
  if (!PackedGemmAvailable()) GTEST_SKIP() << "no AVX2 + FMA";
  const Case cases[] = {
      {{1, 16, 8, 8}, 16, 3, 3, {1, 1}, {1, 1, 1, 1}, false, false, Act::kNone},
      {{1, 13, 7, 9}, 20, 3, 3, {2, 2}, {1, 1, 1, 1}, true, false, Act::kRelu},  // stride 2, channel tails
      {{2, 32, 5, 6}, 33, 3, 3, {1, 1}, {1, 1, 1, 1}, true, true, Act::kRelu},   // batch 2, Sum, a 1-column panel
      {{1, 8, 1, 1}, 8, 3, 3, {1, 1}, {1, 1, 1, 1}, true, false, Act::kClip},    // one pixel, all padding around
      {{1, 24, 11, 6}, 16, 5, 3, {2, 1}, {2, 0, 1, 2}, false, true, Act::kClip},  // uneven window, strides, pads
      {{1, 3, 9, 10}, 5, 1, 1, {1, 1}, {0, 0, 0, 0}, true, false, Act::kNone},  // 1x1
      {{1, 16, 9, 9}, 24, 3, 3, {2, 2}, {}, true, false, Act::kNone, "SAME_UPPER"},
      {{2, 32, 7, 7}, 32, 3, 3, {1, 1}, {1, 1, 1, 1}, true, true, Act::kRelu, nullptr, true},  // Sum in place
  };
  uint32_t seed = 1;
  for (const Case& c : cases) Check(c, seed += 10);
}

// ResNet-50 shapes: more pixels than one chunk (~2 MB of patch rows), units split over a thread pool.
TEST(Im2colConv, ChunksOfPixelsOnAThreadPool) {
  if (!PackedGemmAvailable()) GTEST_SKIP() << "no AVX2 + FMA";
  auto pool = rt::ThreadPool::Create(3, rt::PoolBackend::kThreads);
  ASSERT_TRUE(pool.ok());
  Check({{1, 128, 56, 56}, 128, 3, 3, {2, 2}, {1, 1, 1, 1}, true, false, Act::kRelu}, 7, pool->get());
  Check({{2, 96, 7, 7}, 100, 3, 3, {1, 1}, {1, 1, 1, 1}, true, true, Act::kRelu}, 8, pool->get());
}

// Relu (on the packed GEMM's store) and Clip keep NaN as the reference kernels do: a NaN bias makes its channels NaN
// at every pixel, the other channels stay finite.
TEST(Im2colConv, ReluAndClipKeepNaNAsTheReference) {
  if (!PackedGemmAvailable()) GTEST_SKIP() << "no AVX2 + FMA";
  for (Act act : {Act::kRelu, Act::kClip}) {
    ir::AttrMap window;
    window.Set("strides", ir::AttrValue::Ints({1, 1}));
    window.Set("pads", ir::AttrValue::Ints({1, 1, 1, 1}));
    std::unique_ptr<NhwcConvTest> t = MakeNhwcConvTest({1, 16, 6, 6}, 16, 3, 3, window, true, false, act, 3);
    ASSERT_NE(t, nullptr);
    const int64_t nan_channels[] = {2, 9};  // one in each half of a 16-column panel
    for (int64_t c : nan_channels) t->b.data<float>()[c] = std::nanf("");
    std::unique_ptr<PreparedKernel> k = PrepareIm2colConvNhwc(t->request);
    ASSERT_NE(k, nullptr);
    std::unique_ptr<KernelBinding> binding = t->Bind(*k);
    ASSERT_NE(binding, nullptr);
    rt::TaskContext ctx;
    ASSERT_TRUE(k->fn()(binding.get(), ctx).ok());
    const float* y = t->ys.data<float>();  // NHWC
    for (int64_t p = 0; p < 36; ++p) {
      for (int64_t c = 0; c < 16; ++c) {
        const float v = y[p * 16 + c];
        if (c == nan_channels[0] || c == nan_channels[1]) {
          ASSERT_TRUE(std::isnan(v)) << "pixel " << p << " channel " << c << ": " << v
                                     << (act == Act::kRelu ? " (Relu)" : " (Clip)");
        } else {
          ASSERT_TRUE(std::isfinite(v)) << "pixel " << p << " channel " << c;
        }
      }
    }
  }
}

TEST(Im2colConv, Declines) {
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
  EXPECT_EQ(PrepareIm2colConvNhwc(r), nullptr);  // plain NCHW
  r.input_descs[0] = NhwcDesc({1, 8, 6, 6});
  r.output_descs[0] = NhwcDesc({1, 8, 6, 6});
  if (PackedGemmAvailable()) {
    EXPECT_NE(PrepareIm2colConvNhwc(r), nullptr);
  }
  r.allow_bf16 = true;
  EXPECT_EQ(PrepareIm2colConvNhwc(r), nullptr);  // bfloat16 allowed
  r.allow_bf16 = false;
  node->attrs().Set("dilations", ir::AttrValue::Ints({2, 2}));
  r.output_descs[0] = NhwcDesc({1, 8, 4, 4});
  EXPECT_EQ(PrepareIm2colConvNhwc(r), nullptr);  // dilated
  node->attrs().Erase("dilations");
  r.output_descs[0] = NhwcDesc({1, 8, 6, 6});
  r.const_inputs[1] = nullptr;
  EXPECT_EQ(PrepareIm2colConvNhwc(r), nullptr);  // weights not constant
  r.const_inputs[1] = &w;
  r.max_isa = IsaLevel::kX86_64_V2;
  EXPECT_EQ(PrepareIm2colConvNhwc(r), nullptr);  // a target without AVX2
}

}  // namespace
}  // namespace ge::exec::testing
