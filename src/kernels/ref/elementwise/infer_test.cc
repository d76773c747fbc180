// Compile-time inference of the elementwise ops with partially known shapes.
#include "kernels/ref/elementwise/elementwise_test_util.h"
#include "ops/op_schema.h"

namespace ge::ref::elementwise::testing {
namespace {

class InferTest : public ::testing::Test {
 protected:
  void SetUp() override { ge::ops::RegisterElementwiseOps(&registry_); }

  StatusOr<TensorDesc> Infer(const std::string& op, const std::vector<TensorDesc>& inputs,
                             const ir::AttrMap& attrs = ir::AttrMap(), int64_t opset = 17) {
    const ops::OpSchema* schema = registry_.Find("", op);
    if (!schema) return NotFound(op);
    descs_ = inputs;
    ops::InferContext ctx;
    ctx.attrs = &attrs;
    ctx.opset = opset;
    ctx.op_type = op;
    ctx.node_name = "n";
    for (const TensorDesc& d : descs_) {
      ctx.inputs.push_back(d.dtype == DataType::kUndefined && d.kind == ValueKind::kUnknown ? nullptr : &d);
      ctx.input_values.push_back(nullptr);
    }
    ctx.outputs.resize(1);
    GE_RETURN_IF_ERROR(ops::RunInference(*schema, ctx));
    return ctx.outputs[0];
  }

  ops::OpRegistry registry_;
  std::vector<TensorDesc> descs_;
};

Shape Sym(std::vector<std::pair<int64_t, std::string>> dims) {
  Shape s;
  for (auto& [d, name] : dims) s.AddDim(d, name);
  return s;
}

TEST_F(InferTest, BroadcastWithUnknownDims) {
  TensorDesc a(DataType::kFloat, Sym({{kUnknownDim, "batch"}, {3, ""}, {1, ""}}));
  TensorDesc b(DataType::kFloat, Shape(Dims{4}));
  auto r = Infer("Add", {a, b});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->dtype, DataType::kFloat);
  ASSERT_EQ(r->shape.rank(), 3);
  EXPECT_EQ(r->shape.dim(0), kUnknownDim);
  EXPECT_EQ(r->shape.symbol(0), "batch");
  EXPECT_EQ(r->shape.dim(1), 3);
  EXPECT_EQ(r->shape.dim(2), 4);

  auto unknown = Infer("Mul", {a, TensorDesc(DataType::kFloat, Shape::UnknownRank())});
  ASSERT_TRUE(unknown.ok());
  EXPECT_TRUE(unknown->shape.unknown_rank());

  auto cmp = Infer("Less", {a, b});
  ASSERT_TRUE(cmp.ok());
  EXPECT_EQ(cmp->dtype, DataType::kBool);

  EXPECT_FALSE(
      Infer("Add", {TensorDesc(DataType::kFloat, Shape(Dims{2})), TensorDesc(DataType::kFloat, Shape(Dims{3}))}).ok());
  EXPECT_FALSE(Infer("Add", {a, TensorDesc(DataType::kInt32, Shape(Dims{4}))}).ok());
}

TEST_F(InferTest, UnaryAndTypes) {
  TensorDesc x(DataType::kFloat16, Sym({{kUnknownDim, "n"}, {8, ""}}));
  auto r = Infer("Sigmoid", {x});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->dtype, DataType::kFloat16);
  EXPECT_EQ(r->shape, x.shape);
  auto n = Infer("IsNaN", {x});
  ASSERT_TRUE(n.ok());
  EXPECT_EQ(n->dtype, DataType::kBool);
  EXPECT_FALSE(Infer("Sqrt", {TensorDesc(DataType::kInt64, Shape(Dims{2}))}).ok());
  EXPECT_FALSE(Infer("Not", {x}).ok());
}

TEST_F(InferTest, CastPowWhereVariadic) {
  TensorDesc x(DataType::kFloat, Sym({{kUnknownDim, ""}, {2, ""}}));
  auto c = Infer("Cast", {x}, Attrs({{"to", ir::AttrValue::Int(static_cast<int64_t>(DataType::kInt64))}}));
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->dtype, DataType::kInt64);
  EXPECT_EQ(c->shape, x.shape);
  EXPECT_FALSE(Infer("Cast", {x}).ok());

  auto p = Infer("Pow", {x, TensorDesc(DataType::kInt32, Shape())});
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p->dtype, DataType::kFloat);

  auto w =
      Infer("Where", {TensorDesc(DataType::kBool, Shape(Dims{3, 1, 1})), x, TensorDesc(DataType::kFloat, Shape())});
  ASSERT_TRUE(w.ok());
  EXPECT_EQ(w->shape.rank(), 3);
  EXPECT_EQ(w->shape.dim(0), 3);
  EXPECT_EQ(w->shape.dim(1), kUnknownDim);

  auto s = Infer("Sum", {x, x, TensorDesc(DataType::kFloat, Shape(Dims{1}))});
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->shape.rank(), 2);
  EXPECT_FALSE(Infer("Mod", {x, x}).ok());  // float Mod needs fmod=1

  auto clip_legacy = Infer("Clip", {x}, Attrs({{"max", ir::AttrValue::Float(6)}}), 6);
  ASSERT_TRUE(clip_legacy.ok());
  EXPECT_EQ(clip_legacy->shape, x.shape);
  auto prelu = Infer("PRelu", {x, TensorDesc(DataType::kFloat, Shape(Dims{2}))});
  ASSERT_TRUE(prelu.ok());
  EXPECT_EQ(prelu->shape, x.shape);
  EXPECT_FALSE(Infer("PRelu", {x, TensorDesc(DataType::kFloat, Shape(Dims{3}))}).ok());
}

}  // namespace
}  // namespace ge::ref::elementwise::testing
