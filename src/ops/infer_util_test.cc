#include "ops/infer_util.h"

#include <gtest/gtest.h>

namespace ge::ops {
namespace {

Shape Sym(std::initializer_list<int64_t> dims, const std::string& sym_for_unknown = "") {
  Shape s;
  for (int64_t d : dims) s.AddDim(d, d < 0 ? sym_for_unknown : "");
  return s;
}

TEST(InferUtil, BroadcastKnownAndUnknown) {
  EXPECT_EQ(BroadcastShapes(Shape({3, 1, 5}), Shape({4, 1}))->ToString(), "[3,4,5]");
  EXPECT_EQ(BroadcastShapes(Sym({-1, 5}, "batch"), Shape({1, 5}))->ToString(), "[batch,5]");
  EXPECT_EQ(BroadcastShapes(Sym({-1, 5}), Shape({7, 5}))->ToString(), "[7,5]");
  EXPECT_TRUE(BroadcastShapes(Shape::UnknownRank(), Shape({2}))->unknown_rank());
  EXPECT_FALSE(BroadcastShapes(Shape({3}), Shape({4})).ok());
}

TEST(InferUtil, NormalizeAxis) {
  EXPECT_EQ(*NormalizeAxis(-1, 4), 3);
  EXPECT_EQ(*NormalizeAxis(0, 1), 0);
  EXPECT_FALSE(NormalizeAxis(4, 4).ok());
  EXPECT_FALSE(NormalizeAxis(-5, 4).ok());
}

TEST(InferUtil, BuiltinRegistryKnowsCoreOps) {
  for (const char* op : {"Add", "Conv", "Reshape", "MatMul", "Loop", "Softmax", "Gather"}) {
    EXPECT_NE(BuiltinOps().Find("", op), nullptr) << op;
  }
  EXPECT_EQ(BuiltinOps().Find("", "NoSuchOp"), nullptr);
}

TEST(InferUtil, RunInferenceChecksArity) {
  OpSchema s{OpId::kAdd, 2, 2, 1, 1, InferBroadcast};  // arity 2, whatever the op
  TensorDesc a(DataType::kFloat, Shape({2, 3}));
  InferContext ctx;
  ir::AttrMap attrs;
  ctx.attrs = &attrs;
  ctx.op_type = "Two";
  ctx.node_name = "n";
  ctx.inputs = {&a};
  ctx.input_values = {nullptr};
  ctx.outputs.resize(1);
  Status st = RunInference(s, ctx);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("node 'n' (Two)"), std::string::npos) << st.message();
  ctx.inputs = {&a, &a};
  ctx.input_values = {nullptr, nullptr};
  ASSERT_TRUE(RunInference(s, ctx).ok());
  EXPECT_EQ(ctx.outputs[0].ToString(), "float32[2,3]");
}

}  // namespace
}  // namespace ge::ops
