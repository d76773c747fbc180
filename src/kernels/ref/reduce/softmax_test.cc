#include <cmath>

#include "kernels/ref/reduce/reduce_test_util.h"

namespace ge::ref::reduce_test {
namespace {

using ir::AttrValue;

std::vector<double> SoftmaxRow(const std::vector<double>& x) {
  double m = x[0], s = 0;
  for (double v : x) m = std::max(m, v);
  for (double v : x) s += std::exp(v - m);
  std::vector<double> out;
  for (double v : x) out.push_back(std::exp(v - m) / s);
  return out;
}

TEST(Softmax, SpecExample) {
  auto t = MakeTester();
  auto y = t.Run1("Softmax", {F({-1, 0, 1}, {1, 3})});
  ASSERT_TRUE(y.ok()) << y.status().ToString();
  EXPECT_NEAR_VEC(AsDoubles(*y), (std::vector<double>{0.09003058, 0.24472848, 0.66524094}), 1e-6);
  auto ly = t.Run1("LogSoftmax", {F({-1, 0, 1}, {1, 3})});
  ASSERT_TRUE(ly.ok());
  EXPECT_NEAR_VEC(AsDoubles(*ly), (std::vector<double>{-2.40760596, -1.40760596, -0.40760596}), 1e-6);
}

TEST(Softmax, LargeNumbersAndMiddleAxis) {
  auto t = MakeTester();
  auto y = t.Run1("Softmax", {F({10000, 10001, 10002, 10003}, {4})});
  ASSERT_TRUE(y.ok());
  EXPECT_NEAR_VEC(AsDoubles(*y), SoftmaxRow({0, 1, 2, 3}), 1e-6);
  // Opset 13, axis 0 of [2, 2]: columns normalize.
  auto c = t.Run1("Softmax", {F({0, 1, 2, 3}, {2, 2})}, Attrs({{"axis", AttrValue::Int(0)}}));
  ASSERT_TRUE(c.ok());
  auto col = SoftmaxRow({0, 2});
  EXPECT_NEAR_VEC(AsDoubles(*c), (std::vector<double>{col[0], col[0], col[1], col[1]}), 1e-6);
}

TEST(Softmax, Opset11FlattensAtAxis) {
  auto t = MakeTester();
  Tensor x = F({0, 1, 2, 3, 4, 5, 6, 7}, {2, 2, 2});
  // Opset 11, default axis 1: each of the 2 batches normalizes over 4 values.
  auto y = t.Run1("Softmax", {x}, {}, 11);
  ASSERT_TRUE(y.ok());
  auto r = SoftmaxRow({0, 1, 2, 3});
  EXPECT_NEAR_VEC(AsDoubles(*y), (std::vector<double>{r[0], r[1], r[2], r[3], r[0], r[1], r[2], r[3]}), 1e-6);
  // Opset 13 default axis -1: pairs.
  auto z = t.Run1("Softmax", {x});
  ASSERT_TRUE(z.ok());
  auto p = SoftmaxRow({0, 1});
  EXPECT_NEAR(z->data<float>()[6], p[0], 1e-6);
  auto h = t.Run1("Hardmax", {F({1, 3, 3, 2, 0, 0, 0, 0}, {2, 2, 2})}, {}, 11);
  ASSERT_TRUE(h.ok());
  EXPECT_EQ(AsDoubles(*h), (std::vector<double>{0, 1, 0, 0, 1, 0, 0, 0}));
}

TEST(Softmax, HardmaxAndTypes) {
  auto t = MakeTester();
  auto h = t.Run1("Hardmax", {F({3, 0, 1, 2, 2, 1, 0, 3, 0, 0, 0, 0}, {3, 4})});
  ASSERT_TRUE(h.ok());
  EXPECT_EQ(AsDoubles(*h), (std::vector<double>{1, 0, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0}));
  auto d = t.Run1("LogSoftmax", {Tensor::FromVector<double>({1, 2}, {2})});
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(d->dtype(), DataType::kDouble);
  EXPECT_NEAR(d->data<double>()[1], -std::log1p(std::exp(-1.0)), 1e-12);
  auto hf = t.Run1("Softmax", {Tensor::FromVector<float16>({float16(0.f), float16(0.f)}, {2})});
  ASSERT_TRUE(hf.ok());
  EXPECT_EQ(hf->dtype(), DataType::kFloat16);
  EXPECT_EQ(AsDoubles(*hf), (std::vector<double>{0.5, 0.5}));
  EXPECT_FALSE(t.Run1("Softmax", {I64({1, 2}, {2})}).ok());
  EXPECT_FALSE(t.Run1("Softmax", {F({1, 2}, {2})}, Attrs({{"axis", AttrValue::Int(1)}})).ok());
}

TEST(CumSum, SpecCases) {
  auto t = MakeTester();
  Tensor x = F({1, 2, 3, 4, 5}, {5});
  Tensor ax = Tensor::Scalar<int32_t>(0);
  auto y = t.Run1("CumSum", {x, ax});
  ASSERT_TRUE(y.ok()) << y.status().ToString();
  EXPECT_EQ(AsDoubles(*y), (std::vector<double>{1, 3, 6, 10, 15}));
  auto e = t.Run1("CumSum", {x, ax}, Attrs({{"exclusive", AttrValue::Int(1)}}));
  ASSERT_TRUE(e.ok());
  EXPECT_EQ(AsDoubles(*e), (std::vector<double>{0, 1, 3, 6, 10}));
  auto r = t.Run1("CumSum", {x, ax}, Attrs({{"reverse", AttrValue::Int(1)}}));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(AsDoubles(*r), (std::vector<double>{15, 14, 12, 9, 5}));
  auto re = t.Run1("CumSum", {x, ax}, Attrs({{"reverse", AttrValue::Int(1)}, {"exclusive", AttrValue::Int(1)}}));
  ASSERT_TRUE(re.ok());
  EXPECT_EQ(AsDoubles(*re), (std::vector<double>{14, 12, 9, 5, 0}));
  Tensor m = Tensor::FromVector<int64_t>({1, 2, 3, 4, 5, 6}, {2, 3});
  auto a0 = t.Run1("CumSum", {m, Tensor::Scalar<int64_t>(0)});
  ASSERT_TRUE(a0.ok());
  EXPECT_EQ(a0->dtype(), DataType::kInt64);
  EXPECT_EQ(AsDoubles(*a0), (std::vector<double>{1, 2, 3, 5, 7, 9}));
  auto a1 = t.Run1("CumSum", {m, Tensor::Scalar<int64_t>(-1)});
  ASSERT_TRUE(a1.ok());
  EXPECT_EQ(AsDoubles(*a1), (std::vector<double>{1, 3, 6, 4, 9, 15}));
  EXPECT_FALSE(t.Run1("CumSum", {m, Tensor::Scalar<int64_t>(2)}).ok());
  EXPECT_FALSE(t.Run1("CumSum", {m, I64({0, 1}, {2})}).ok());
}

TEST(Softmax, InferenceWithUnknownDims) {
  auto t = MakeTester();
  Shape s;
  s.AddDim(kUnknownDim, "b");
  s.AddDim(12);
  auto out = InferOnly(t, "Softmax", {TensorDesc(DataType::kFloat, s)}, {});
  ASSERT_TRUE(out.ok());
  EXPECT_EQ((*out)[0].shape.ToString(), "[b,12]");
  auto u = InferOnly(t, "LogSoftmax", {TensorDesc(DataType::kFloat, Shape::UnknownRank())}, {});
  ASSERT_TRUE(u.ok());
  EXPECT_TRUE((*u)[0].shape.unknown_rank());
  auto c = InferOnly(t, "CumSum", {TensorDesc(DataType::kFloat, s), TensorDesc(DataType::kInt32, Shape())}, {});
  ASSERT_TRUE(c.ok());
  EXPECT_EQ((*c)[0].shape.ToString(), "[b,12]");
}

}  // namespace
}  // namespace ge::ref::reduce_test
