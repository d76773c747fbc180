#include <gtest/gtest.h>

#include "kernels/ref/families.h"
#include "kernels/ref/testing/op_tester.h"
#include "ops/families.h"

namespace ge::ref {
namespace {

using testing::OpTester;

class SequenceTest : public ::testing::Test {
 protected:
  SequenceTest() : t_(ops::RegisterControlOps, RegisterControlRefKernels) {}
  Value Seq(std::vector<Tensor> items, DataType dt = DataType::kFloat) { return Value::Sequence(std::move(items), dt); }
  Value Run1(const std::string& op, const std::vector<Value>& in, const ir::AttrMap& attrs = ir::AttrMap()) {
    auto r = t_.RunValues(op, in, attrs);
    EXPECT_TRUE(r.ok()) << r.status().ToString();
    return r.ok() ? (*r)[0] : Value();
  }
  OpTester t_;
};

Tensor V(std::vector<float> v) { return Tensor::FromVector<float>(v, {static_cast<int64_t>(v.size())}); }

TEST_F(SequenceTest, ConstructAtLength) {
  Value s = Run1("SequenceConstruct", {Value(V({1, 2})), Value(V({3}))});
  ASSERT_TRUE(s.is_sequence());
  EXPECT_EQ(s.elem_dtype, DataType::kFloat);
  Value len = Run1("SequenceLength", {s});
  EXPECT_EQ(len.tensor.dtype(), DataType::kInt64);
  EXPECT_EQ(len.tensor.GetAsInt64(0), 2);
  Value at = Run1("SequenceAt", {s, Value(Tensor::Scalar<int32_t>(-1))});
  EXPECT_TRUE(TensorsMatch(at.tensor, V({3}), 0));
  EXPECT_FALSE(t_.RunValues("SequenceAt", {s, Value(Tensor::Scalar<int64_t>(2))}).ok());
  EXPECT_FALSE(t_.RunValues("SequenceConstruct", {Value(V({1})), Value(Tensor::Scalar<int64_t>(1))}).ok());
}

TEST_F(SequenceTest, EmptyInsertErase) {
  ir::AttrMap attrs;
  attrs.Set("dtype", ir::AttrValue::Int(static_cast<int64_t>(DataType::kInt64)));
  Value e = Run1("SequenceEmpty", {}, attrs);
  ASSERT_TRUE(e.is_sequence());
  EXPECT_EQ(e.elem_dtype, DataType::kInt64);
  EXPECT_TRUE(e.sequence.empty());
  Tensor a = Tensor::FromVector<int64_t>({1, 2, 3}, {3});
  Tensor b = Tensor::FromVector<int64_t>({4}, {1});
  Value s1 = Run1("SequenceInsert", {e, Value(a)});
  Value s2 = Run1("SequenceInsert", {s1, Value(b), Value(Tensor::FromVector<int64_t>({0}, {}))});
  ASSERT_EQ(s2.sequence.size(), 2u);
  EXPECT_TRUE(TensorsMatch(s2.sequence[0], b, 0));
  EXPECT_TRUE(TensorsMatch(s2.sequence[1], a, 0));
  Value s3 = Run1("SequenceErase", {s2});  // default: the last element
  ASSERT_EQ(s3.sequence.size(), 1u);
  EXPECT_TRUE(TensorsMatch(s3.sequence[0], b, 0));
  Value s4 = Run1("SequenceErase", {s3, Value(Tensor::Scalar<int64_t>(-1))});
  EXPECT_TRUE(s4.sequence.empty());
  EXPECT_FALSE(t_.RunValues("SequenceErase", {s4}).ok());
  // dtype mismatch and out-of-range position
  EXPECT_FALSE(t_.RunValues("SequenceInsert", {s1, Value(V({1}))}).ok());
  EXPECT_FALSE(t_.RunValues("SequenceInsert", {s1, Value(b), Value(Tensor::Scalar<int64_t>(3))}).ok());
}

TEST_F(SequenceTest, SplitToSequence) {
  Tensor x = Tensor::FromVector<float>({1, 2, 3, 4, 5, 6}, {3, 2});
  Value s = Run1("SplitToSequence", {Value(x)});
  ASSERT_EQ(s.sequence.size(), 3u);
  EXPECT_TRUE(TensorsMatch(s.sequence[1], Tensor::FromVector<float>({3, 4}, {1, 2}), 0));
  ir::AttrMap nokeep;
  nokeep.Set("keepdims", ir::AttrValue::Int(0));
  nokeep.Set("axis", ir::AttrValue::Int(-1));
  s = Run1("SplitToSequence", {Value(x)}, nokeep);
  ASSERT_EQ(s.sequence.size(), 2u);
  EXPECT_TRUE(TensorsMatch(s.sequence[1], Tensor::FromVector<float>({2, 4, 6}, {3}), 0));
  s = Run1("SplitToSequence", {Value(x), Value(Tensor::Scalar<int64_t>(2))});  // pieces of 2, 1
  ASSERT_EQ(s.sequence.size(), 2u);
  EXPECT_TRUE(TensorsMatch(s.sequence[1], Tensor::FromVector<float>({5, 6}, {1, 2}), 0));
  s = Run1("SplitToSequence", {Value(x), Value(Tensor::FromVector<int32_t>({1, 2}, {2}))});
  ASSERT_EQ(s.sequence.size(), 2u);
  EXPECT_TRUE(TensorsMatch(s.sequence[1], Tensor::FromVector<float>({3, 4, 5, 6}, {2, 2}), 0));
  EXPECT_FALSE(t_.RunValues("SplitToSequence", {Value(x), Value(Tensor::FromVector<int64_t>({1, 1}, {2}))}).ok());
  EXPECT_FALSE(t_.RunValues("SplitToSequence", {Value(x), Value(Tensor::Scalar<int64_t>(0))}).ok());
}

TEST_F(SequenceTest, ConcatFromSequence) {
  Value s = Seq({Tensor::FromVector<float>({1, 2}, {1, 2}), Tensor::FromVector<float>({3, 4, 5, 6}, {2, 2})});
  ir::AttrMap a0;
  a0.Set("axis", ir::AttrValue::Int(0));
  Value c = Run1("ConcatFromSequence", {s}, a0);
  EXPECT_TRUE(TensorsMatch(c.tensor, Tensor::FromVector<float>({1, 2, 3, 4, 5, 6}, {3, 2}), 0));
  ir::AttrMap a1;
  a1.Set("axis", ir::AttrValue::Int(-1));
  a1.Set("new_axis", ir::AttrValue::Int(1));
  Value same = Seq({V({1, 2}), V({3, 4})});
  c = Run1("ConcatFromSequence", {same}, a1);
  EXPECT_TRUE(TensorsMatch(c.tensor, Tensor::FromVector<float>({1, 3, 2, 4}, {2, 2}), 0));
  EXPECT_FALSE(t_.RunValues("ConcatFromSequence", {s}, a1).ok());  // shapes differ when stacking
  EXPECT_FALSE(t_.RunValues("ConcatFromSequence", {Seq({})}, a0).ok());
  EXPECT_FALSE(t_.RunValues("ConcatFromSequence", {s}).ok());  // axis is required
  // strings
  Value strs = Seq({Tensor::FromVector<std::string>({"a"}, {1}), Tensor::FromVector<std::string>({"b", "c"}, {2})},
                   DataType::kString);
  c = Run1("ConcatFromSequence", {strs}, a0);
  ASSERT_EQ(c.tensor.numel(), 3);
  EXPECT_EQ(c.tensor.data<std::string>()[2], "c");
}

TEST_F(SequenceTest, InferenceWithUnknownDims) {
  ops::InferContext ctx;
  ir::AttrMap attrs;
  attrs.Set("axis", ir::AttrValue::Int(1));
  ctx.attrs = &attrs;
  ctx.op_type = "SplitToSequence";
  TensorDesc x(DataType::kFloat, Shape({kUnknownDim, 6}));
  ctx.inputs = {&x};
  ctx.input_values = {nullptr};
  ctx.outputs.resize(1);
  ASSERT_TRUE(t_.op_registry().Find("", "SplitToSequence")->infer(ctx).ok());
  EXPECT_EQ(ctx.outputs[0].kind, ValueKind::kSequence);
  EXPECT_EQ(ctx.outputs[0].shape, Shape({kUnknownDim, 1}));

  TensorDesc seq(DataType::kFloat, Shape({kUnknownDim, 3}));
  seq.kind = ValueKind::kSequence;
  ctx.op_type = "ConcatFromSequence";
  ctx.inputs = {&seq};
  attrs.Set("new_axis", ir::AttrValue::Int(1));
  attrs.Set("axis", ir::AttrValue::Int(2));
  ASSERT_TRUE(t_.op_registry().Find("", "ConcatFromSequence")->infer(ctx).ok());
  EXPECT_EQ(ctx.outputs[0].shape, Shape({kUnknownDim, 3, kUnknownDim}));
  attrs.Set("axis", ir::AttrValue::Int(3));
  EXPECT_FALSE(t_.op_registry().Find("", "ConcatFromSequence")->infer(ctx).ok());
}

TEST_F(SequenceTest, Optionals) {
  Value some = Run1("Optional", {Value(V({1, 2}))});
  EXPECT_TRUE(some.is_tensor());
  EXPECT_TRUE(Run1("OptionalHasElement", {some}).tensor.data<bool>()[0]);
  EXPECT_TRUE(TensorsMatch(Run1("OptionalGetElement", {some}).tensor, V({1, 2}), 0));
  Value none = Value::OptionalNone(DataType::kInt32, false);
  Value has = Run1("OptionalHasElement", {none});
  EXPECT_EQ(has.tensor.dtype(), DataType::kBool);
  EXPECT_FALSE(has.tensor.data<bool>()[0]);
  EXPECT_FALSE(t_.RunValues("OptionalGetElement", {none}).ok());
  Value seq = Seq({V({1})});
  EXPECT_TRUE(Run1("OptionalGetElement", {Run1("Optional", {seq})}).is_sequence());
  ir::AttrMap type;
  type.Set("type.dtype", ir::AttrValue::Int(static_cast<int64_t>(DataType::kFloat)));
  type.Set("type.kind", ir::AttrValue::Int(static_cast<int64_t>(ValueKind::kSequence)));
  Value empty = Run1("Optional", {}, type);
  EXPECT_EQ(empty.kind, Value::Kind::kOptionalNone);
  EXPECT_TRUE(empty.optional_of_sequence);
  EXPECT_EQ(empty.elem_dtype, DataType::kFloat);
  EXPECT_FALSE(t_.RunValues("Optional", {}).ok());  // neither input nor type
}

}  // namespace
}  // namespace ge::ref
