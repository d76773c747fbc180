#include <gtest/gtest.h>

#include "kernels/ref/families.h"
#include "kernels/ref/testing/op_tester.h"
#include "ops/families.h"

namespace ge::ref::nn {
namespace {

using ge::ref::testing::OpTester;

OpTester Tester() { return OpTester(ge::ops::RegisterNnOps, ge::ref::RegisterNnRefKernels); }

TEST(NnDropout, InferenceIsIdentityAndTrainingScales) {
  auto t = Tester();
  Tensor x = Tensor::FromVector<float>({1, 2, 3, 4}, {2, 2});
  auto outs = t.Run("Dropout", {x}, ir::AttrMap(), 2);
  ASSERT_TRUE(outs.ok()) << outs.status().ToString();
  EXPECT_TRUE(TensorsMatch((*outs)[0].tensor, x, 0.0));
  EXPECT_EQ((*outs)[1].tensor.dtype(), DataType::kBool);
  EXPECT_TRUE((*outs)[1].tensor.data<bool>()[3]);
  std::vector<float> big(1000, 1.f);
  ir::AttrMap seed;
  seed.Set("seed", ir::AttrValue::Int(3));
  outs = t.Run("Dropout", {Tensor::FromVector(big, {1000}), Tensor::Scalar<float>(0.25f), Tensor::Scalar<bool>(true)},
               seed, 2);
  ASSERT_TRUE(outs.ok()) << outs.status().ToString();
  int kept = 0;
  for (int i = 0; i < 1000; ++i) {
    const bool k = (*outs)[1].tensor.data<bool>()[i];
    kept += k;
    EXPECT_FLOAT_EQ((*outs)[0].tensor.data<float>()[i], k ? 1.f / 0.75f : 0.f);
  }
  EXPECT_GT(kept, 650);
  EXPECT_LT(kept, 850);
  EXPECT_FALSE(t.Run("Dropout", {x, Tensor::Scalar<float>(1.5f), Tensor::Scalar<bool>(true)}, ir::AttrMap(), 1).ok());
}

TEST(NnRoiAlign, AverageOverConstantPlaneAndErrors) {
  auto t = Tester();
  std::vector<float> plane(5 * 5);
  for (int i = 0; i < 25; ++i) plane[i] = static_cast<float>(i % 5);  // value = x coordinate
  Tensor x = Tensor::FromVector(plane, {1, 1, 5, 5});
  ir::AttrMap a;
  a.Set("output_height", ir::AttrValue::Int(1));
  a.Set("output_width", ir::AttrValue::Int(2));
  a.Set("sampling_ratio", ir::AttrValue::Int(2));
  a.Set("coordinate_transformation_mode", ir::AttrValue::String("output_half_pixel"));
  auto y = t.Run1("RoiAlign", {x, Tensor::FromVector<float>({0, 0, 4, 4}, {1, 4}), Tensor::FromVector<int64_t>({0}, {1})}, a);
  ASSERT_TRUE(y.ok()) << y.status().ToString();
  // Bins [0,2) and [2,4) in x, sampled at x = 0.5, 1.5 and 2.5, 3.5.
  EXPECT_TRUE(TensorsMatch(*y, Tensor::FromVector<float>({1, 3}, {1, 1, 1, 2}), 1e-6));
  EXPECT_FALSE(t.Run1("RoiAlign", {x, Tensor::FromVector<float>({0, 0, 4, 4}, {1, 4}), Tensor::FromVector<int64_t>({1}, {1})}, a).ok());
}

TEST(NnGridSample, ModesAndPadding) {
  auto t = Tester();
  Tensor x = Tensor::FromVector<float>({0, 1, 2, 3}, {1, 1, 2, 2});
  // align_corners=1: -1 and 1 hit the corner pixel centres; 0 is the middle.
  Tensor grid = Tensor::FromVector<float>({-1, -1, 0, 0, 1, 1, 2, 0}, {1, 1, 4, 2});
  ir::AttrMap a;
  a.Set("align_corners", ir::AttrValue::Int(1));
  auto y = t.Run1("GridSample", {x, grid}, a);
  ASSERT_TRUE(y.ok()) << y.status().ToString();
  // x = 2 maps to column 1.5 outside... with zeros padding the right neighbour reads 0: 0.5 * (1 + 3)/2 = 1.
  EXPECT_TRUE(TensorsMatch(*y, Tensor::FromVector<float>({0, 1.5f, 3, 1}, {1, 1, 1, 4}), 1e-6));
  a.Set("padding_mode", ir::AttrValue::String("border"));
  y = t.Run1("GridSample", {x, grid}, a);
  ASSERT_TRUE(y.ok());
  EXPECT_TRUE(TensorsMatch(*y, Tensor::FromVector<float>({0, 1.5f, 3, 2}, {1, 1, 1, 4}), 1e-6));
  a.Set("mode", ir::AttrValue::String("nearest"));
  a.Set("padding_mode", ir::AttrValue::String("zeros"));
  y = t.Run1("GridSample", {x, Tensor::FromVector<float>({-1, -1, 1, 1}, {1, 1, 2, 2})}, a);
  ASSERT_TRUE(y.ok());
  EXPECT_TRUE(TensorsMatch(*y, Tensor::FromVector<float>({0, 3}, {1, 1, 1, 2}), 1e-6));
  a.Set("mode", ir::AttrValue::String("bicubic"));
  y = t.Run1("GridSample", {x, Tensor::FromVector<float>({-1, -1}, {1, 1, 1, 2})}, a);
  ASSERT_TRUE(y.ok());
  EXPECT_NEAR(y->data<float>()[0], 0.f, 1e-6);
  a.Set("mode", ir::AttrValue::String("cubic"));
  EXPECT_FALSE(t.Run1("GridSample", {x, grid}, a).ok());
}

}  // namespace
}  // namespace ge::ref::nn
