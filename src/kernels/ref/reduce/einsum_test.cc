#include "kernels/ref/reduce/reduce_test_util.h"

namespace ge::ref::reduce_test {
namespace {

using ir::AttrValue;

ir::AttrMap Eq(const char* e) { return Attrs({{"equation", AttrValue::String(e)}}); }

TEST(Einsum, MatmulImplicitAndExplicit) {
  auto t = MakeTester();
  Tensor a = F({1, 2, 3, 4, 5, 6}, {2, 3});
  Tensor b = F({1, 0, 0, 1, 1, 1}, {3, 2});
  for (const char* e : {"ij,jk->ik", "ij,jk", "ij, jk -> ik"}) {
    auto y = t.Run1("Einsum", {a, b}, Eq(e));
    ASSERT_TRUE(y.ok()) << e << ": " << y.status().ToString();
    EXPECT_EQ(y->dims(), (Dims{2, 2}));
    EXPECT_EQ(AsDoubles(*y), (std::vector<double>{4, 5, 10, 11})) << e;
  }
  // Implicit output sorts labels: "ba" -> "ab" is a transpose; uppercase sorts before lowercase.
  auto tr = t.Run1("Einsum", {a}, Eq("ba"));
  ASSERT_TRUE(tr.ok());
  EXPECT_EQ(tr->dims(), (Dims{3, 2}));
  EXPECT_EQ(AsDoubles(*tr), (std::vector<double>{1, 4, 2, 5, 3, 6}));
  auto up = t.Run1("Einsum", {a}, Eq("aB"));
  ASSERT_TRUE(up.ok());
  EXPECT_EQ(up->dims(), (Dims{3, 2}));
}

TEST(Einsum, DiagonalTraceSumAndOuter) {
  auto t = MakeTester();
  Tensor m = F({1, 2, 3, 4, 5, 6, 7, 8, 9}, {3, 3});
  auto tr = t.Run1("Einsum", {m}, Eq("ii"));
  ASSERT_TRUE(tr.ok());
  EXPECT_EQ(tr->rank(), 0);
  EXPECT_EQ(AsDoubles(*tr), (std::vector<double>{15}));
  auto dg = t.Run1("Einsum", {m}, Eq("ii->i"));
  ASSERT_TRUE(dg.ok());
  EXPECT_EQ(AsDoubles(*dg), (std::vector<double>{1, 5, 9}));
  auto rs = t.Run1("Einsum", {m}, Eq("ij->i"));
  ASSERT_TRUE(rs.ok());
  EXPECT_EQ(AsDoubles(*rs), (std::vector<double>{6, 15, 24}));
  auto all = t.Run1("Einsum", {m}, Eq("ij->"));
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(AsDoubles(*all), (std::vector<double>{45}));
  auto outer = t.Run1("Einsum", {F({1, 2}, {2}), F({3, 4, 5}, {3})}, Eq("i,j->ij"));
  ASSERT_TRUE(outer.ok());
  EXPECT_EQ(AsDoubles(*outer), (std::vector<double>{3, 4, 5, 6, 8, 10}));
  auto inner = t.Run1("Einsum", {F({1, 2, 3}, {3}), F({4, 5, 6}, {3})}, Eq("i,i"));
  ASSERT_TRUE(inner.ok());
  EXPECT_EQ(AsDoubles(*inner), (std::vector<double>{32}));
}

TEST(Einsum, EllipsisBroadcastAndBatchDiagonal) {
  auto t = MakeTester();
  // Batch diagonal "...ii->...i" over [2, 2, 2].
  auto bd = t.Run1("Einsum", {F({1, 2, 3, 4, 5, 6, 7, 8}, {2, 2, 2})}, Eq("...ii->...i"));
  ASSERT_TRUE(bd.ok()) << bd.status().ToString();
  EXPECT_EQ(bd->dims(), (Dims{2, 2}));
  EXPECT_EQ(AsDoubles(*bd), (std::vector<double>{1, 4, 5, 8}));
  // Batch matmul with a broadcast batch dim: [2,1,2] x [1,2,1] -> [2,1,1].
  auto bm = t.Run1("Einsum", {F({1, 2, 3, 4}, {2, 1, 2}), F({10, 1}, {1, 2, 1})}, Eq("...ij,...jk->...ik"));
  ASSERT_TRUE(bm.ok()) << bm.status().ToString();
  EXPECT_EQ(bm->dims(), (Dims{2, 1, 1}));
  EXPECT_EQ(AsDoubles(*bm), (std::vector<double>{12, 34}));
  // Implicit mode puts ellipsis dims first; inputs of different ellipsis rank broadcast right-aligned.
  auto im = t.Run1("Einsum", {F({1, 2, 3, 4, 5, 6}, {3, 2}), F({1, 10}, {2})}, Eq("...i,...i"));
  ASSERT_TRUE(im.ok()) << im.status().ToString();
  EXPECT_EQ(im->dims(), (Dims{3}));
  EXPECT_EQ(AsDoubles(*im), (std::vector<double>{21, 43, 65}));
  auto ints = t.Run1("Einsum", {Tensor::FromVector<int32_t>({1, 2, 3, 4}, {2, 2})}, Eq("ij->ji"));
  ASSERT_TRUE(ints.ok());
  EXPECT_EQ(ints->dtype(), DataType::kInt32);
  EXPECT_EQ(AsDoubles(*ints), (std::vector<double>{1, 3, 2, 4}));
}

TEST(Einsum, BadEquations) {
  auto t = MakeTester();
  Tensor a = F({1, 2, 3, 4, 5, 6}, {2, 3});
  EXPECT_FALSE(t.Run1("Einsum", {a}, Eq("ijk->i")).ok());
  EXPECT_FALSE(t.Run1("Einsum", {a}, Eq("ij->k")).ok());
  EXPECT_FALSE(t.Run1("Einsum", {a}, Eq("ij->ii")).ok());
  EXPECT_FALSE(t.Run1("Einsum", {a, a}, Eq("ij,jk->ik")).ok());  // 3 vs 2
  EXPECT_FALSE(t.Run1("Einsum", {a}, Eq("i1->i")).ok());
  EXPECT_FALSE(t.Run1("Einsum", {a}, Eq("ij,j->i")).ok());
  EXPECT_FALSE(t.Run1("Einsum", {a}, {}).ok());
}

TEST(Einsum, InferenceWithUnknownDims) {
  auto t = MakeTester();
  Shape s1;
  s1.AddDim(kUnknownDim, "b");
  s1.AddDim(4);
  s1.AddDim(8);
  Shape s2;
  s2.AddDim(kUnknownDim);
  s2.AddDim(8);
  s2.AddDim(16);
  auto o = InferOnly(t, "Einsum", {TensorDesc(DataType::kFloat, s1), TensorDesc(DataType::kFloat, s2)},
                     Eq("bij,bjk->bik"));
  ASSERT_TRUE(o.ok()) << o.status().ToString();
  EXPECT_EQ((*o)[0].shape.ToString(), "[?,4,16]");
}

}  // namespace
}  // namespace ge::ref::reduce_test
