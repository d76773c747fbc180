#include "kernels/ref/index/index_test_util.h"

namespace ge::ref::index_test {
namespace {

ir::AttrMap Reduction(const std::string& r, int64_t axis = 0) {
  ir::AttrMap a = Attrs({{"axis", axis}});
  a.Set("reduction", ir::AttrValue::String(r));
  return a;
}

TEST(ScatterElementsTest, SpecExamples) {
  auto t = MakeTester();
  Tensor data = Tensor::FromVector<float>(std::vector<float>(9, 0.0f), {3, 3});
  Tensor idx = Tensor::FromVector<int64_t>({1, 0, 2, 0, 2, 1}, {2, 3});
  Tensor upd = Tensor::FromVector<float>({1.0f, 1.1f, 1.2f, 2.0f, 2.1f, 2.2f}, {2, 3});
  auto out = t.Run1("ScatterElements", {data, idx, upd});
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  ExpectTensor<float>(*out, {2.0f, 1.1f, 0.0f, 1.0f, 0.0f, 2.2f, 0.0f, 2.1f, 1.2f}, {3, 3});

  Tensor d2 = Tensor::FromVector<float>({1, 2, 3, 4, 5}, {1, 5});
  out = t.Run1("ScatterElements", {d2, Tensor::FromVector<int32_t>({1, -2}, {1, 2}),
                                   Tensor::FromVector<float>({1.1f, 2.1f}, {1, 2})},
               Attrs({{"axis", 1}}));
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  ExpectTensor<float>(*out, {1.0f, 1.1f, 3.0f, 2.1f, 5.0f}, {1, 5});
}

TEST(ScatterElementsTest, Reductions) {
  auto t = MakeTester();
  Tensor d = Tensor::FromVector<int64_t>({1, 2, 3, 4, 5}, {1, 5});
  Tensor idx = Tensor::FromVector<int64_t>({1, 1}, {1, 2});
  Tensor upd = Tensor::FromVector<int64_t>({10, 20}, {1, 2});
  auto out = t.Run1("ScatterElements", {d, idx, upd}, Reduction("add", 1));
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  ExpectTensor<int64_t>(*out, {1, 32, 3, 4, 5}, {1, 5});
  out = t.Run1("ScatterElements", {d, idx, upd}, Reduction("mul", 1));
  ASSERT_TRUE(out.ok());
  ExpectTensor<int64_t>(*out, {1, 400, 3, 4, 5}, {1, 5});
  Tensor h = Tensor::FromVector<float16>({float16(1.0f), float16(2.0f)}, {2});
  out = t.Run1("ScatterElements", {h, Tensor::FromVector<int64_t>({0, 0}, {2}),
                                   Tensor::FromVector<float16>({float16(0.5f), float16(0.25f)}, {2})},
               Reduction("add"));
  ASSERT_TRUE(out.ok());
  ExpectTensor<float16>(*out, {float16(1.75f), float16(2.0f)}, {2});
  // Reductions did not exist before opset 16.
  EXPECT_FALSE(t.Run("ScatterElements", {d, idx, upd}, Reduction("add", 1), 1, 13).ok());
}

TEST(ScatterElementsTest, DeprecatedScatterAndErrors) {
  auto t = MakeTester();
  Tensor data = Tensor::FromVector<std::string>({"a", "b", "c"}, {3});
  auto outs = t.Run("Scatter", {data, Tensor::FromVector<int64_t>({2}, {1}), Tensor::FromVector<std::string>({"z"}, {1})},
                    ir::AttrMap(), 1, 9);
  ASSERT_TRUE(outs.ok()) << outs.status().ToString();
  ExpectTensor<std::string>((*outs)[0].tensor, {"a", "b", "z"}, {3});
  // The input is not modified.
  ExpectTensor<std::string>(data, {"a", "b", "c"}, {3});

  Tensor f = Tensor::FromVector<float>({1, 2, 3}, {3});
  EXPECT_FALSE(t.Run1("ScatterElements", {f, Tensor::FromVector<int64_t>({3}, {1}), Tensor::FromVector<float>({0}, {1})}).ok());
  EXPECT_FALSE(t.Run1("ScatterElements", {f, Tensor::FromVector<int64_t>({0, 1}, {2}), Tensor::FromVector<float>({0}, {1})}).ok());
  EXPECT_FALSE(t.Run1("ScatterElements", {f, Tensor::FromVector<int64_t>({0}, {1}), Tensor::FromVector<double>({0}, {1})}).ok());
}

TEST(ScatterNDTest, SpecExamples) {
  auto t = MakeTester();
  Tensor data = Tensor::FromVector<float>({1, 2, 3, 4, 5, 6, 7, 8}, {8});
  Tensor idx = Tensor::FromVector<int64_t>({4, 3, 1, 7}, {4, 1});
  Tensor upd = Tensor::FromVector<float>({9, 10, 11, 12}, {4});
  auto out = t.Run1("ScatterND", {data, idx, upd});
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  ExpectTensor<float>(*out, {1, 11, 3, 10, 9, 6, 7, 12}, {8});

  // Slices: rows of a [3, 2] tensor.
  Tensor d2 = Tensor::FromVector<int32_t>({1, 2, 3, 4, 5, 6}, {3, 2});
  out = t.Run1("ScatterND", {d2, Tensor::FromVector<int64_t>({-1, 0}, {2, 1}), Tensor::FromVector<int32_t>({7, 8, 9, 10}, {2, 2})});
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  ExpectTensor<int32_t>(*out, {9, 10, 3, 4, 7, 8}, {3, 2});
}

TEST(ScatterNDTest, ReductionsErrorsInference) {
  auto t = MakeTester();
  Tensor data = Tensor::FromVector<double>({1, 2, 3, 4}, {4});
  Tensor idx = Tensor::FromVector<int64_t>({1, 1}, {2, 1});
  Tensor upd = Tensor::FromVector<double>({3, 5}, {2});
  ir::AttrMap add;
  add.Set("reduction", ir::AttrValue::String("add"));
  auto out = t.Run1("ScatterND", {data, idx, upd}, add);
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  ExpectTensor<double>(*out, {1, 10, 3, 4}, {4});
  ir::AttrMap mul;
  mul.Set("reduction", ir::AttrValue::String("mul"));
  out = t.Run1("ScatterND", {data, idx, upd}, mul);
  ASSERT_TRUE(out.ok());
  ExpectTensor<double>(*out, {1, 30, 3, 4}, {4});

  EXPECT_FALSE(t.Run1("ScatterND", {data, Tensor::FromVector<int64_t>({4}, {1, 1}), Tensor::FromVector<double>({0}, {1})}).ok());
  EXPECT_FALSE(t.Run1("ScatterND", {data, idx, Tensor::FromVector<double>({0, 0, 0}, {3})}).ok());

  TensorDesc d(DataType::kFloat, ShapeOf({kUnknownDim, 4}));
  TensorDesc i(DataType::kInt64, ShapeOf({kUnknownDim, 1}));
  TensorDesc u(DataType::kFloat, ShapeOf({kUnknownDim, 4}));
  auto inf = InferOnly("ScatterND", {d, i, u});
  ASSERT_TRUE(inf.ok()) << inf.status().ToString();
  EXPECT_EQ((*inf)[0].shape.ToString(), d.shape.ToString());
  TensorDesc bad_u(DataType::kFloat, ShapeOf({kUnknownDim, 5}));
  EXPECT_FALSE(InferOnly("ScatterND", {d, i, bad_u}).ok());
}

}  // namespace
}  // namespace ge::ref::index_test
