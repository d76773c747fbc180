#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "kernels/ref/families.h"
#include "kernels/ref/testing/op_tester.h"
#include "ops/families.h"

namespace ge::ref::nn {
namespace {

using ge::ref::testing::OpTester;

OpTester Tester() { return OpTester(ge::ops::RegisterNnOps, ge::ref::RegisterNnRefKernels); }

std::vector<float> Iota(int n, float start = 0) {
  std::vector<float> v(n);
  for (int i = 0; i < n; ++i) v[i] = start + i;
  return v;
}

// Straightforward 2-D convolution used as an oracle.
std::vector<float> NaiveConv2d(const std::vector<float>& x, const std::vector<float>& w, const std::vector<float>& b,
                               int n, int c, int h, int wd, int m, int g, int kh, int kw, int sh, int sw, int dh,
                               int dw, int pt, int pl, int oh, int ow) {
  std::vector<float> y(n * m * oh * ow, 0.f);
  int cg = c / g, mg = m / g;
  for (int ni = 0; ni < n; ++ni)
    for (int mi = 0; mi < m; ++mi)
      for (int yo = 0; yo < oh; ++yo)
        for (int xo = 0; xo < ow; ++xo) {
          double acc = b.empty() ? 0 : b[mi];
          int gi = mi / mg;
          for (int ci = 0; ci < cg; ++ci)
            for (int a = 0; a < kh; ++a)
              for (int bb = 0; bb < kw; ++bb) {
                int iy = yo * sh - pt + a * dh, ix = xo * sw - pl + bb * dw;
                if (iy < 0 || iy >= h || ix < 0 || ix >= wd) continue;
                acc += x[((ni * c + gi * cg + ci) * h + iy) * wd + ix] * w[((mi * cg + ci) * kh + a) * kw + bb];
              }
          y[((ni * m + mi) * oh + yo) * ow + xo] = static_cast<float>(acc);
        }
  (void)mg;
  return y;
}

TEST(NnConv, OnnxBasicWithAndWithoutPadding) {
  auto t = Tester();
  Tensor x = Tensor::FromVector<float>(Iota(25), {1, 1, 5, 5});
  Tensor w = Tensor::FromVector<float>(std::vector<float>(9, 1.f), {1, 1, 3, 3});
  ir::AttrMap a;
  a.Set("kernel_shape", ir::AttrValue::Ints({3, 3}));
  a.Set("pads", ir::AttrValue::Ints({1, 1, 1, 1}));
  auto y = t.Run1("Conv", {x, w}, a);
  ASSERT_TRUE(y.ok()) << y.status().ToString();
  Tensor want = Tensor::FromVector<float>({12, 21, 27, 33, 24, 33, 54, 63, 72, 51, 63, 99, 108, 117, 81,
                                           93, 144, 153, 162, 111, 72, 111, 117, 123, 84}, {1, 1, 5, 5});
  EXPECT_TRUE(TensorsMatch(*y, want, 0.0));
  a.Set("pads", ir::AttrValue::Ints({0, 0, 0, 0}));
  y = t.Run1("Conv", {x, w}, a);
  ASSERT_TRUE(y.ok());
  EXPECT_TRUE(TensorsMatch(*y, Tensor::FromVector<float>({54, 63, 72, 99, 108, 117, 144, 153, 162}, {1, 1, 3, 3}), 0.0));
}

TEST(NnConv, StridesAsymmetricPaddingAndAutoPad) {
  auto t = Tester();
  Tensor x = Tensor::FromVector<float>(Iota(35), {1, 1, 7, 5});
  Tensor w = Tensor::FromVector<float>(std::vector<float>(9, 1.f), {1, 1, 3, 3});
  ir::AttrMap a;
  a.Set("strides", ir::AttrValue::Ints({2, 2}));
  a.Set("pads", ir::AttrValue::Ints({1, 0, 1, 0}));
  auto y = t.Run1("Conv", {x, w}, a);
  ASSERT_TRUE(y.ok()) << y.status().ToString();
  EXPECT_TRUE(TensorsMatch(*y, Tensor::FromVector<float>({21, 33, 99, 117, 189, 207, 171, 183}, {1, 1, 4, 2}), 0.0));
  ir::AttrMap s;
  s.Set("auto_pad", ir::AttrValue::String("SAME_LOWER"));
  s.Set("strides", ir::AttrValue::Ints({2, 2}));
  Tensor x5 = Tensor::FromVector<float>(Iota(25), {1, 1, 5, 5});
  y = t.Run1("Conv", {x5, w}, s);
  ASSERT_TRUE(y.ok());
  EXPECT_TRUE(TensorsMatch(*y, Tensor::FromVector<float>({12, 27, 24, 63, 108, 81, 72, 117, 84}, {1, 1, 3, 3}), 0.0));
}

TEST(NnConv, GroupsDilationsBiasMatchNaive) {
  auto t = Tester();
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u(-1, 1);
  const int n = 2, c = 6, h = 9, wd = 11, m = 4, g = 2, kh = 3, kw = 2;
  std::vector<float> xv(n * c * h * wd), wv(m * (c / g) * kh * kw), bv(m);
  for (auto* v : {&xv, &wv, &bv})
    for (float& e : *v) e = u(rng);
  ir::AttrMap a;
  a.Set("group", ir::AttrValue::Int(g));
  a.Set("strides", ir::AttrValue::Ints({2, 1}));
  a.Set("dilations", ir::AttrValue::Ints({2, 3}));
  a.Set("pads", ir::AttrValue::Ints({1, 2, 0, 1}));
  auto y = t.Run1("Conv", {Tensor::FromVector(xv, {n, c, h, wd}), Tensor::FromVector(wv, {m, c / g, kh, kw}),
                           Tensor::FromVector(bv, {m})}, a);
  ASSERT_TRUE(y.ok()) << y.status().ToString();
  const int oh = (h + 1 - 5) / 2 + 1, ow = (wd + 3 - 4) / 1 + 1;
  ASSERT_EQ(y->dims(), (Dims{n, m, oh, ow}));
  auto want = NaiveConv2d(xv, wv, bv, n, c, h, wd, m, g, kh, kw, 2, 1, 2, 3, 1, 2, oh, ow);
  EXPECT_TRUE(TensorsMatch(*y, Tensor::FromVector(want, {n, m, oh, ow}), 1e-5));
}

TEST(NnConv, DepthwiseAnd1DAnd3D) {
  auto t = Tester();
  // Depthwise: each channel convolved with its own 1x1 weight.
  Tensor x = Tensor::FromVector<float>(Iota(8), {1, 2, 2, 2});
  Tensor w = Tensor::FromVector<float>({2, -1}, {2, 1, 1, 1});
  ir::AttrMap a;
  a.Set("group", ir::AttrValue::Int(2));
  auto y = t.Run1("Conv", {x, w}, a);
  ASSERT_TRUE(y.ok());
  EXPECT_TRUE(TensorsMatch(*y, Tensor::FromVector<float>({0, 2, 4, 6, -4, -5, -6, -7}, {1, 2, 2, 2}), 0.0));
  // 1-D
  auto y1 = t.Run1("Conv", {Tensor::FromVector<float>({1, 2, 3, 4}, {1, 1, 4}), Tensor::FromVector<float>({1, 1}, {1, 1, 2})});
  ASSERT_TRUE(y1.ok());
  EXPECT_TRUE(TensorsMatch(*y1, Tensor::FromVector<float>({3, 5, 7}, {1, 1, 3}), 0.0));
  // 3-D all-ones kernel 2x2x2 over a 2x2x2 cube of 0..7 sums to 28.
  auto y3 = t.Run1("Conv", {Tensor::FromVector<float>(Iota(8), {1, 1, 2, 2, 2}),
                            Tensor::FromVector<float>(std::vector<float>(8, 1.f), {1, 1, 2, 2, 2})});
  ASSERT_TRUE(y3.ok());
  EXPECT_TRUE(TensorsMatch(*y3, Tensor::FromVector<float>({28}, {1, 1, 1, 1, 1}), 0.0));
}

TEST(NnConv, DoubleAndHalf) {
  auto t = Tester();
  auto yd = t.Run1("Conv", {Tensor::FromVector<double>({1, 2, 3, 4}, {1, 1, 2, 2}),
                            Tensor::FromVector<double>({1, 1, 1, 1}, {1, 1, 2, 2})});
  ASSERT_TRUE(yd.ok());
  EXPECT_EQ(yd->dtype(), DataType::kDouble);
  EXPECT_EQ(yd->data<double>()[0], 10.0);
  std::vector<float16> xh = {float16(1.f), float16(2.f), float16(3.f), float16(4.f)};
  std::vector<float16> wh = {float16(0.5f), float16(0.5f), float16(0.5f), float16(0.5f)};
  auto yh = t.Run1("Conv", {Tensor::FromVector(xh, {1, 1, 2, 2}), Tensor::FromVector(wh, {1, 1, 2, 2})});
  ASSERT_TRUE(yh.ok());
  EXPECT_EQ(yh->dtype(), DataType::kFloat16);
  EXPECT_EQ(static_cast<float>(yh->data<float16>()[0]), 5.0f);
}

TEST(NnConv, BadInputsAreErrors) {
  auto t = Tester();
  Tensor x = Tensor::FromVector<float>(Iota(8), {1, 2, 2, 2});
  EXPECT_FALSE(t.Run1("Conv", {x, Tensor::FromVector<float>({1, 1, 1}, {1, 3, 1, 1})}).ok());  // channel mismatch
  EXPECT_FALSE(t.Run1("Conv", {x, Tensor::FromVector<float>(Iota(18), {1, 2, 3, 3})}).ok());   // kernel > input
  ir::AttrMap a;
  a.Set("auto_pad", ir::AttrValue::String("SAME"));
  EXPECT_FALSE(t.Run1("Conv", {x, Tensor::FromVector<float>({1, 1}, {1, 2, 1, 1})}, a).ok());
}

TEST(NnConv, InferenceWithUnknownDims) {
  auto t = Tester();
  const ops::OpSchema* s = t.op_registry().Find("", "Conv");
  ASSERT_NE(s, nullptr);
  ir::AttrMap a;
  a.Set("strides", ir::AttrValue::Ints({2, 2}));
  a.Set("pads", ir::AttrValue::Ints({1, 1, 1, 1}));
  Shape xs({kUnknownDim, 3, kUnknownDim, 224});
  xs.set_symbol(0, "batch");
  TensorDesc x(DataType::kFloat, xs), w(DataType::kFloat, Shape({64, 3, 3, 3}));
  ops::InferContext ctx;
  ctx.attrs = &a;
  ctx.op_type = "Conv";
  ctx.inputs = {&x, &w};
  ctx.input_values = {nullptr, nullptr};
  ctx.outputs.resize(1);
  ASSERT_TRUE(ops::RunInference(*s, ctx).ok());
  EXPECT_EQ(ctx.outputs[0].shape.dims(), (Dims{kUnknownDim, 64, kUnknownDim, 112}));
  EXPECT_EQ(ctx.outputs[0].shape.symbol(0), "batch");
  TensorDesc xu(DataType::kFloat, Shape::UnknownRank()), wu(DataType::kFloat, Shape::UnknownRank());
  ctx.inputs = {&xu, &wu};
  ASSERT_TRUE(ops::RunInference(*s, ctx).ok());
  EXPECT_TRUE(ctx.outputs[0].shape.unknown_rank());
}

TEST(NnConvTranspose, OnnxExamples) {
  auto t = Tester();
  Tensor x = Tensor::FromVector<float>(Iota(9), {1, 1, 3, 3});
  Tensor w = Tensor::FromVector<float>(std::vector<float>(18, 1.f), {1, 2, 3, 3});
  auto y = t.Run1("ConvTranspose", {x, w});
  ASSERT_TRUE(y.ok()) << y.status().ToString();
  std::vector<float> plane = {0, 1, 3, 3, 2, 3, 8, 15, 12, 7, 9, 21, 36, 27, 15, 9, 20, 33, 24, 13, 6, 13, 21, 15, 8};
  std::vector<float> both = plane;
  both.insert(both.end(), plane.begin(), plane.end());
  EXPECT_TRUE(TensorsMatch(*y, Tensor::FromVector(both, {1, 2, 5, 5}), 0.0));
  // pads with strides
  ir::AttrMap a;
  a.Set("strides", ir::AttrValue::Ints({3, 2}));
  a.Set("pads", ir::AttrValue::Ints({1, 2, 1, 2}));
  y = t.Run1("ConvTranspose", {x, w}, a);
  ASSERT_TRUE(y.ok());
  std::vector<float> p2 = {1, 1, 3, 1, 1, 3, 7, 4, 9, 7, 4, 9, 7, 4, 9, 13, 7, 15, 13, 7, 15};
  std::vector<float> b2 = p2;
  b2.insert(b2.end(), p2.begin(), p2.end());
  EXPECT_TRUE(TensorsMatch(*y, Tensor::FromVector(b2, {1, 2, 7, 3}), 0.0));
  // dilations
  ir::AttrMap d;
  d.Set("dilations", ir::AttrValue::Ints({2, 2}));
  y = t.Run1("ConvTranspose", {Tensor::FromVector<float>({3, 8, 1, 9, 5, 7, 3, 2, 6}, {1, 1, 3, 3}),
                               Tensor::FromVector<float>({7, 2, 1, 9}, {1, 1, 2, 2})}, d);
  ASSERT_TRUE(y.ok());
  EXPECT_TRUE(TensorsMatch(*y, Tensor::FromVector<float>({21, 56, 13, 16, 2, 63, 35, 67, 10, 14, 24, 22, 76, 76, 21,
                                                      9, 5, 88, 45, 63, 3, 2, 33, 18, 54}, {1, 1, 5, 5}), 0.0));
}

TEST(NnConvTranspose, OutputShapeAndAutoPad) {
  auto t = Tester();
  Tensor x = Tensor::FromVector<float>(Iota(9), {1, 1, 3, 3});
  Tensor w = Tensor::FromVector<float>(std::vector<float>(18, 1.f), {1, 2, 3, 3});
  ir::AttrMap a;
  a.Set("strides", ir::AttrValue::Ints({3, 2}));
  a.Set("output_shape", ir::AttrValue::Ints({10, 8}));
  auto y = t.Run1("ConvTranspose", {x, w}, a);
  ASSERT_TRUE(y.ok()) << y.status().ToString();
  ASSERT_EQ(y->dims(), (Dims{1, 2, 10, 8}));
  const float* d = y->data<float>();
  std::vector<float> row0 = {0, 0, 1, 1, 3, 2, 2, 0};
  for (int i = 0; i < 8; ++i) EXPECT_EQ(d[i], row0[i]);
  for (int i = 0; i < 8; ++i) EXPECT_EQ(d[9 * 8 + i], 0.f);
  ir::AttrMap s;
  s.Set("auto_pad", ir::AttrValue::String("SAME_UPPER"));
  s.Set("strides", ir::AttrValue::Ints({2, 2}));
  y = t.Run1("ConvTranspose", {x, w}, s);
  ASSERT_TRUE(y.ok());
  ASSERT_EQ(y->dims(), (Dims{1, 2, 6, 6}));
  std::vector<float> r2 = {3, 3, 8, 5, 12, 7};
  for (int i = 0; i < 6; ++i) EXPECT_EQ(y->data<float>()[12 + i], r2[i]);
  // group and bias: two groups of one channel each.
  ir::AttrMap g;
  g.Set("group", ir::AttrValue::Int(2));
  y = t.Run1("ConvTranspose", {Tensor::FromVector<float>({1, 2}, {1, 2, 1, 1}), Tensor::FromVector<float>({3, 4}, {2, 1, 1, 1}),
                               Tensor::FromVector<float>({10, 20}, {2})}, g);
  ASSERT_TRUE(y.ok());
  EXPECT_TRUE(TensorsMatch(*y, Tensor::FromVector<float>({13, 28}, {1, 2, 1, 1}), 0.0));
  EXPECT_FALSE(t.Run1("ConvTranspose", {x, Tensor::FromVector<float>(Iota(4), {2, 2, 1, 1})}).ok());
}

TEST(NnConvInteger, OnnxExamples) {
  auto t = Tester();
  std::vector<uint8_t> xv = {2, 3, 4, 5, 6, 7, 8, 9, 10};
  Tensor x = Tensor::FromVector(xv, {1, 1, 3, 3});
  Tensor w = Tensor::FromVector<uint8_t>({1, 1, 1, 1}, {1, 1, 2, 2});
  Tensor zp = Tensor::Scalar<uint8_t>(1);
  auto y = t.Run1("ConvInteger", {x, w, zp});
  ASSERT_TRUE(y.ok()) << y.status().ToString();
  EXPECT_TRUE(TensorsMatch(*y, Tensor::FromVector<int32_t>({12, 16, 24, 28}, {1, 1, 2, 2}), 0.0));
  ir::AttrMap a;
  a.Set("pads", ir::AttrValue::Ints({1, 1, 1, 1}));
  y = t.Run1("ConvInteger", {x, w, zp}, a);
  ASSERT_TRUE(y.ok());
  EXPECT_TRUE(TensorsMatch(*y, Tensor::FromVector<int32_t>({1, 3, 5, 3, 5, 12, 16, 9, 11, 24, 28, 15, 7, 15, 17, 9}, {1, 1, 4, 4}), 0.0));
  EXPECT_FALSE(t.Run1("ConvInteger", {Tensor::FromVector<float>({1}, {1, 1, 1, 1}), w}).ok());
}

TEST(NnQLinearConv, RequantizesWithPerChannelScale) {
  auto t = Tester();
  // x - 10 = [1, 2, 3, 4]; w - 0 = per channel [1,1,1,1] and [2,2,2,2]; sums 10 and 20.
  Tensor x = Tensor::FromVector<uint8_t>({11, 12, 13, 14}, {1, 1, 2, 2});
  Tensor w = Tensor::FromVector<int8_t>({1, 1, 1, 1, 2, 2, 2, 2}, {2, 1, 2, 2});
  auto y = t.Run1("QLinearConv", {x, Tensor::Scalar<float>(0.5f), Tensor::Scalar<uint8_t>(10), w,
                                  Tensor::FromVector<float>({1.f, 0.25f}, {2}), Tensor::Scalar<int8_t>(0),
                                  Tensor::Scalar<float>(1.f), Tensor::Scalar<uint8_t>(100),
                                  Tensor::FromVector<int32_t>({1, -4}, {2})});
  ASSERT_TRUE(y.ok()) << y.status().ToString();
  // ch0: (10 + 1) * 0.5 = 5.5 -> 6 (half to even) + 100; ch1: (20 - 4) * 0.125 = 2 + 100.
  EXPECT_TRUE(TensorsMatch(*y, Tensor::FromVector<uint8_t>({106, 102}, {1, 2, 1, 1}), 0.0));
}

}  // namespace
}  // namespace ge::ref::nn
