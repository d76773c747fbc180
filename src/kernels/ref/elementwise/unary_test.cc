#include <cmath>
#include <limits>

#include "kernels/ref/elementwise/elementwise_test_util.h"

namespace ge::ref::elementwise::testing {
namespace {

const float kNaN = std::numeric_limits<float>::quiet_NaN();
const float kInf = std::numeric_limits<float>::infinity();

TEST(ElementwiseUnary, FloatMath) {
  auto t = MakeTester();
  Tensor x = Tensor::FromVector<float>({-1.5f, 0.0f, 0.5f, 2.0f}, {2, 2});
  auto run = [&](const char* op) {
    auto r = t.Run1(op, {x});
    EXPECT_TRUE(r.ok()) << op << ": " << r.status().ToString();
    return r.ok() ? Values<float>(*r) : std::vector<float>();
  };
  EXPECT_FLOATS_NEAR(run("Abs"), (std::vector<float>{1.5f, 0, 0.5f, 2}), 0);
  EXPECT_FLOATS_NEAR(run("Neg"), (std::vector<float>{1.5f, 0, -0.5f, -2}), 0);
  EXPECT_FLOATS_NEAR(run("Exp"), (std::vector<float>{std::exp(-1.5f), 1, std::exp(0.5f), std::exp(2.0f)}), 1e-6);
  EXPECT_FLOATS_NEAR(run("Ceil"), (std::vector<float>{-1, 0, 1, 2}), 0);
  EXPECT_FLOATS_NEAR(run("Floor"), (std::vector<float>{-2, 0, 0, 2}), 0);
  EXPECT_FLOATS_NEAR(run("Sign"), (std::vector<float>{-1, 0, 1, 1}), 0);
  EXPECT_FLOATS_NEAR(run("Sin"), (std::vector<float>{std::sin(-1.5f), 0, std::sin(0.5f), std::sin(2.0f)}), 1e-6);
  EXPECT_FLOATS_NEAR(run("Erf"), (std::vector<float>{std::erf(-1.5f), 0, std::erf(0.5f), std::erf(2.0f)}), 1e-6);
  auto rec = run("Reciprocal");
  ASSERT_EQ(rec.size(), 4u);
  EXPECT_EQ(rec[0], -1 / 1.5f);
  EXPECT_EQ(rec[1], kInf);
  EXPECT_EQ(rec[2], 2.0f);
}

TEST(ElementwiseUnary, RoundHalfToEven) {
  auto t = MakeTester();
  auto r = t.Run1("Round", {Tensor::FromVector<float>({0.5f, 1.5f, 2.5f, -0.5f, -1.5f, 2.3f, -2.7f}, {7})});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_FLOATS_NEAR(Values<float>(*r), (std::vector<float>{0, 2, 2, -0, -2, 2, -3}), 0);
}

TEST(ElementwiseUnary, DoubleAndHalf) {
  auto t = MakeTester();
  auto d = t.Run1("Sqrt", {Tensor::FromVector<double>({4.0, 2.0}, {2})});
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(d->dtype(), DataType::kDouble);
  EXPECT_DOUBLE_EQ(d->data<double>()[1], std::sqrt(2.0));
  auto h = t.Run1("Log", {HalfTensor<float16>({1.0f, 4.0f}, {2})});
  ASSERT_TRUE(h.ok());
  EXPECT_EQ(h->dtype(), DataType::kFloat16);
  EXPECT_FLOATS_NEAR(AsFloats(*h), (std::vector<float>{0, std::log(4.0f)}), 1e-3);
  auto b = t.Run1("Tanh", {HalfTensor<bfloat16>({0.0f, 1.0f}, {2})});
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(b->dtype(), DataType::kBFloat16);
  EXPECT_FLOATS_NEAR(AsFloats(*b), (std::vector<float>{0, std::tanh(1.0f)}), 1e-2);
}

TEST(ElementwiseUnary, IntegerAbsNegSign) {
  auto t = MakeTester();
  Tensor x = Tensor::FromVector<int32_t>({-3, 0, 7, std::numeric_limits<int32_t>::min()}, {4});
  auto a = t.Run1("Abs", {x});
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(Values<int32_t>(*a), (std::vector<int32_t>{3, 0, 7, std::numeric_limits<int32_t>::min()}));
  auto n = t.Run1("Neg", {Tensor::FromVector<int8_t>({-3, 0, 7}, {3})});
  ASSERT_TRUE(n.ok());
  EXPECT_EQ(Values<int8_t>(*n), (std::vector<int8_t>{3, 0, -7}));
  auto s = t.Run1("Sign", {Tensor::FromVector<int64_t>({-9, 0, 4}, {3})});
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(Values<int64_t>(*s), (std::vector<int64_t>{-1, 0, 1}));
  auto u = t.Run1("Abs", {Tensor::FromVector<uint8_t>({200, 1}, {2})});
  ASSERT_TRUE(u.ok());
  EXPECT_EQ(Values<uint8_t>(*u), (std::vector<uint8_t>{200, 1}));
}

TEST(ElementwiseUnary, IsNaNIsInfNot) {
  auto t = MakeTester();
  Tensor x = Tensor::FromVector<float>({-1.2f, kNaN, kInf, 2.8f, -kInf, kInf}, {6});
  auto n = t.Run1("IsNaN", {x});
  ASSERT_TRUE(n.ok());
  EXPECT_EQ(Bools(*n), (std::vector<bool>{false, true, false, false, false, false}));
  auto i = t.Run1("IsInf", {x});
  ASSERT_TRUE(i.ok());
  EXPECT_EQ(Bools(*i), (std::vector<bool>{false, false, true, false, true, true}));
  auto ip = t.Run1("IsInf", {x}, Attrs({{"detect_negative", ir::AttrValue::Int(0)}}));
  ASSERT_TRUE(ip.ok());
  EXPECT_EQ(Bools(*ip), (std::vector<bool>{false, false, true, false, false, true}));
  auto no = t.Run1("Not", {Tensor::FromVector<bool>({true, false}, {2})});
  ASSERT_TRUE(no.ok());
  EXPECT_EQ(Bools(*no), (std::vector<bool>{false, true}));
}

TEST(ElementwiseUnary, EmptyAndScalar) {
  auto t = MakeTester();
  auto e = t.Run1("Exp", {Tensor::FromVector<float>({}, {0, 3})});
  ASSERT_TRUE(e.ok());
  EXPECT_EQ(e->dims(), (Dims{0, 3}));
  auto s = t.Run1("Neg", {Tensor::Scalar<float>(2.0f)});
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->rank(), 0);
  EXPECT_EQ(s->data<float>()[0], -2.0f);
}

TEST(ElementwiseUnary, BadInputs) {
  auto t = MakeTester();
  EXPECT_FALSE(t.Run1("Sqrt", {Tensor::FromVector<int32_t>({4}, {1})}).ok());
  EXPECT_FALSE(t.Run1("Not", {Tensor::FromVector<float>({1}, {1})}).ok());
  EXPECT_FALSE(t.Run1("Exp", {}).ok());
}

}  // namespace
}  // namespace ge::ref::elementwise::testing
