// ge::ChannelShuffle's kernel: plain and NHWC layouts against the reference kernel, several inputs and outputs.
#include "kernels/exec/channel_shuffle_kernel.h"

#include <gtest/gtest.h>

#include <random>

#include "base/testing/expect_match.h"
#include "kernels/exec/exec_test_util.h"
#include "kernels/ref/families.h"
#include "kernels/ref/testing/op_tester.h"
#include "ops/families.h"
#include "rt/cpu/thread_pool.h"

namespace ge::exec::testing {
namespace {

// Uniform floats in [-1, 1), one fixed seed per tensor.
Tensor Random(const Dims& dims, uint32_t seed) {
  std::mt19937 rng(seed);
  return RandomTensor(DataType::kFloat, dims, rng, -1, 1);
}

void Check(const std::vector<Tensor>& in, int outputs, int64_t groups, Format layout, rt::IntraOpPool* pool = nullptr) {
  ir::AttrMap attrs;
  attrs.Set("groups", ir::AttrValue::Int(groups));
  ref::testing::OpTester t(ops::RegisterFusedOps, ref::RegisterFusedRefKernels);
  auto want = t.Run("ChannelShuffle", in, attrs, outputs, 1, "ge");
  ASSERT_TRUE(want.ok()) << want.status().ToString();

  ir::Graph g("g");
  std::vector<ir::Value*> ins, outs;
  PrepareRequest r;
  for (size_t i = 0; i < in.size(); ++i) {
    TensorDesc d(DataType::kFloat, Shape(in[i].dims()));
    d.format = layout;
    ins.push_back(g.AddInput("x" + std::to_string(i), d));
    r.input_descs.push_back(d);
    r.const_inputs.push_back(nullptr);
  }
  for (int k = 0; k < outputs; ++k) {
    TensorDesc d(DataType::kFloat, Shape((*want)[k].tensor.dims()));
    d.format = layout;
    outs.push_back(g.AddValue("y" + std::to_string(k), d));
    r.output_descs.push_back(d);
  }
  ir::Node* node = g.AddNode("ChannelShuffle", "s", ins, outs, "ge");
  node->attrs() = attrs;
  r.node = node;
  std::unique_ptr<PreparedKernel> k = PrepareChannelShuffle(r);
  ASSERT_NE(k, nullptr);
  EXPECT_STREQ(k->impl_name(), "exec.channel_shuffle");
  const bool nhwc = layout == Format::kNHWC;
  std::vector<Tensor> stored_in, got;
  for (const Tensor& x : in) stored_in.push_back(nhwc ? PermuteNchwNhwc(x, true) : x);
  auto binding = k->NewBinding();
  ASSERT_TRUE(binding.ok());
  KernelIo& io = (*binding)->io;
  for (int i = 0; i < static_cast<int>(in.size()); ++i) io.inputs[i] = stored_in[i].raw_data();
  for (int o = 0; o < outputs; ++o) {
    got.push_back(Tensor::Create(DataType::kFloat, (*want)[o].tensor.dims()).value());
    io.outputs[o] = got[o].raw_data();
  }
  rt::TaskContext ctx;
  ctx.pool = pool;
  ASSERT_TRUE(k->fn()(binding->get(), ctx).ok());
  for (int o = 0; o < outputs; ++o) {
    EXPECT_TRUE(TensorsMatch(nhwc ? PermuteNchwNhwc(got[o], false) : got[o], (*want)[o].tensor, 0.0)) << "output " << o;
  }
}

TEST(ChannelShuffleKernel, PlainAndNhwcMatchRef) {
  for (Format layout : {Format::kND, Format::kNHWC}) {
    Check({Random({2, 6, 3, 5}, 1), Random({2, 10, 3, 5}, 2)}, 2, 2, layout);  // ShuffleNet: concat, shuffle, split
    Check({Random({1, 12, 4, 4}, 3)}, 1, 3, layout);                            // one input, three groups
    Check({Random({1, 4, 2, 2}, 4), Random({1, 4, 2, 2}, 5)}, 4, 4, layout);   // four outputs
    Check({Random({2, 6, 3, 5}, 6), Random({2, 6, 3, 5}, 7)}, 2, 1, layout);   // groups 1: each output a copy
  }
}

// ShuffleNet's shapes (two branches of 58 channels at 28x28, groups 2: each output interleaves the two inputs), and
// an odd split (an output crossing from one input to the other), large enough to split over a pool.
TEST(ChannelShuffleKernel, ShuffleNetShapesOnAThreadPool) {
  auto pool = rt::ThreadPool::Create(3);
  ASSERT_TRUE(pool.ok());
  for (Format layout : {Format::kND, Format::kNHWC}) {
    Check({Random({1, 58, 28, 28}, 8), Random({1, 58, 28, 28}, 9)}, 2, 2, layout, pool->get());
    Check({Random({2, 40, 20, 20}, 10), Random({2, 72, 20, 20}, 11)}, 2, 2, layout, pool->get());
  }
}

TEST(ChannelShuffleKernel, RefMatchesTheDefinition) {
  // X = [a0 a1 a2 | b0 b1 b2] (one pixel), groups 2: S = [a0 b0 a1 b1 a2 b2].
  ref::testing::OpTester t(ops::RegisterFusedOps, ref::RegisterFusedRefKernels);
  ir::AttrMap attrs;
  attrs.Set("groups", ir::AttrValue::Int(2));
  auto y = t.Run("ChannelShuffle", {Tensor::FromVector<float>({1, 2, 3}, {1, 3, 1, 1}),
                                    Tensor::FromVector<float>({10, 20, 30}, {1, 3, 1, 1})},
                 attrs, 1, 1, "ge");
  ASSERT_TRUE(y.ok()) << y.status().ToString();
  EXPECT_TRUE(TensorsMatch((*y)[0].tensor, Tensor::FromVector<float>({1, 10, 2, 20, 3, 30}, {1, 6, 1, 1}), 0.0));
  attrs.Set("groups", ir::AttrValue::Int(4));  // 6 channels do not split into 4 groups
  EXPECT_FALSE(t.Run("ChannelShuffle", {Tensor::FromVector<float>({1, 2, 3, 4, 5, 6}, {1, 6, 1, 1})}, attrs, 1, 1,
                     "ge").ok());
}

}  // namespace
}  // namespace ge::exec::testing
