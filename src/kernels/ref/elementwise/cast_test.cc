#include <cmath>
#include <limits>

#include "kernels/ref/elementwise/elementwise_test_util.h"

namespace ge::ref::elementwise::testing {
namespace {

ir::AttrMap To(DataType dt) { return Attrs({{"to", ir::AttrValue::Int(static_cast<int64_t>(dt))}}); }

TEST(ElementwiseCast, Numeric) {
  auto t = MakeTester();
  Tensor x = Tensor::FromVector<float>({-1.7f, 0.0f, 2.9f, 300.0f}, {4});
  auto i = t.Run1("Cast", {x}, To(DataType::kInt32));
  ASSERT_TRUE(i.ok()) << i.status().ToString();
  EXPECT_EQ(Values<int32_t>(*i), (std::vector<int32_t>{-1, 0, 2, 300}));
  auto u8 = t.Run1("Cast", {x}, To(DataType::kUint8));
  ASSERT_TRUE(u8.ok());
  EXPECT_EQ(Values<uint8_t>(*u8), (std::vector<uint8_t>{255, 0, 2, 44}));
  auto b = t.Run1("Cast", {x}, To(DataType::kBool));
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(Bools(*b), (std::vector<bool>{true, false, true, true}));
  auto d = t.Run1("Cast", {Tensor::FromVector<bool>({true, false}, {2})}, To(DataType::kDouble));
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(Values<double>(*d), (std::vector<double>{1, 0}));
  auto h = t.Run1("Cast", {x}, To(DataType::kFloat16));
  ASSERT_TRUE(h.ok());
  EXPECT_FLOATS_NEAR(AsFloats(*h), (std::vector<float>{-1.7f, 0, 2.9f, 300}), 2e-3);
  auto back = t.Run1("Cast", {*h}, To(DataType::kInt64));
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(Values<int64_t>(*back), (std::vector<int64_t>{-1, 0, 2, 300}));
  auto wrap = t.Run1("Cast", {Tensor::FromVector<int32_t>({257, -1}, {2})}, To(DataType::kUint8));
  ASSERT_TRUE(wrap.ok());
  EXPECT_EQ(Values<uint8_t>(*wrap), (std::vector<uint8_t>{1, 255}));
  auto nan = t.Run1("Cast", {Tensor::FromVector<float>({std::nanf(""), 1e30f}, {2})}, To(DataType::kInt32));
  ASSERT_TRUE(nan.ok());
  EXPECT_EQ(nan->data<int32_t>()[0], 0);
}

TEST(ElementwiseCast, Bfloat16Truncates) {
  auto t = MakeTester();
  // 0.48033667f = 0x3EF5EE5E: the low half is dropped (ONNX 1.12 behaviour), not rounded up to 0x3EF6.
  auto r = t.Run1("Cast", {Tensor::FromVector<float>({0.48033667f, std::nanf("")}, {2})}, To(DataType::kBFloat16));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->data<bfloat16>()[0].bits, 0x3EF5);
  EXPECT_TRUE(std::isnan(static_cast<float>(r->data<bfloat16>()[1])));
}

TEST(ElementwiseCast, Strings) {
  auto t = MakeTester();
  auto f = t.Run1("Cast", {Tensor::FromVector<std::string>({"0.5", "1e-5", "NaN", "INF", "+INF", "-inf", " 3 "}, {7})},
                  To(DataType::kFloat));
  ASSERT_TRUE(f.ok()) << f.status().ToString();
  auto v = Values<float>(*f);
  EXPECT_EQ(v[0], 0.5f);
  EXPECT_EQ(v[1], 1e-5f);
  EXPECT_TRUE(std::isnan(v[2]));
  EXPECT_EQ(v[3], std::numeric_limits<float>::infinity());
  EXPECT_EQ(v[4], std::numeric_limits<float>::infinity());
  EXPECT_EQ(v[5], -std::numeric_limits<float>::infinity());
  EXPECT_EQ(v[6], 3.0f);
  auto i = t.Run1("Cast", {Tensor::FromVector<std::string>({"100.5", "-7", "9223372036854775807"}, {3})},
                  To(DataType::kInt64));
  ASSERT_TRUE(i.ok());
  EXPECT_EQ(Values<int64_t>(*i), (std::vector<int64_t>{100, -7, std::numeric_limits<int64_t>::max()}));
  auto s = t.Run1("Cast", {Tensor::FromVector<float>({0.039187793f, 0.5f, -2.0f, std::nanf(""), -INFINITY}, {5})},
                  To(DataType::kString));
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(Values<std::string>(*s), (std::vector<std::string>{"0.039187793", "0.5", "-2", "NaN", "-INF"}));
  auto hs = t.Run1("Cast", {HalfTensor<float16>({0.549f, 1000.0f}, {2})}, To(DataType::kString));
  ASSERT_TRUE(hs.ok());
  EXPECT_EQ(Values<std::string>(*hs), (std::vector<std::string>{"0.549", "1000"}));
  auto is = t.Run1("Cast", {Tensor::FromVector<int8_t>({-128, 5}, {2})}, To(DataType::kString));
  ASSERT_TRUE(is.ok());
  EXPECT_EQ(Values<std::string>(*is), (std::vector<std::string>{"-128", "5"}));
  EXPECT_FALSE(t.Run1("Cast", {Tensor::FromVector<std::string>({"hello"}, {1})}, To(DataType::kFloat)).ok());
}

TEST(ElementwiseCast, CastLikeAndErrors) {
  auto t = MakeTester();
  auto r = t.Run1("CastLike", {Tensor::FromVector<double>({1.25, -3}, {2}), Tensor::FromVector<int16_t>({}, {0})});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->dtype(), DataType::kInt16);
  EXPECT_EQ(Values<int16_t>(*r), (std::vector<int16_t>{1, -3}));
  auto same = t.Run1("Cast", {Tensor::FromVector<float>({1, 2}, {2})}, To(DataType::kFloat));
  ASSERT_TRUE(same.ok());
  EXPECT_EQ(Values<float>(*same), (std::vector<float>{1, 2}));
  EXPECT_FALSE(t.Run1("Cast", {Tensor::FromVector<float>({1}, {1})}).ok());
  EXPECT_FALSE(t.Run1("Cast", {Tensor::FromVector<float>({1}, {1})}, Attrs({{"to", ir::AttrValue::Int(99)}})).ok());
  EXPECT_FALSE(t.Run1("Cast", {Tensor::FromVector<float>({1}, {1})}, To(DataType::kComplex64)).ok());
}

}  // namespace
}  // namespace ge::ref::elementwise::testing
