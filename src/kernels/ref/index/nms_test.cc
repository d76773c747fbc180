#include "kernels/ref/index/index_test_util.h"

namespace ge::ref::index_test {
namespace {

Tensor CornerBoxes() {
  return Tensor::FromVector<float>({0.0f, 0.0f, 1.0f, 1.0f, 0.0f, 0.1f, 1.0f, 1.1f, 0.0f, -0.1f, 1.0f, 0.9f,
                                    0.0f, 10.0f, 1.0f, 11.0f, 0.0f, 10.1f, 1.0f, 11.1f, 0.0f, 100.0f, 1.0f, 101.0f},
                                   {1, 6, 4});
}
Tensor Scores() { return Tensor::FromVector<float>({0.9f, 0.75f, 0.6f, 0.95f, 0.5f, 0.3f}, {1, 1, 6}); }

TEST(NonMaxSuppressionTest, SuppressByIou) {
  auto t = MakeTester();
  auto out = t.Run1("NonMaxSuppression", {CornerBoxes(), Scores(), Tensor::FromVector<int64_t>({3}, {1}),
                                          Tensor::FromVector<float>({0.5f}, {1}), Tensor::FromVector<float>({0.0f}, {1})});
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  ExpectTensor<int64_t>(*out, {0, 0, 3, 0, 0, 0, 0, 0, 5}, {3, 3});
  // Score threshold 0.4 drops box 5; limit 2 keeps the first two.
  out = t.Run1("NonMaxSuppression", {CornerBoxes(), Scores(), Tensor::FromVector<int64_t>({2}, {1}),
                                     Tensor::FromVector<float>({0.5f}, {1}), Tensor::FromVector<float>({0.4f}, {1})});
  ASSERT_TRUE(out.ok());
  ExpectTensor<int64_t>(*out, {0, 0, 3, 0, 0, 0}, {2, 3});
}

TEST(NonMaxSuppressionTest, CenterPointBoxAndTwoClasses) {
  auto t = MakeTester();
  Tensor boxes = Tensor::FromVector<float>({0.5f, 0.5f, 1.0f, 1.0f, 0.5f, 0.6f, 1.0f, 1.0f, 0.5f, 0.4f, 1.0f, 1.0f,
                                            0.5f, 10.5f, 1.0f, 1.0f, 0.5f, 10.6f, 1.0f, 1.0f, 0.5f, 100.5f, 1.0f, 1.0f},
                                           {1, 6, 4});
  auto out = t.Run1("NonMaxSuppression", {boxes, Scores(), Tensor::FromVector<int64_t>({3}, {1}),
                                          Tensor::FromVector<float>({0.5f}, {1}), Tensor::FromVector<float>({0.0f}, {1})},
                    Attrs({{"center_point_box", 1}}));
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  ExpectTensor<int64_t>(*out, {0, 0, 3, 0, 0, 0, 0, 0, 5}, {3, 3});

  Tensor scores2 = Tensor::FromVector<float>({0.9f, 0.75f, 0.6f, 0.95f, 0.5f, 0.3f, 0.9f, 0.75f, 0.6f, 0.95f, 0.5f, 0.3f},
                                             {1, 2, 6});
  out = t.Run1("NonMaxSuppression", {CornerBoxes(), scores2, Tensor::FromVector<int64_t>({2}, {1}),
                                     Tensor::FromVector<float>({0.5f}, {1})});
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  ExpectTensor<int64_t>(*out, {0, 0, 3, 0, 0, 0, 0, 1, 3, 0, 1, 0}, {4, 3});
}

TEST(NonMaxSuppressionTest, OptionalInputsAndErrors) {
  auto t = MakeTester();
  // Without max_output_boxes_per_class nothing is selected.
  auto out = t.Run1("NonMaxSuppression", {CornerBoxes(), Scores()});
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  ExpectTensor<int64_t>(*out, {}, {0, 3});
  // iou_threshold omitted (0): any overlap suppresses.
  out = t.Run1("NonMaxSuppression", {CornerBoxes(), Scores(), Tensor::FromVector<int64_t>({10}, {1})});
  ASSERT_TRUE(out.ok());
  ExpectTensor<int64_t>(*out, {0, 0, 3, 0, 0, 0, 0, 0, 5}, {3, 3});

  EXPECT_FALSE(t.Run1("NonMaxSuppression", {CornerBoxes(), Tensor::FromVector<float>({0.5f}, {1, 1, 1})}).ok());
  EXPECT_FALSE(t.Run1("NonMaxSuppression", {CornerBoxes(), Scores(), Tensor::FromVector<int64_t>({3}, {1}),
                                            Tensor::FromVector<float>({1.5f}, {1})}).ok());
  auto inf = InferOnly("NonMaxSuppression", {TensorDesc(DataType::kFloat, ShapeOf({kUnknownDim, kUnknownDim, 4})),
                                             TensorDesc(DataType::kFloat, Shape::UnknownRank())});
  ASSERT_TRUE(inf.ok()) << inf.status().ToString();
  EXPECT_EQ((*inf)[0].shape.ToString(), ShapeOf({kUnknownDim, 3}).ToString());
}

}  // namespace
}  // namespace ge::ref::index_test
