// The reshape step: one KernelSpec per node, kernels prepared for several input shapes, each run against the
// reference kernel on fresh random inputs of that shape.
#include "kernels/exec/reshape.h"

#include <gtest/gtest.h>

#include <random>

#include "base/testing/expect_match.h"
#include "kernels/exec/exec_test_util.h"

namespace ge::exec {
namespace {

using testing::MakeTester;
using testing::RandomTensor;

// Runs `kernel` once on `inputs` (constants included: their slots address the spec's tensors).
std::vector<Tensor> RunOnce(const PreparedKernel& kernel, std::vector<Tensor>& inputs,
                            const std::vector<TensorDesc>& out_descs) {
  auto b = kernel.NewBinding();
  EXPECT_TRUE(b.ok()) << b.status().ToString();
  std::vector<Tensor> outs;
  for (size_t i = 0; i < inputs.size(); ++i) (*b)->io.inputs[i] = inputs[i].raw_data();
  for (size_t i = 0; i < out_descs.size(); ++i) {
    outs.push_back(Tensor::Create(out_descs[i].dtype, out_descs[i].shape.dims()).value());
    (*b)->io.outputs[i] = outs.back().raw_data();
  }
  rt::TaskContext ctx;
  Status s = kernel.fn()(b->get(), ctx);
  EXPECT_TRUE(s.ok()) << s.ToString();
  return outs;
}

TEST(Reshape, OneSpecManyShapes) {
  std::mt19937 rng(5);
  ir::Graph g("g");
  // y = MatMul(Add(a, b), w) with a constant w: a broadcast fast kernel and a constant-weight matrix product.
  const Tensor w = RandomTensor(DataType::kFloat, {6, 5}, rng);
  ir::Value* a = g.AddInput("a", TensorDesc(DataType::kFloat, Shape({-1, 6})));
  ir::Value* bias = g.AddInput("b", TensorDesc(DataType::kFloat, Shape({6})));
  ir::Value* wc = g.AddConstant("w", w);
  ir::Value* s = g.AddValue("s", TensorDesc(DataType::kFloat, Shape({-1, 6})));
  ir::Value* y = g.AddValue("y", TensorDesc(DataType::kFloat, Shape({-1, 5})));
  ir::Node* add = g.AddNode("Add", "add", {a, bias}, {s});
  ir::Node* mm = g.AddNode("MatMul", "mm", {s, wc}, {y});
  RequestSettings settings;
  const KernelSpec add_spec = MakeSpec(*add, settings), mm_spec = MakeSpec(*mm, settings);
  ASSERT_EQ(mm_spec.const_inputs[1], wc->const_value());
  for (int64_t rows : {1, 3, 17}) {
    SCOPED_TRACE("rows " + std::to_string(rows));
    std::vector<TensorDesc> add_out, mm_out;
    auto k1 = Reshape(add_spec, {TensorDesc(DataType::kFloat, Shape({rows, 6})), TensorDesc(DataType::kFloat, Shape({6}))},
                      {}, &add_out);
    ASSERT_TRUE(k1.ok()) << k1.status().ToString();
    ASSERT_EQ(add_out[0].shape.dims(), (Dims{rows, 6}));
    auto k2 = Reshape(mm_spec, {add_out[0], wc->desc()}, {}, &mm_out);
    ASSERT_TRUE(k2.ok()) << k2.status().ToString();
    ASSERT_EQ(mm_out[0].shape.dims(), (Dims{rows, 5}));
    std::vector<Tensor> in1 = {RandomTensor(DataType::kFloat, {rows, 6}, rng), RandomTensor(DataType::kFloat, {6}, rng)};
    std::vector<Tensor> sum = RunOnce(**k1, in1, add_out);
    std::vector<Tensor> in2 = {sum[0], w};
    std::vector<Tensor> got = RunOnce(**k2, in2, mm_out);
    auto want_sum = MakeTester().Run("Add", in1, ir::AttrMap(), 1, 17, "");
    ASSERT_TRUE(want_sum.ok());
    auto want = MakeTester().Run("MatMul", {want_sum->at(0).tensor, w}, ir::AttrMap(), 1, 17, "");
    ASSERT_TRUE(want.ok());
    EXPECT_TRUE(TensorsMatch(got[0], want->at(0).tensor, Tolerance{1e-5, 1e-5}));
  }
  // Shapes the op refuses, and a wrong number of descs, are errors naming the node.
  auto bad = Reshape(add_spec, {TensorDesc(DataType::kFloat, Shape({2, 7})), TensorDesc(DataType::kFloat, Shape({6}))});
  EXPECT_EQ(bad.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(bad.status().message().find("add"), std::string::npos) << bad.status().message();
  EXPECT_EQ(Reshape(mm_spec, {TensorDesc(DataType::kFloat, Shape({2, 6}))}).status().code(),
            StatusCode::kInvalidArgument);
  auto unknown = Reshape(add_spec, {TensorDesc(DataType::kFloat, Shape({-1, 6})), TensorDesc(DataType::kFloat, Shape({6}))});
  EXPECT_EQ(unknown.status().code(), StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace ge::exec
