#include <cmath>
#include <limits>

#include "kernels/ref/elementwise/elementwise_test_util.h"

namespace ge::ref::elementwise::testing {
namespace {

TEST(ElementwiseBinary, SameShapeAndBroadcast) {
  auto t = MakeTester();
  Tensor a = Tensor::FromVector<float>({1, 2, 3, 4, 5, 6}, {2, 3});
  auto same = t.Run1("Add", {a, a});
  ASSERT_TRUE(same.ok()) << same.status().ToString();
  EXPECT_EQ(Values<float>(*same), (std::vector<float>{2, 4, 6, 8, 10, 12}));
  auto row = t.Run1("Sub", {a, Tensor::FromVector<float>({1, 2, 3}, {3})});
  ASSERT_TRUE(row.ok());
  EXPECT_EQ(Values<float>(*row), (std::vector<float>{0, 0, 0, 3, 3, 3}));
  auto col = t.Run1("Mul", {Tensor::FromVector<float>({10, 100}, {2, 1}), a});
  ASSERT_TRUE(col.ok());
  EXPECT_EQ(Values<float>(*col), (std::vector<float>{10, 20, 30, 400, 500, 600}));
  auto outer =
      t.Run1("Add", {Tensor::FromVector<float>({1, 2}, {2, 1}), Tensor::FromVector<float>({10, 20, 30}, {1, 3})});
  ASSERT_TRUE(outer.ok());
  EXPECT_EQ(outer->dims(), (Dims{2, 3}));
  EXPECT_EQ(Values<float>(*outer), (std::vector<float>{11, 21, 31, 12, 22, 32}));
  auto scalar = t.Run1("Div", {a, Tensor::Scalar<float>(2)});
  ASSERT_TRUE(scalar.ok());
  EXPECT_EQ(Values<float>(*scalar), (std::vector<float>{0.5f, 1, 1.5f, 2, 2.5f, 3}));
}

TEST(ElementwiseBinary, BiasAddNCHW) {
  auto t = MakeTester();
  std::vector<float> x(2 * 3 * 2 * 2);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i);
  auto r = t.Run1("Add",
                  {Tensor::FromVector<float>(x, {2, 3, 2, 2}), Tensor::FromVector<float>({100, 200, 300}, {3, 1, 1})});
  ASSERT_TRUE(r.ok());
  auto v = Values<float>(*r);
  for (size_t i = 0; i < x.size(); ++i) EXPECT_EQ(v[i], x[i] + 100.0f * ((i / 4) % 3 + 1)) << i;
}

TEST(ElementwiseBinary, IntegerDivAndMod) {
  auto t = MakeTester();
  Tensor a = Tensor::FromVector<int32_t>({7, -7, 7, -7, std::numeric_limits<int32_t>::min()}, {5});
  Tensor b = Tensor::FromVector<int32_t>({2, 2, -2, -2, -1}, {5});
  auto d = t.Run1("Div", {a, b});
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(Values<int32_t>(*d), (std::vector<int32_t>{3, -3, -3, 3, std::numeric_limits<int32_t>::min()}));
  auto m = t.Run1("Mod", {a, b});
  ASSERT_TRUE(m.ok());
  EXPECT_EQ(Values<int32_t>(*m), (std::vector<int32_t>{1, 1, -1, -1, 0}));
  auto f = t.Run1("Mod", {a, b}, Attrs({{"fmod", ir::AttrValue::Int(1)}}));
  ASSERT_TRUE(f.ok());
  EXPECT_EQ(Values<int32_t>(*f), (std::vector<int32_t>{1, -1, 1, -1, 0}));
  auto ff = t.Run1("Mod", {Tensor::FromVector<float>({5.5f, -5.5f}, {2}), Tensor::FromVector<float>({2, 2}, {2})},
                   Attrs({{"fmod", ir::AttrValue::Int(1)}}));
  ASSERT_TRUE(ff.ok());
  EXPECT_EQ(Values<float>(*ff), (std::vector<float>{1.5f, -1.5f}));
  EXPECT_FALSE(t.Run1("Div", {a, Tensor::FromVector<int32_t>({1, 0, 1, 1, 1}, {5})}).ok());
  EXPECT_FALSE(t.Run1("Mod", {a, Tensor::Scalar<int32_t>(0)}).ok());
  EXPECT_FALSE(t.Run1("Mod", {Tensor::Scalar<float>(1), Tensor::Scalar<float>(2)}).ok());  // floats need fmod=1
}

TEST(ElementwiseBinary, IntegerWraps) {
  auto t = MakeTester();
  auto r = t.Run1("Add", {Tensor::FromVector<uint8_t>({250, 1}, {2}), Tensor::FromVector<uint8_t>({10, 2}, {2})});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(Values<uint8_t>(*r), (std::vector<uint8_t>{4, 3}));
  auto m = t.Run1("Mul", {Tensor::Scalar<int64_t>(std::numeric_limits<int64_t>::max()), Tensor::Scalar<int64_t>(2)});
  ASSERT_TRUE(m.ok());
  EXPECT_EQ(m->data<int64_t>()[0], -2);
}

TEST(ElementwiseBinary, Pow) {
  auto t = MakeTester();
  auto f = t.Run1("Pow", {Tensor::FromVector<float>({1, 2, 3}, {3}), Tensor::FromVector<float>({4, 5, 6}, {3})});
  ASSERT_TRUE(f.ok());
  EXPECT_EQ(Values<float>(*f), (std::vector<float>{1, 32, 729}));
  auto fi = t.Run1("Pow", {Tensor::FromVector<float>({2, 4}, {2}), Tensor::Scalar<int64_t>(-1)});
  ASSERT_TRUE(fi.ok());
  EXPECT_EQ(fi->dtype(), DataType::kFloat);
  EXPECT_EQ(Values<float>(*fi), (std::vector<float>{0.5f, 0.25f}));
  auto ii = t.Run1("Pow", {Tensor::FromVector<int64_t>({3, -2, 2}, {3}), Tensor::FromVector<int64_t>({3, 3, -1}, {3})});
  ASSERT_TRUE(ii.ok());
  EXPECT_EQ(Values<int64_t>(*ii), (std::vector<int64_t>{27, -8, 0}));
  auto if_ = t.Run1("Pow", {Tensor::FromVector<int32_t>({4, 9}, {2}), Tensor::Scalar<float>(0.5f)});
  ASSERT_TRUE(if_.ok());
  EXPECT_EQ(Values<int32_t>(*if_), (std::vector<int32_t>{2, 3}));
}

TEST(ElementwiseBinary, BitShift) {
  auto t = MakeTester();
  Tensor x = Tensor::FromVector<uint8_t>({16, 4, 1}, {3});
  Tensor s = Tensor::FromVector<uint8_t>({1, 2, 9}, {3});
  auto l = t.Run1("BitShift", {x, s}, Attrs({{"direction", ir::AttrValue::String("LEFT")}}));
  ASSERT_TRUE(l.ok());
  EXPECT_EQ(Values<uint8_t>(*l), (std::vector<uint8_t>{32, 16, 0}));
  auto r = t.Run1("BitShift", {x, s}, Attrs({{"direction", ir::AttrValue::String("RIGHT")}}));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(Values<uint8_t>(*r), (std::vector<uint8_t>{8, 1, 0}));
  EXPECT_FALSE(t.Run1("BitShift", {x, s}, Attrs({{"direction", ir::AttrValue::String("UP")}})).ok());
}

TEST(ElementwiseBinary, LogicAndCompare) {
  auto t = MakeTester();
  Tensor a = Tensor::FromVector<bool>({true, true, false, false}, {2, 2});
  Tensor b = Tensor::FromVector<bool>({true, false}, {2});
  auto r_and = t.Run1("And", {a, b});
  ASSERT_TRUE(r_and.ok());
  EXPECT_EQ(Bools(*r_and), (std::vector<bool>{true, false, false, false}));
  auto r_or = t.Run1("Or", {a, b});
  ASSERT_TRUE(r_or.ok());
  EXPECT_EQ(Bools(*r_or), (std::vector<bool>{true, true, true, false}));
  auto r_xor = t.Run1("Xor", {a, b});
  ASSERT_TRUE(r_xor.ok());
  EXPECT_EQ(Bools(*r_xor), (std::vector<bool>{false, true, true, false}));

  Tensor x = Tensor::FromVector<int32_t>({1, 2, 3}, {3});
  Tensor y = Tensor::Scalar<int32_t>(2);
  auto expect = [&](const char* op, std::vector<bool> want) {
    auto r = t.Run1(op, {x, y});
    ASSERT_TRUE(r.ok()) << op;
    EXPECT_EQ(r->dtype(), DataType::kBool);
    EXPECT_EQ(Bools(*r), want) << op;
  };
  expect("Equal", {false, true, false});
  expect("Greater", {false, false, true});
  expect("Less", {true, false, false});
  expect("GreaterOrEqual", {false, true, true});
  expect("LessOrEqual", {true, true, false});
  auto s = t.Run1("Equal", {Tensor::FromVector<std::string>({"a", "b"}, {2}), Tensor::Scalar<std::string>("b")});
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  EXPECT_EQ(Bools(*s), (std::vector<bool>{false, true}));
  auto h = t.Run1("Less", {HalfTensor<float16>({1.0f, 3.0f}, {2}), HalfTensor<float16>({2.0f}, {1})});
  ASSERT_TRUE(h.ok());
  EXPECT_EQ(Bools(*h), (std::vector<bool>{true, false}));
  EXPECT_FALSE(t.Run1("And", {x, x}).ok());
  EXPECT_FALSE(t.Run1("Greater", {x, Tensor::Scalar<float>(1)}).ok());
}

TEST(ElementwiseBinary, Where) {
  auto t = MakeTester();
  Tensor c = Tensor::FromVector<bool>({true, false, true, false}, {2, 2});
  auto r = t.Run1("Where", {c, Tensor::FromVector<float>({1, 2, 3, 4}, {2, 2}), Tensor::Scalar<float>(9)});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(Values<float>(*r), (std::vector<float>{1, 9, 3, 9}));
  auto col =
      t.Run1("Where", {Tensor::FromVector<bool>({true, false}, {2, 1}), Tensor::FromVector<int64_t>({1, 2, 3}, {3}),
                       Tensor::FromVector<int64_t>({-1, -2, -3}, {3})});
  ASSERT_TRUE(col.ok());
  EXPECT_EQ(col->dims(), (Dims{2, 3}));
  EXPECT_EQ(Values<int64_t>(*col), (std::vector<int64_t>{1, 2, 3, -1, -2, -3}));
  auto str = t.Run1("Where", {Tensor::FromVector<bool>({false, true}, {2}), Tensor::Scalar<std::string>("x"),
                              Tensor::FromVector<std::string>({"a", "b"}, {2})});
  ASSERT_TRUE(str.ok());
  EXPECT_EQ(Values<std::string>(*str), (std::vector<std::string>{"a", "x"}));
  EXPECT_FALSE(
      t.Run1("Where", {Tensor::FromVector<float>({1}, {1}), Tensor::Scalar<float>(1), Tensor::Scalar<float>(2)}).ok());
}

TEST(ElementwiseBinary, Variadic) {
  auto t = MakeTester();
  Tensor a = Tensor::FromVector<float>({3, 2, 1}, {3});
  Tensor b = Tensor::FromVector<float>({1, 4, 4}, {3});
  Tensor c = Tensor::FromVector<float>({2, 5, 3}, {3});
  auto mx = t.Run1("Max", {a, b, c});
  ASSERT_TRUE(mx.ok());
  EXPECT_EQ(Values<float>(*mx), (std::vector<float>{3, 5, 4}));
  auto mn = t.Run1("Min", {a, b, c});
  ASSERT_TRUE(mn.ok());
  EXPECT_EQ(Values<float>(*mn), (std::vector<float>{1, 2, 1}));
  auto sm = t.Run1("Sum", {a, b, c});
  ASSERT_TRUE(sm.ok());
  EXPECT_EQ(Values<float>(*sm), (std::vector<float>{6, 11, 8}));
  auto me = t.Run1("Mean", {a, b, c});
  ASSERT_TRUE(me.ok());
  EXPECT_FLOATS_NEAR(Values<float>(*me), (std::vector<float>{2, 11.0f / 3, 8.0f / 3}), 1e-6);
  auto one = t.Run1("Sum", {a});
  ASSERT_TRUE(one.ok());
  EXPECT_EQ(Values<float>(*one), (std::vector<float>{3, 2, 1}));
  auto bc = t.Run1("Max", {Tensor::FromVector<int32_t>({1, 5}, {2, 1}), Tensor::FromVector<int32_t>({2, 3, 4}, {3})});
  ASSERT_TRUE(bc.ok());
  EXPECT_EQ(Values<int32_t>(*bc), (std::vector<int32_t>{2, 3, 4, 5, 5, 5}));
  auto h = t.Run1("Sum", {HalfTensor<float16>({1.0f, 2.0f}, {2}), HalfTensor<float16>({0.5f}, {1})});
  ASSERT_TRUE(h.ok());
  EXPECT_EQ(AsFloats(*h), (std::vector<float>{1.5f, 2.5f}));
  const float nan = std::numeric_limits<float>::quiet_NaN();
  auto n = t.Run1("Max", {Tensor::FromVector<float>({nan, 1}, {2}), Tensor::FromVector<float>({1, nan}, {2})});
  ASSERT_TRUE(n.ok());
  EXPECT_TRUE(std::isnan(n->data<float>()[0]) && std::isnan(n->data<float>()[1]));
  EXPECT_FALSE(t.Run1("Max", {a, Tensor::FromVector<float>({1, 2}, {2})}).ok());
  EXPECT_FALSE(t.Run1("Sum", {a, Tensor::FromVector<double>({1, 2, 3}, {3})}).ok());
}

}  // namespace
}  // namespace ge::ref::elementwise::testing
