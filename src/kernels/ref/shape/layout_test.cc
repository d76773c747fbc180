#include "kernels/ref/shape/shape_test_util.h"

namespace ge::ref::shape_family::testing {
namespace {

using ir::AttrValue;

Tensor IotaF(const Dims& dims) {
  Tensor t = Tensor::Create(DataType::kFloat, dims).value();
  for (int64_t i = 0; i < t.numel(); ++i) t.data<float>()[i] = static_cast<float>(i);
  return t;
}

TEST(TransposeTest, PermAndDefault) {
  OpTester t = MakeTester();
  Tensor x = IotaF({2, 3});
  auto y = t.Run1("Transpose", {x});
  ASSERT_TRUE(y.ok());
  EXPECT_TENSOR_EQ(*y, Tensor::FromVector<float>({0, 3, 1, 4, 2, 5}, {3, 2}));
  Tensor x3 = IotaF({2, 3, 4});
  auto y3 = t.Run1("Transpose", {x3}, Attrs({{"perm", AttrValue::Ints({1, 2, 0})}}));
  ASSERT_TRUE(y3.ok());
  EXPECT_EQ(y3->dims(), (Dims{3, 4, 2}));
  // y[i][j][k] = x[k][i][j]
  EXPECT_EQ(y3->data<float>()[1 * 8 + 2 * 2 + 1], x3.data<float>()[1 * 12 + 1 * 4 + 2]);
  EXPECT_FALSE(t.Run1("Transpose", {x3}, Attrs({{"perm", AttrValue::Ints({0, 0, 1})}})).ok());
}

TEST(TransposeTest, StringsAndInference) {
  OpTester t = MakeTester();
  Tensor s = Tensor::Create(DataType::kString, {2, 2}).value();
  const char* v[] = {"a", "b", "c", "d"};
  for (int i = 0; i < 4; ++i) s.data<std::string>()[i] = v[i];
  auto y = t.Run1("Transpose", {s});
  ASSERT_TRUE(y.ok());
  EXPECT_EQ(y->data<std::string>()[1], "c");
  Shape in;
  in.AddDim(kUnknownDim, "b");
  in.AddDim(5);
  auto out = Infer("Transpose", {TensorDesc(DataType::kFloat, in)}, {});
  ASSERT_TRUE(out.ok());
  EXPECT_EQ((*out)[0].shape.ToString(), "[5,b]");
}

TEST(ConcatTest, AxesAndTypes) {
  OpTester t = MakeTester();
  Tensor a = Tensor::FromVector<int64_t>({1, 2, 3, 4}, {2, 2});
  Tensor b = Tensor::FromVector<int64_t>({5, 6}, {2, 1});
  auto y = t.Run1("Concat", {a, b}, Attrs({{"axis", AttrValue::Int(-1)}}));
  ASSERT_TRUE(y.ok()) << y.status().ToString();
  EXPECT_TENSOR_EQ(*y, Tensor::FromVector<int64_t>({1, 2, 5, 3, 4, 6}, {2, 3}));
  auto y0 = t.Run1("Concat", {a, a}, Attrs({{"axis", AttrValue::Int(0)}}));
  ASSERT_TRUE(y0.ok());
  EXPECT_EQ(y0->dims(), (Dims{4, 2}));
  EXPECT_FALSE(t.Run1("Concat", {a, b}, Attrs({{"axis", AttrValue::Int(0)}})).ok());
  EXPECT_FALSE(t.Run1("Concat", {a, b}).ok());  // axis required
  auto out = Infer("Concat", {Desc(DataType::kFloat, {-1, 3}), Desc(DataType::kFloat, {2, 3})}, {},
                   Attrs({{"axis", AttrValue::Int(0)}}));
  ASSERT_TRUE(out.ok());
  EXPECT_EQ((*out)[0].shape.ToString(), "[?,3]");
}

TEST(SplitTest, InputAttributeAndEqual) {
  OpTester t = MakeTester();
  Tensor x = IotaF({2, 6});
  auto outs = t.Run("Split", {x, I64({2, 4})}, Attrs({{"axis", AttrValue::Int(1)}}), 2);
  ASSERT_TRUE(outs.ok()) << outs.status().ToString();
  EXPECT_TENSOR_EQ((*outs)[0].tensor, Tensor::FromVector<float>({0, 1, 6, 7}, {2, 2}));
  EXPECT_TENSOR_EQ((*outs)[1].tensor, Tensor::FromVector<float>({2, 3, 4, 5, 8, 9, 10, 11}, {2, 4}));
  auto eq = t.Run("Split", {x}, Attrs({{"axis", AttrValue::Int(1)}}), 3);
  ASSERT_TRUE(eq.ok());
  EXPECT_TENSOR_EQ((*eq)[2].tensor, Tensor::FromVector<float>({4, 5, 10, 11}, {2, 2}));
  auto old = t.Run("Split", {x}, Attrs({{"axis", AttrValue::Int(1)}, {"split", AttrValue::Ints({1, 5})}}), 2, 11);
  ASSERT_TRUE(old.ok()) << old.status().ToString();
  EXPECT_EQ((*old)[1].tensor.dims(), (Dims{2, 5}));
  EXPECT_FALSE(t.Run("Split", {x, I64({2, 3})}, Attrs({{"axis", AttrValue::Int(1)}}), 2).ok());
  EXPECT_FALSE(t.Run("Split", {x}, Attrs({{"axis", AttrValue::Int(1)}}), 4).ok());
}

TEST(ExpandTest, Broadcasts) {
  OpTester t = MakeTester();
  Tensor x = Tensor::FromVector<float>({1, 2, 3}, {3, 1});
  auto y = t.Run1("Expand", {x, I64({2, 1, 2})});
  ASSERT_TRUE(y.ok()) << y.status().ToString();
  EXPECT_TENSOR_EQ(*y, Tensor::FromVector<float>({1, 1, 2, 2, 3, 3, 1, 1, 2, 2, 3, 3}, {2, 3, 2}));
  auto y2 = t.Run1("Expand", {x, I64({3, 1})});  // shape smaller than the input's dims
  ASSERT_TRUE(y2.ok());
  EXPECT_EQ(y2->dims(), (Dims{3, 1}));
  EXPECT_FALSE(t.Run1("Expand", {x, I64({2, 4})}).ok());
}

TEST(TileTest, Repeats) {
  OpTester t = MakeTester();
  Tensor x = Tensor::FromVector<int32_t>({1, 2, 3, 4}, {2, 2});
  auto y = t.Run1("Tile", {x, I64({2, 1})});
  ASSERT_TRUE(y.ok()) << y.status().ToString();
  EXPECT_TENSOR_EQ(*y, Tensor::FromVector<int32_t>({1, 2, 3, 4, 1, 2, 3, 4}, {4, 2}));
  auto y2 = t.Run1("Tile", {x, I64({1, 2})});
  ASSERT_TRUE(y2.ok());
  EXPECT_TENSOR_EQ(*y2, Tensor::FromVector<int32_t>({1, 2, 1, 2, 3, 4, 3, 4}, {2, 4}));
  EXPECT_FALSE(t.Run1("Tile", {x, I64({2})}).ok());
}

TEST(DepthToSpaceTest, DcrAndCrd) {
  OpTester t = MakeTester();
  Tensor x = IotaF({1, 8, 1, 1});
  auto dcr = t.Run1("DepthToSpace", {x}, Attrs({{"blocksize", AttrValue::Int(2)}}));
  ASSERT_TRUE(dcr.ok()) << dcr.status().ToString();
  // DCR: out[c][i][j] = in[(i*2+j)*2 + c]
  EXPECT_TENSOR_EQ(*dcr, Tensor::FromVector<float>({0, 2, 4, 6, 1, 3, 5, 7}, {1, 2, 2, 2}));
  auto crd = t.Run1("DepthToSpace", {x},
                    Attrs({{"blocksize", AttrValue::Int(2)}, {"mode", AttrValue::String("CRD")}}));
  ASSERT_TRUE(crd.ok());
  EXPECT_TENSOR_EQ(*crd, Tensor::FromVector<float>({0, 1, 2, 3, 4, 5, 6, 7}, {1, 2, 2, 2}));
  EXPECT_FALSE(t.Run1("DepthToSpace", {IotaF({1, 6, 1, 1})}, Attrs({{"blocksize", AttrValue::Int(2)}})).ok());
}

TEST(SpaceToDepthTest, InvertsDepthToSpace) {
  OpTester t = MakeTester();
  Tensor x = IotaF({1, 2, 4, 6});
  auto s2d = t.Run1("SpaceToDepth", {x}, Attrs({{"blocksize", AttrValue::Int(2)}}));
  ASSERT_TRUE(s2d.ok()) << s2d.status().ToString();
  EXPECT_EQ(s2d->dims(), (Dims{1, 8, 2, 3}));
  auto back = t.Run1("DepthToSpace", {*s2d}, Attrs({{"blocksize", AttrValue::Int(2)}}));
  ASSERT_TRUE(back.ok());
  EXPECT_TENSOR_EQ(*back, x);
  EXPECT_FALSE(t.Run1("SpaceToDepth", {IotaF({1, 2, 3, 4})}, Attrs({{"blocksize", AttrValue::Int(2)}})).ok());
}

}  // namespace
}  // namespace ge::ref::shape_family::testing
