#include <gtest/gtest.h>

#include <cmath>

#include "kernels/ref/families.h"
#include "kernels/ref/testing/op_tester.h"
#include "ops/families.h"

namespace ge::ref {
namespace {

using testing::OpTester;

OpTester Tester() { return OpTester(ops::RegisterMathOps, RegisterMathRefKernels); }
double Sig(double x) { return 1.0 / (1.0 + std::exp(-x)); }

ir::AttrMap Attrs(int64_t hidden, const std::string& direction = "forward") {
  ir::AttrMap a;
  a.Set("hidden_size", ir::AttrValue::Int(hidden));
  a.Set("direction", ir::AttrValue::String(direction));
  return a;
}

TEST(RnnTest, ScalarTanhByHand) {
  auto t = Tester();
  // seq 2, batch 1, input 1, hidden 1: h1 = tanh(0.5*1 + 0.2*0 + 0.1 + 0.05), h2 = tanh(0.5*2 + 0.2*h1 + 0.15)
  Tensor x = Tensor::FromVector<float>({1, 2}, {2, 1, 1});
  Tensor w = Tensor::FromVector<float>({0.5f}, {1, 1, 1});
  Tensor r = Tensor::FromVector<float>({0.2f}, {1, 1, 1});
  Tensor b = Tensor::FromVector<float>({0.1f, 0.05f}, {1, 2});
  auto out = t.Run("RNN", {x, w, r, b}, Attrs(1), 2);
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  const double h1 = std::tanh(0.65), h2 = std::tanh(1.0 + 0.2 * h1 + 0.15);
  EXPECT_TRUE(TensorsMatch((*out)[0].tensor, Tensor::FromVector<float>({float(h1), float(h2)}, {2, 1, 1, 1}), 1e-6));
  EXPECT_NEAR((*out)[1].tensor.data<float>()[0], h2, 1e-6);
}

TEST(RnnTest, ReverseBidirectionalSequenceLensAndLayout) {
  auto t = Tester();
  // batch 2 with lengths {2, 1}; bidirectional with the same weights in both directions.
  Tensor x = Tensor::FromVector<float>({1, -1, 2, 9}, {2, 2, 1});  // [seq, batch, 1]
  Tensor w = Tensor::FromVector<float>({0.5f, 0.5f}, {2, 1, 1});
  Tensor r = Tensor::FromVector<float>({0.2f, 0.2f}, {2, 1, 1});
  Tensor lens = Tensor::FromVector<int32_t>({2, 1}, {2});
  auto out = t.Run("RNN", {x, w, r, Tensor(), lens}, Attrs(1, "bidirectional"), 2);
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  const Tensor& y = (*out)[0].tensor;  // [seq 2, dirs 2, batch 2, 1]
  ASSERT_EQ(y.dims(), (Dims{2, 2, 2, 1}));
  const double f0 = std::tanh(0.5), f1 = std::tanh(1.0 + 0.2 * f0);     // batch 0 forward
  const double r1 = std::tanh(1.0), r0 = std::tanh(0.5 + 0.2 * r1);     // batch 0 reverse (t=1 first)
  const double b1 = std::tanh(-0.5);                                    // batch 1, length 1, both directions
  const float* yp = y.data<float>();
  EXPECT_NEAR(yp[0], f0, 1e-6);  // t0 fwd b0
  EXPECT_NEAR(yp[1], b1, 1e-6);  // t0 fwd b1
  EXPECT_NEAR(yp[2], r0, 1e-6);  // t0 rev b0
  EXPECT_NEAR(yp[3], b1, 1e-6);  // t0 rev b1
  EXPECT_NEAR(yp[4], f1, 1e-6);  // t1 fwd b0
  EXPECT_EQ(yp[5], 0.f);         // t1 beyond batch 1's length
  EXPECT_NEAR(yp[6], r1, 1e-6);
  EXPECT_EQ(yp[7], 0.f);
  const float* yh = (*out)[1].tensor.data<float>();  // [dirs, batch, 1]
  EXPECT_NEAR(yh[0], f1, 1e-6);
  EXPECT_NEAR(yh[1], b1, 1e-6);
  EXPECT_NEAR(yh[2], r0, 1e-6);
  EXPECT_NEAR(yh[3], b1, 1e-6);

  // layout = 1 (opset 14): X [batch, seq, 1], Y [batch, seq, dirs, 1], Y_h [batch, dirs, 1].
  ir::AttrMap a = Attrs(1, "bidirectional");
  a.Set("layout", ir::AttrValue::Int(1));
  Tensor xb = Tensor::FromVector<float>({1, 2, -1, 9}, {2, 2, 1});
  auto out1 = t.Run("RNN", {xb, w, r, Tensor(), lens}, a, 2, 14);
  ASSERT_TRUE(out1.ok()) << out1.status().ToString();
  const float* y1 = (*out1)[0].tensor.data<float>();
  ASSERT_EQ((*out1)[0].tensor.dims(), (Dims{2, 2, 2, 1}));
  EXPECT_NEAR(y1[0], f0, 1e-6);  // b0 t0 fwd
  EXPECT_NEAR(y1[1], r0, 1e-6);  // b0 t0 rev
  EXPECT_NEAR(y1[2], f1, 1e-6);  // b0 t1 fwd
  EXPECT_NEAR(y1[4], b1, 1e-6);  // b1 t0 fwd
  EXPECT_EQ(y1[6], 0.f);
  const float* yh1 = (*out1)[1].tensor.data<float>();
  EXPECT_NEAR(yh1[1], r0, 1e-6);  // b0 rev
  EXPECT_NEAR(yh1[2], b1, 1e-6);  // b1 fwd
}

TEST(GruTest, ScalarByHandBothResetModes) {
  auto t = Tester();
  Tensor x = Tensor::FromVector<float>({1, 2}, {2, 1, 1});
  Tensor w = Tensor::FromVector<float>({0.1f, 0.2f, 0.3f}, {1, 3, 1});  // z, r, h
  Tensor r = Tensor::FromVector<float>({0.4f, 0.5f, 0.6f}, {1, 3, 1});
  Tensor b = Tensor::FromVector<float>({0.01f, 0.02f, 0.03f, 0.04f, 0.05f, 0.06f}, {1, 6});
  Tensor h0 = Tensor::FromVector<float>({0.5f}, {1, 1, 1});
  for (int lbr = 0; lbr < 2; ++lbr) {
    ir::AttrMap a = Attrs(1);
    a.Set("linear_before_reset", ir::AttrValue::Int(lbr));
    auto out = t.Run("GRU", {x, w, r, b, Tensor(), h0}, a, 2);
    ASSERT_TRUE(out.ok()) << out.status().ToString();
    double h = 0.5;
    for (double xv : {1.0, 2.0}) {
      double z = Sig(0.1 * xv + 0.4 * h + 0.01 + 0.04);
      double rr = Sig(0.2 * xv + 0.5 * h + 0.02 + 0.05);
      double hh = lbr ? std::tanh(0.3 * xv + 0.03 + rr * (0.6 * h + 0.06)) : std::tanh(0.3 * xv + 0.6 * rr * h + 0.03 + 0.06);
      h = (1 - z) * hh + z * h;
    }
    EXPECT_NEAR((*out)[1].tensor.data<float>()[0], h, 1e-6) << "linear_before_reset=" << lbr;
  }
}

TEST(LstmTest, ScalarByHandWithPeepholesAndClip) {
  auto t = Tester();
  Tensor x = Tensor::FromVector<float>({1, 2}, {2, 1, 1});
  Tensor w = Tensor::FromVector<float>({0.1f, 0.2f, 0.3f, 0.4f}, {1, 4, 1});  // i, o, f, c
  Tensor r = Tensor::FromVector<float>({0.5f, 0.6f, 0.7f, 0.8f}, {1, 4, 1});
  Tensor b = Tensor::FromVector<float>({0, 0, 0, 0, 0.1f, 0.1f, 0.1f, 0.1f}, {1, 8});
  Tensor h0 = Tensor::FromVector<float>({0.2f}, {1, 1, 1});
  Tensor c0 = Tensor::FromVector<float>({0.3f}, {1, 1, 1});
  Tensor p = Tensor::FromVector<float>({0.9f, 1.0f, 1.1f}, {1, 3});  // i, o, f
  ir::AttrMap a = Attrs(1);
  a.Set("clip", ir::AttrValue::Float(0.8f));
  auto out = t.Run("LSTM", {x, w, r, b, Tensor(), h0, c0, p}, a, 3);
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  auto clip = [](double v) { return std::max(-0.8, std::min(0.8, v)); };
  double h = 0.2, c = 0.3;
  std::vector<float> ys;
  for (double xv : {1.0, 2.0}) {
    double i = Sig(clip(0.1 * xv + 0.5 * h + 0.1 + 0.9 * c));
    double f = Sig(clip(0.3 * xv + 0.7 * h + 0.1 + 1.1 * c));
    double g = std::tanh(clip(0.4 * xv + 0.8 * h + 0.1));
    c = f * c + i * g;
    double o = Sig(clip(0.2 * xv + 0.6 * h + 0.1 + 1.0 * c));
    h = o * std::tanh(c);
    ys.push_back(static_cast<float>(h));
  }
  EXPECT_TRUE(TensorsMatch((*out)[0].tensor, Tensor::FromVector<float>(ys, {2, 1, 1, 1}), 1e-6));
  EXPECT_NEAR((*out)[1].tensor.data<float>()[0], h, 1e-6);
  EXPECT_NEAR((*out)[2].tensor.data<float>()[0], c, 1e-6);
}

TEST(LstmTest, ActivationsAttributeAndDouble) {
  auto t = Tester();
  Tensor x = Tensor::FromVector<double>({1}, {1, 1, 1});
  Tensor w = Tensor::FromVector<double>({1, 1, 1, 1}, {1, 4, 1});
  Tensor r = Tensor::FromVector<double>({0, 0, 0, 0}, {1, 4, 1});
  ir::AttrMap a = Attrs(1);
  a.Set("activations", ir::AttrValue::Strings({"HardSigmoid", "LeakyRelu", "Affine"}));
  a.Set("activation_alpha", ir::AttrValue::Floats({0.5f, 0.1f, 2.f}));
  a.Set("activation_beta", ir::AttrValue::Floats({0.25f, 1.f}));
  auto out = t.Run("LSTM", {x, w, r}, a, 3);
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  const double sig = std::min(1.0, 0.5 * 1 + 0.25);  // f = HardSigmoid(0.5, 0.25)
  const double c = sig * 1.0;                         // g = LeakyRelu(1) = 1, c0 = 0
  const double h = sig * (2.0 * c + 1.0);             // h = Affine(2, 1)
  EXPECT_EQ((*out)[0].tensor.dtype(), DataType::kDouble);
  EXPECT_NEAR((*out)[1].tensor.data<double>()[0], h, 1e-12);
  a.Set("activations", ir::AttrValue::Strings({"Bogus", "Tanh", "Tanh"}));
  EXPECT_FALSE(t.Run("LSTM", {x, w, r}, a, 3).ok());
}

TEST(RnnTest, BadInputs) {
  auto t = Tester();
  Tensor x = Tensor::FromVector<float>({1, 2}, {2, 1, 1});
  Tensor w = Tensor::FromVector<float>({0.5f}, {1, 1, 1});
  Tensor r = Tensor::FromVector<float>({0.2f}, {1, 1, 1});
  EXPECT_FALSE(t.Run("RNN", {x, w, r}, Attrs(1, "sideways"), 2).ok());
  EXPECT_FALSE(t.Run("RNN", {x, w, r}, Attrs(1, "bidirectional"), 2).ok());  // W has one direction
  EXPECT_FALSE(t.Run("RNN", {x, w, r, Tensor(), Tensor::FromVector<int32_t>({5}, {1})}, Attrs(1), 2).ok());
  EXPECT_FALSE(t.Run("GRU", {x, w, r}, Attrs(1), 2).ok());  // W holds 1 gate, GRU needs 3
}

TEST(RnnInferenceTest, UnknownDimsAndLayout) {
  ops::OpRegistry reg;
  ops::RegisterMathOps(&reg);
  Shape xs({kUnknownDim, kUnknownDim, 8});
  xs.set_symbol(0, "seq");
  TensorDesc x(DataType::kFloat, xs), w(DataType::kFloat, Shape({2, 64, 8})), r(DataType::kFloat, Shape({2, 64, 16}));
  ops::InferContext ctx;
  ir::AttrMap attrs;
  attrs.Set("direction", ir::AttrValue::String("bidirectional"));
  ctx.attrs = &attrs;
  ctx.inputs = {&x, &w, &r};
  ctx.input_values = {nullptr, nullptr, nullptr};
  ctx.outputs.resize(3);
  ASSERT_TRUE(ops::RunInference(*reg.Find("", "LSTM"), ctx).ok());
  EXPECT_EQ(ctx.outputs[0].shape.dims(), (Dims{kUnknownDim, 2, kUnknownDim, 16}));
  EXPECT_EQ(ctx.outputs[0].shape.symbol(0), "seq");
  EXPECT_EQ(ctx.outputs[2].shape.dims(), (Dims{2, kUnknownDim, 16}));
  attrs.Set("layout", ir::AttrValue::Int(1));
  ctx.opset = 14;
  ASSERT_TRUE(ops::RunInference(*reg.Find("", "LSTM"), ctx).ok());
  EXPECT_EQ(ctx.outputs[0].shape.dims(), (Dims{kUnknownDim, kUnknownDim, 2, 16}));
  EXPECT_EQ(ctx.outputs[1].shape.dims(), (Dims{kUnknownDim, 2, 16}));
}

}  // namespace
}  // namespace ge::ref
