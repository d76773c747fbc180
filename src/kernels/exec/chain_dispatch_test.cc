// ChainDispatch.TenThousandNodes: the per-node cost of tiny element-wise kernels run the way a loaded model runs
// them (prepared once, {fn, args} tasks in an rt::Model, slots ping-ponging between two buffers). Prints ns/node;
// asserts only on the values (timing varies too much across machines to assert on).
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "ir/graph.h"
#include "kernels/exec/prepared_kernel.h"
#include "rt/cpu/cpu_model.h"

namespace ge::exec {
namespace {

constexpr int kNodes = 10000;
constexpr int kWidth = 16;
const char* const kCycle[] = {"Relu", "Neg", "Abs", "Neg"};

float Apply(const std::string& op, float x) {
  if (op == "Relu") return x < 0 ? 0.0f : x;
  if (op == "Neg") return -x;
  return std::fabs(x);
}

TEST(ChainDispatch, TenThousandNodes) {
  const TensorDesc desc(DataType::kFloat, Shape(Dims{1, kWidth}));
  ir::Graph g("chain");
  ir::Value* prev = g.AddInput("x", desc);
  std::vector<ir::Node*> nodes;
  for (int i = 0; i < kNodes; ++i) {
    ir::Value* out = g.AddValue("v" + std::to_string(i), desc);
    nodes.push_back(g.AddNode(kCycle[i % 4], "n" + std::to_string(i), {prev}, {out}));
    prev = out;
  }
  g.AddOutput(prev);

  alignas(64) float buf[2][kWidth] = {};
  std::vector<std::unique_ptr<PreparedKernel>> kernels;
  std::vector<std::unique_ptr<KernelBinding>> bindings;
  auto model = rt::CpuModel::Create("chain", 1, nullptr);
  ASSERT_TRUE(model.ok()) << model.status().ToString();
  for (int i = 0; i < kNodes; ++i) {
    PrepareRequest r;
    r.node = nodes[i];
    r.input_descs = {desc};
    r.output_descs = {desc};
    r.const_inputs = {nullptr};
    auto k = PrepareKernel(r);
    ASSERT_TRUE(k.ok()) << k.status().ToString();
    ASSERT_STREQ((*k)->impl_name(), "exec.unary_f32");
    auto b = (*k)->NewBinding();
    ASSERT_TRUE(b.ok()) << b.status().ToString();
    (*b)->io.inputs[0] = buf[i % 2];
    (*b)->io.outputs[0] = buf[(i + 1) % 2];
    ASSERT_TRUE((*model)->AddKernel(0, (*k)->fn(), b->get()).ok());
    bindings.push_back(std::move(*b));
    kernels.push_back(std::move(*k));
  }
  ASSERT_TRUE((*model)->Finalize().ok());

  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u(-2.0f, 2.0f);
  for (float& v : buf[0]) v = u(rng);
  for (int i = 0; i < 20; ++i) ASSERT_TRUE((*model)->Execute().ok());  // warm-up
  constexpr int kRuns = 300;
  double best = 1e30;
  for (int rep = 0; rep < 3; ++rep) {
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < kRuns; ++i) {
      Status s = (*model)->Execute();
      if (!s.ok()) FAIL() << s.ToString();
    }
    const double ns = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count();
    best = std::min(best, ns / (double(kRuns) * kNodes));
  }
  std::printf("ChainDispatch: %d nodes of [1,%d] float32, best of 3 x %d executions: %.2f ns/node\n", kNodes, kWidth,
              kRuns, best);

  // Values: one more execution from fresh inputs against a scalar simulation of the chain.
  float want[kWidth];
  for (int j = 0; j < kWidth; ++j) want[j] = buf[0][j] = u(rng);
  for (int i = 0; i < kNodes; ++i) {
    for (float& v : want) v = Apply(kCycle[i % 4], v);
  }
  ASSERT_TRUE((*model)->Execute().ok());
  for (int j = 0; j < kWidth; ++j) EXPECT_EQ(buf[kNodes % 2][j], want[j]) << j;
  // And one node on its own, where the values are still interesting: Relu then Neg.
  for (int j = 0; j < kWidth; ++j) buf[0][j] = u(rng);
  float x[kWidth];
  std::copy(buf[0], buf[0] + kWidth, x);
  rt::TaskContext ctx;
  ASSERT_TRUE(kernels[0]->fn()(bindings[0].get(), ctx).ok());
  ASSERT_TRUE(kernels[1]->fn()(bindings[1].get(), ctx).ok());
  for (int j = 0; j < kWidth; ++j) EXPECT_EQ(buf[0][j], -(x[j] < 0 ? 0.0f : x[j])) << j;
}

}  // namespace
}  // namespace ge::exec
