// PrepareKernels: the same kernels on one thread and on several (oneDNN convolutions of many shapes and host
// kernels), each request prepared once, a failing request reported at its index without hiding the others.
#include "runtime/v1/prepare_kernels.h"

#include <gtest/gtest.h>

#include <string>

#include "ir/graph.h"
#include "kernels/builtin_engines.h"

namespace ge::runtime {
namespace {

Tensor Ramp(const Dims& dims) {
  int64_t n = 1;
  for (int64_t d : dims) n *= d;
  std::vector<float> v(static_cast<size_t>(n));
  for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>(i % 7) * 0.125f - 0.375f;
  return Tensor::FromVector(v, dims);
}

TensorDesc Desc(const Dims& dims) { return TensorDesc(DataType::kFloat, Shape(dims)); }

// Convolutions on dnnl (odd sizes, 1x1 and 3x3, with and without padding) and Relus on the host kernels.
std::vector<exec::PrepareRequest> Requests(ir::Graph& g) {
  std::vector<exec::PrepareRequest> out;
  exec::RequestSettings settings;
  settings.intra_op_threads = 2;
  int id = 0;
  for (int64_t c : {3, 8, 13, 32}) {
    for (int64_t k : {1, 3}) {
      const std::string s = std::to_string(id++);
      const int64_t hw = 5 + c % 4, m = c + 3, pad = k / 2;
      ir::Value* x = g.AddInput("x" + s, Desc({1, c, hw, hw}));
      ir::Value* w = g.AddConstant("w" + s, Ramp({m, c, k, k}));
      ir::Value* y = g.AddValue("y" + s, Desc({1, m, hw, hw}));
      ir::Node* conv = g.AddNode("Conv", "conv" + s, {x, w}, {y});
      conv->attrs().Set("pads", ir::AttrValue::Ints({pad, pad, pad, pad}));
      conv->set_engine("dnnl");
      out.push_back(exec::MakeRequest(*conv, settings));
      ir::Value* r = g.AddValue("r" + s, Desc({1, m, hw, hw}));
      ir::Node* relu = g.AddNode("Relu", "relu" + s, {y}, {r});
      out.push_back(exec::MakeRequest(*relu, settings));
    }
  }
  return out;
}

TEST(PrepareKernels, SameKernelsOnOneThreadAndOnSeveral) {
  ir::Graph g("prepare");
  const std::vector<exec::PrepareRequest> requests = Requests(g);
  const kernels::EngineList engines = kernels::BuiltinEngines();
  auto one = PrepareKernels(requests, engines, 1);
  for (int threads : {2, 3, 64}) {
    auto many = PrepareKernels(requests, engines, threads);
    ASSERT_EQ(many.size(), requests.size());
    for (size_t i = 0; i < requests.size(); ++i) {
      ASSERT_TRUE(one[i].ok()) << i << ": " << one[i].status().ToString();
      ASSERT_TRUE(many[i].ok()) << i << ": " << many[i].status().ToString();
      EXPECT_STREQ((*many[i])->impl_name(), (*one[i])->impl_name()) << requests[i].node->name();
      EXPECT_EQ((*many[i])->num_inputs(), requests[i].node->num_inputs());
      EXPECT_EQ((*many[i])->scratch_bytes(), (*one[i])->scratch_bytes()) << requests[i].node->name();
    }
  }
  EXPECT_NE(std::string((*one[0])->impl_name()).find("dnnl.conv"), std::string::npos) << (*one[0])->impl_name();
}

TEST(PrepareKernels, FailureStaysAtItsIndex) {
  ir::Graph g("prepare");
  std::vector<exec::PrepareRequest> requests = Requests(g);
  requests[3].node = nullptr;  // not a valid request
  auto results = PrepareKernels(requests, kernels::BuiltinEngines(), 2);
  ASSERT_EQ(results.size(), requests.size());
  for (size_t i = 0; i < results.size(); ++i) EXPECT_EQ(results[i].ok(), i != 3) << i;
  EXPECT_TRUE(PrepareKernels({}, kernels::BuiltinEngines(), 4).empty());
}

}  // namespace
}  // namespace ge::runtime
