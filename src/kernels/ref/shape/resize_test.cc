#include "kernels/ref/shape/shape_test_util.h"

namespace ge::ref::shape_family::testing {
namespace {

using ir::AttrValue;

Tensor Scales(std::vector<float> v) { return T1<float>(v); }

TEST(ResizeTest, NearestUpsampleScales) {
  OpTester t = MakeTester();
  Tensor x = Tensor::FromVector<float>({1, 2, 3, 4}, {1, 1, 2, 2});
  auto y = t.Run1("Resize", {x, Tensor(), Scales({1, 1, 2, 3})}, Attrs({{"mode", AttrValue::String("nearest")}}));
  ASSERT_TRUE(y.ok()) << y.status().ToString();
  EXPECT_TENSOR_EQ(*y, Tensor::FromVector<float>({1, 1, 1, 2, 2, 2, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 3, 3, 3, 4, 4,
                                                  4},
                                                 {1, 1, 4, 6}));
  // Integer data through nearest keeps exact values.
  Tensor xi = Tensor::FromVector<int64_t>({INT64_MAX, 2}, {1, 2});
  auto yi = t.Run1("Resize", {xi, Tensor(), Tensor(), I64({1, 4})});
  ASSERT_TRUE(yi.ok()) << yi.status().ToString();
  EXPECT_EQ(yi->data<int64_t>()[0], INT64_MAX);
  EXPECT_EQ(yi->data<int64_t>()[3], 2);
}

TEST(ResizeTest, LinearDownsample) {
  OpTester t = MakeTester();
  Tensor x = Tensor::FromVector<float>({1, 2, 3, 4, 5, 6, 7, 8}, {1, 1, 2, 4});
  auto y = t.Run1("Resize", {x, Tensor(), Scales({1, 1, 0.6f, 0.6f})}, Attrs({{"mode", AttrValue::String("linear")}}));
  ASSERT_TRUE(y.ok()) << y.status().ToString();
  EXPECT_TENSOR_NEAR(*y, Tensor::FromVector<float>({2.6666665f, 4.3333331f}, {1, 1, 1, 2}), 1e-5);
  auto a = t.Run1("Resize", {x, Tensor(), Scales({1, 1, 0.6f, 0.6f})},
                  Attrs({{"mode", AttrValue::String("linear")},
                         {"coordinate_transformation_mode", AttrValue::String("align_corners")}}));
  ASSERT_TRUE(a.ok());
  EXPECT_TENSOR_NEAR(*a, Tensor::FromVector<float>({1, 3.142857f}, {1, 1, 1, 2}), 1e-5);
}

TEST(ResizeTest, CubicKeepsConstantsAndDoubles) {
  OpTester t = MakeTester();
  Tensor x = Tensor::FromVector<double>(std::vector<double>(16, 2.5), {4, 4});
  auto y = t.Run1("Resize", {x, Tensor(), Scales({2, 1.5f})}, Attrs({{"mode", AttrValue::String("cubic")}}));
  ASSERT_TRUE(y.ok()) << y.status().ToString();
  EXPECT_EQ(y->dims(), (Dims{8, 6}));
  EXPECT_TENSOR_NEAR(*y, Tensor::FromVector<double>(std::vector<double>(48, 2.5), {8, 6}), 1e-12);
}

TEST(ResizeTest, CropAndResizeExtrapolates) {
  OpTester t = MakeTester();
  Tensor x = Tensor::FromVector<float>({1, 2, 3, 4}, {2, 2});
  Tensor roi = Scales({0, 0, 1, 2});  // the second axis runs past the input
  auto y = t.Run1("Resize", {x, roi, Tensor(), I64({2, 3})},
                  Attrs({{"mode", AttrValue::String("linear")},
                         {"coordinate_transformation_mode", AttrValue::String("tf_crop_and_resize")},
                         {"extrapolation_value", AttrValue::Float(10)}}));
  ASSERT_TRUE(y.ok()) << y.status().ToString();
  EXPECT_TENSOR_NEAR(*y, Tensor::FromVector<float>({1, 2, 10, 3, 4, 10}, {2, 3}), 1e-6);
}

TEST(ResizeTest, BadArguments) {
  OpTester t = MakeTester();
  Tensor x = Tensor::FromVector<float>({1, 2, 3, 4}, {2, 2});
  EXPECT_FALSE(t.Run1("Resize", {x, Tensor(), Scales({2})}).ok());
  EXPECT_FALSE(t.Run1("Resize", {x, Tensor(), Scales({2, -1})}).ok());
  EXPECT_FALSE(t.Run1("Resize", {x, Tensor(), Scales({2, 2})}, Attrs({{"mode", AttrValue::String("area")}})).ok());
  EXPECT_FALSE(t.Run1("Resize", {x, Tensor(), Scales({2, 2}), I64({4, 4})}).ok());
}

TEST(ResizeTest, InferenceWithUnknownDims) {
  Shape in;
  in.AddDim(kUnknownDim, "n");
  in.AddDim(3);
  in.AddDim(kUnknownDim);
  in.AddDim(10);
  Tensor scales = Scales({1, 1, 2, 2});
  auto out = Infer("Resize", {TensorDesc(DataType::kFloat, in), Desc(DataType::kFloat, {0}),
                              Desc(DataType::kFloat, {4})},
                   {nullptr, nullptr, &scales});
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_EQ((*out)[0].shape.ToString(), "[n,3,?,20]");
}

TEST(UpsampleTest, NearestOpset9And7) {
  OpTester t = MakeTester();
  Tensor x = Tensor::FromVector<float>({1, 2, 3, 4}, {1, 1, 2, 2});
  auto y = t.Run1("Upsample", {x, Scales({1, 1, 2, 3})}, Attrs({{"mode", AttrValue::String("nearest")}}), 9);
  ASSERT_TRUE(y.ok()) << y.status().ToString();
  EXPECT_EQ(y->dims(), (Dims{1, 1, 4, 6}));
  EXPECT_EQ(y->data<float>()[6 * 2 + 3], 4.0f);
  auto y7 = t.Run1("Upsample", {x}, Attrs({{"scales", AttrValue::Floats({1, 1, 2, 2})},
                                           {"mode", AttrValue::String("linear")}}), 7);
  ASSERT_TRUE(y7.ok()) << y7.status().ToString();
  // Asymmetric linear: row 0 = 1, 1.5, 2, 2
  EXPECT_TENSOR_NEAR(*y7, Tensor::FromVector<float>({1, 1.5f, 2, 2, 2, 2.5f, 3, 3, 3, 3.5f, 4, 4, 3, 3.5f, 4, 4},
                                                    {1, 1, 4, 4}),
                     1e-6);
}

}  // namespace
}  // namespace ge::ref::shape_family::testing
