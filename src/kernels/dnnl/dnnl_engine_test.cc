#include "kernels/dnnl/dnnl_engine.h"

#include "kernels/dnnl/dnnl_test_util.h"
#include "kernels/exec/prepared_kernel.h"

namespace ge::dnnl_kernels::testing {
namespace {

// A graph X -> op -> Y whose X desc may have unknown dims.
struct OneNode {
  ir::Graph g{"g"};
  ir::Node* node = nullptr;
};

std::unique_ptr<OneNode> MakeNode(const std::string& op, const std::string& domain, std::vector<TensorDesc> ins,
                                  TensorDesc out, ir::AttrMap attrs = ir::AttrMap()) {
  auto n = std::make_unique<OneNode>();
  std::vector<ir::Value*> in_values;
  for (size_t i = 0; i < ins.size(); ++i) in_values.push_back(n->g.AddInput("x" + std::to_string(i), ins[i]));
  ir::Value* y = n->g.AddValue("y", out);
  n->node = n->g.AddNode(op, "n", in_values, {y}, domain);
  n->node->attrs() = std::move(attrs);
  return n;
}

TensorDesc F32(std::vector<int64_t> dims) { return TensorDesc(DataType::kFloat, Shape(Dims(dims.begin(), dims.end()))); }

TEST(DnnlEngine, SupportsWithSymbolicDims) {
  // Dims unknown: attributes, dtypes and ranks decide.
  TensorDesc x(DataType::kFloat, Shape(Dims{kUnknownDim, 3, kUnknownDim, kUnknownDim}));
  auto conv = MakeNode("Conv", "", {x, F32({8, 3, 3, 3})}, TensorDesc(DataType::kFloat, Shape::UnknownRank()));
  EXPECT_TRUE(DnnlSupports(*conv->node));
  auto relu = MakeNode("Relu", "", {x}, x);
  EXPECT_TRUE(DnnlSupports(*relu->node));
  auto mm = MakeNode("MatMul", "", {x, F32({5, 4})}, TensorDesc(DataType::kFloat, Shape::UnknownRank()));
  EXPECT_TRUE(DnnlSupports(*mm->node));
  auto fused = MakeNode("FusedConv", "ge", {x, F32({8, 3, 3, 3})}, TensorDesc(DataType::kFloat, Shape::UnknownRank()),
                        Attrs({{"activation", AV::String("Silu")}}));
  EXPECT_TRUE(DnnlSupports(*fused->node));
}

TEST(DnnlEngine, DoesNotSupport) {
  auto unknown_op = MakeNode("Gather", "", {F32({4, 3}), F32({2})}, F32({2, 3}));
  EXPECT_FALSE(DnnlSupports(*unknown_op->node));
  auto wrong_domain = MakeNode("Conv", "com.microsoft", {F32({1, 3, 5, 5}), F32({4, 3, 3, 3})}, F32({1, 4, 3, 3}));
  EXPECT_FALSE(DnnlSupports(*wrong_domain->node));
  auto f64 = MakeNode("Relu", "", {TensorDesc(DataType::kDouble, Shape(Dims{4}))},
                      TensorDesc(DataType::kDouble, Shape(Dims{4})));
  EXPECT_FALSE(DnnlSupports(*f64->node));
  auto bad_act = MakeNode("FusedConv", "ge", {F32({1, 3, 5, 5}), F32({4, 3, 3, 3})}, F32({1, 4, 3, 3}),
                          Attrs({{"activation", AV::String("Swish")}}));
  EXPECT_FALSE(DnnlSupports(*bad_act->node));
  auto bad_params = MakeNode("FusedConv", "ge", {F32({1, 3, 5, 5}), F32({4, 3, 3, 3})}, F32({1, 4, 3, 3}),
                             Attrs({{"activation", AV::String("Relu")}, {"activation_params", AV::Floats({1.f})}}));
  EXPECT_FALSE(DnnlSupports(*bad_params->node));
  auto blocked = MakeNode("Relu", "", {F32({1, 16, 4, 4})}, F32({1, 16, 4, 4}));
  blocked->node->input(0)->desc().format = Format::kNC1HWC0;
  EXPECT_FALSE(DnnlSupports(*blocked->node));
  auto empty = MakeNode("Relu", "", {F32({0, 4})}, F32({0, 4}));
  EXPECT_FALSE(DnnlSupports(*empty->node));
}

TEST(DnnlEngine, PrepareKernelDispatchesThroughTheEngineTable) {
  std::mt19937 rng(61);
  const Case c("Conv", {RandomTensor({1, 3, 8, 8}, rng), RandomTensor({4, 3, 3, 3}, rng)}, {false, true});
  auto p = PrepareCase(c);
  ASSERT_TRUE(p.ok() && (*p)->kernel != nullptr);
  const kernels::EngineList engines = {CreateDnnlEngine()};
  auto k = exec::PrepareKernel((*p)->request, engines);
  ASSERT_TRUE(k.ok()) << k.status().ToString();
  EXPECT_EQ(std::string((*k)->impl_name()).rfind("dnnl.conv", 0), 0u) << (*k)->impl_name();
  // A node the engine declines falls back to the CPU kernels.
  const Case d("Clip", {RandomTensor({4}, rng), RandomTensor({}, rng)}, {false, false});
  auto q = PrepareCase(d);
  ASSERT_TRUE(q.ok());
  EXPECT_TRUE((*q)->kernel == nullptr);
  auto fallback = exec::PrepareKernel((*q)->request, engines);
  ASSERT_TRUE(fallback.ok()) << fallback.status().ToString();
  EXPECT_EQ(std::string((*fallback)->impl_name()).rfind("dnnl", 0), std::string::npos);
}

TEST(DnnlEngine, InvalidRequestIsAnError) {
  std::mt19937 rng(62);
  const Case c("Relu", {RandomTensor({4}, rng)});
  auto p = PrepareCase(c);
  ASSERT_TRUE(p.ok());
  exec::PrepareRequest r = (*p)->request;
  r.output_descs.clear();
  auto k = PrepareDnnlKernel(r);
  EXPECT_FALSE(k.ok());
  EXPECT_NE(k.status().message().find("n_Relu"), std::string::npos) << k.status().ToString();
}

}  // namespace
}  // namespace ge::dnnl_kernels::testing
