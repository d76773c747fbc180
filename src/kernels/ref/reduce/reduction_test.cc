#include <cmath>

#include "kernels/ref/reduce/reduce_test_util.h"

namespace ge::ref::reduce_test {
namespace {

using ir::AttrValue;

// The ONNX spec's example data, shape [3, 2, 2].
Tensor SpecData() { return F({5, 1, 20, 2, 30, 1, 40, 2, 55, 1, 60, 2}, {3, 2, 2}); }

TEST(Reduce, SumKeepdimsAxesInput) {
  auto t = MakeTester();
  auto y = t.Run1("ReduceSum", {SpecData(), I64({1}, {1})}, Attrs({{"keepdims", AttrValue::Int(1)}}), 13);
  ASSERT_TRUE(y.ok()) << y.status().ToString();
  EXPECT_EQ(y->dims(), (Dims{3, 1, 2}));
  EXPECT_EQ(AsDoubles(*y), (std::vector<double>{25, 3, 70, 3, 115, 3}));
}

TEST(Reduce, SumAxesAttributeBeforeOpset13) {
  auto t = MakeTester();
  auto y = t.Run1("ReduceSum", {SpecData()}, Attrs({{"axes", AttrValue::Ints({-2})}, {"keepdims", AttrValue::Int(0)}}),
                  11);
  ASSERT_TRUE(y.ok()) << y.status().ToString();
  EXPECT_EQ(y->dims(), (Dims{3, 2}));
  EXPECT_EQ(AsDoubles(*y), (std::vector<double>{25, 3, 70, 3, 115, 3}));
  // An axes input is not allowed before opset 13.
  EXPECT_FALSE(t.Run1("ReduceSum", {SpecData(), I64({1}, {1})}, {}, 11).ok());
}

TEST(Reduce, SumEmptyAxes) {
  auto t = MakeTester();
  auto all = t.Run1("ReduceSum", {SpecData()}, Attrs({{"keepdims", AttrValue::Int(1)}}), 13);
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(all->dims(), (Dims{1, 1, 1}));
  EXPECT_EQ(AsDoubles(*all), (std::vector<double>{219}));
  auto noop = t.Run1("ReduceSum", {SpecData(), I64({}, {0})}, Attrs({{"noop_with_empty_axes", AttrValue::Int(1)}}), 13);
  ASSERT_TRUE(noop.ok());
  EXPECT_EQ(noop->dims(), (Dims{3, 2, 2}));
  EXPECT_TRUE(TensorsMatch(*noop, SpecData(), 0));
}

TEST(Reduce, MeanMaxMinProd) {
  auto t = MakeTester();
  auto a1 = Attrs({{"axes", AttrValue::Ints({1})}, {"keepdims", AttrValue::Int(0)}});
  auto mean = t.Run1("ReduceMean", {SpecData()}, a1);
  ASSERT_TRUE(mean.ok()) << mean.status().ToString();
  EXPECT_EQ(AsDoubles(*mean), (std::vector<double>{12.5, 1.5, 35, 1.5, 57.5, 1.5}));
  auto mx = t.Run1("ReduceMax", {SpecData()}, a1);
  ASSERT_TRUE(mx.ok());
  EXPECT_EQ(AsDoubles(*mx), (std::vector<double>{20, 2, 40, 2, 60, 2}));
  auto mn = t.Run1("ReduceMin", {SpecData()}, a1);
  ASSERT_TRUE(mn.ok());
  EXPECT_EQ(AsDoubles(*mn), (std::vector<double>{5, 1, 30, 1, 55, 1}));
  auto pr = t.Run1("ReduceProd", {SpecData()}, a1);
  ASSERT_TRUE(pr.ok());
  EXPECT_EQ(AsDoubles(*pr), (std::vector<double>{100, 2, 1200, 2, 3300, 2}));
  // Reduce the first axis (kept inner dims: the elementwise accumulation path).
  auto m0 = t.Run1("ReduceMax", {SpecData()}, Attrs({{"axes", AttrValue::Ints({0})}}));
  ASSERT_TRUE(m0.ok());
  EXPECT_EQ(m0->dims(), (Dims{1, 2, 2}));
  EXPECT_EQ(AsDoubles(*m0), (std::vector<double>{55, 1, 60, 2}));
}

TEST(Reduce, NormsAndLogs) {
  auto t = MakeTester();
  Tensor x = F({1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, {3, 2, 2});
  auto a2 = Attrs({{"axes", AttrValue::Ints({2})}, {"keepdims", AttrValue::Int(1)}});
  auto l1 = t.Run1("ReduceL1", {F({1, -2, 3, -4, 5, -6, 7, -8, 9, -10, 11, -12}, {3, 2, 2})}, a2);
  ASSERT_TRUE(l1.ok());
  EXPECT_EQ(l1->dims(), (Dims{3, 2, 1}));
  EXPECT_EQ(AsDoubles(*l1), (std::vector<double>{3, 7, 11, 15, 19, 23}));
  auto l2 = t.Run1("ReduceL2", {x}, a2);
  ASSERT_TRUE(l2.ok());
  EXPECT_NEAR_VEC(AsDoubles(*l2), (std::vector<double>{std::sqrt(5.), 5, std::sqrt(61.), std::sqrt(113.),
                                                       std::sqrt(181.), std::sqrt(265.)}), 1e-5);
  auto ss = t.Run1("ReduceSumSquare", {x}, a2);
  ASSERT_TRUE(ss.ok());
  EXPECT_EQ(AsDoubles(*ss), (std::vector<double>{5, 25, 61, 113, 181, 265}));
  auto ls = t.Run1("ReduceLogSum", {x}, a2);
  ASSERT_TRUE(ls.ok());
  EXPECT_NEAR_VEC(AsDoubles(*ls), (std::vector<double>{std::log(3.), std::log(7.), std::log(11.), std::log(15.),
                                                       std::log(19.), std::log(23.)}), 1e-5);
  // LogSumExp stays finite where exp would overflow.
  auto lse = t.Run1("ReduceLogSumExp", {F({1000, 1000, 1, 2}, {2, 2})}, Attrs({{"axes", AttrValue::Ints({1})}}));
  ASSERT_TRUE(lse.ok()) << lse.status().ToString();
  EXPECT_NEAR_VEC(AsDoubles(*lse), (std::vector<double>{1000 + std::log(2.), std::log(std::exp(1.) + std::exp(2.))}),
                  1e-3);
}

TEST(Reduce, IntegerAndHalfTypes) {
  auto t = MakeTester();
  auto sum = t.Run1("ReduceSum", {Tensor::FromVector<int32_t>({1, 2, 3, 4, 5, 6}, {2, 3}), I64({1}, {1})},
                    Attrs({{"keepdims", AttrValue::Int(0)}}));
  ASSERT_TRUE(sum.ok());
  EXPECT_EQ(sum->dtype(), DataType::kInt32);
  EXPECT_EQ(AsDoubles(*sum), (std::vector<double>{6, 15}));
  auto mx = t.Run1("ReduceMax", {Tensor::FromVector<int8_t>({-5, -7, -1, -9}, {4})}, Attrs({{"keepdims", AttrValue::Int(0)}}));
  ASSERT_TRUE(mx.ok());
  EXPECT_EQ(mx->dtype(), DataType::kInt8);
  EXPECT_EQ(AsDoubles(*mx), (std::vector<double>{-1}));
  auto mean = t.Run1("ReduceMean", {I64({1, 2, 4, 7}, {2, 2})}, Attrs({{"axes", AttrValue::Ints({1})}}));
  ASSERT_TRUE(mean.ok());
  EXPECT_EQ(AsDoubles(*mean), (std::vector<double>{1, 5}));  // integer mean truncates
  std::vector<float16> h;
  for (float v : {1.f, 2.f, 3.f, 4.f}) h.push_back(float16(v));
  auto hm = t.Run1("ReduceMean", {Tensor::FromVector<float16>(h, {2, 2})}, Attrs({{"axes", AttrValue::Ints({-1})}}));
  ASSERT_TRUE(hm.ok());
  EXPECT_EQ(hm->dtype(), DataType::kFloat16);
  EXPECT_EQ(AsDoubles(*hm), (std::vector<double>{1.5, 3.5}));
  auto dsum = t.Run1("ReduceSum", {Tensor::FromVector<double>({0.1, 0.2}, {2})}, {});
  ASSERT_TRUE(dsum.ok());
  EXPECT_EQ(dsum->dtype(), DataType::kDouble);
  EXPECT_NEAR(dsum->data<double>()[0], 0.3, 1e-15);
}

TEST(Reduce, EmptyReductionAndNaN) {
  auto t = MakeTester();
  auto s = t.Run1("ReduceSum", {F({}, {2, 0}), I64({1}, {1})}, Attrs({{"keepdims", AttrValue::Int(0)}}));
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(AsDoubles(*s), (std::vector<double>{0, 0}));
  auto p = t.Run1("ReduceProd", {F({}, {2, 0})}, Attrs({{"axes", AttrValue::Ints({1})}}));
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(AsDoubles(*p), (std::vector<double>{1, 1}));
  auto m = t.Run1("ReduceMax", {F({1, NAN, 3}, {3})}, {});
  ASSERT_TRUE(m.ok());
  EXPECT_TRUE(std::isnan(m->data<float>()[0]));
}

TEST(Reduce, BadAxes) {
  auto t = MakeTester();
  EXPECT_FALSE(t.Run1("ReduceMean", {SpecData()}, Attrs({{"axes", AttrValue::Ints({3})}})).ok());
  EXPECT_FALSE(t.Run1("ReduceMean", {SpecData()}, Attrs({{"axes", AttrValue::Ints({1, -2})}})).ok());
  EXPECT_FALSE(t.Run1("ReduceSum", {SpecData(), I64({-4}, {1})}).ok());
  EXPECT_FALSE(t.Run1("ReduceSum", {Tensor::FromVector<bool>({true}, {1})}).ok());
}

TEST(Reduce, InferenceWithUnknownDims) {
  auto t = MakeTester();
  Shape s;
  s.AddDim(kUnknownDim, "batch");
  s.AddDim(kUnknownDim, "seq");
  s.AddDim(768);
  auto out = InferOnly(t, "ReduceMean", {TensorDesc(DataType::kFloat, s)}, Attrs({{"axes", AttrValue::Ints({-1})}}));
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_EQ((*out)[0].shape.ToString(), "[batch,seq,1]");
  // Axes input whose value is unknown: rank survives with keepdims, dims do not.
  auto o2 = InferOnly(t, "ReduceSum", {TensorDesc(DataType::kFloat, s), TensorDesc(DataType::kInt64, Shape({1}))}, {});
  ASSERT_TRUE(o2.ok());
  EXPECT_EQ((*o2)[0].shape.rank(), 3);
  EXPECT_EQ((*o2)[0].shape.dim(2), kUnknownDim);
  auto o3 = InferOnly(t, "ReduceSum", {TensorDesc(DataType::kFloat, s), TensorDesc(DataType::kInt64, Shape({1}))},
                      Attrs({{"keepdims", AttrValue::Int(0)}}));
  ASSERT_TRUE(o3.ok());
  EXPECT_TRUE((*o3)[0].shape.unknown_rank());
  auto o4 = InferOnly(t, "ArgMax", {TensorDesc(DataType::kFloat, s)},
                      Attrs({{"axis", AttrValue::Int(1)}, {"keepdims", AttrValue::Int(0)}}));
  ASSERT_TRUE(o4.ok());
  EXPECT_EQ((*o4)[0].dtype, DataType::kInt64);
  EXPECT_EQ((*o4)[0].shape.ToString(), "[batch,768]");
}

TEST(ArgMinMax, SpecExamples) {
  auto t = MakeTester();
  Tensor x = F({2, 1, 3, 10}, {2, 2});
  auto a = t.Run1("ArgMax", {x}, Attrs({{"axis", AttrValue::Int(1)}}));
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(a->dims(), (Dims{2, 1}));
  EXPECT_EQ(AsDoubles(*a), (std::vector<double>{0, 1}));
  auto b = t.Run1("ArgMin", {x}, Attrs({{"keepdims", AttrValue::Int(0)}}));
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(b->dims(), (Dims{2}));
  EXPECT_EQ(AsDoubles(*b), (std::vector<double>{0, 0}));
  Tensor ties = F({2, 2, 3, 10}, {2, 2});
  auto first = t.Run1("ArgMax", {ties}, Attrs({{"axis", AttrValue::Int(1)}}));
  auto last = t.Run1("ArgMax", {ties}, Attrs({{"axis", AttrValue::Int(1)}, {"select_last_index", AttrValue::Int(1)}}));
  ASSERT_TRUE(first.ok() && last.ok());
  EXPECT_EQ(AsDoubles(*first), (std::vector<double>{0, 1}));
  EXPECT_EQ(AsDoubles(*last), (std::vector<double>{1, 1}));
  auto i = t.Run1("ArgMin", {Tensor::FromVector<int32_t>({4, -3, 9, -3}, {4})},
                  Attrs({{"select_last_index", AttrValue::Int(1)}}));
  ASSERT_TRUE(i.ok());
  EXPECT_EQ(AsDoubles(*i), (std::vector<double>{3}));
  EXPECT_FALSE(t.Run1("ArgMax", {x}, Attrs({{"axis", AttrValue::Int(2)}})).ok());
}

}  // namespace
}  // namespace ge::ref::reduce_test
