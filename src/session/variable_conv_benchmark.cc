// A training step's forward conv with its weight in a session variable vs the same weight as a constant (issue 11,
// variable acceleration): what a run costs when the weight is not prepacked at compile time.
#include <benchmark/benchmark.h>

#include <vector>

#include "ge/session.h"

namespace {

constexpr int64_t kC = 64, kHW = 56;

ge::Tensor Filled(const std::vector<int64_t>& dims, float v) {
  int64_t n = 1;
  for (int64_t d : dims) n *= d;
  return ge::Tensor::FromVector<float>(std::vector<float>(static_cast<size_t>(n), v), dims);
}

void RunConv(benchmark::State& state, bool variable_weight) {
  if (!ge::GEInitialize().ok()) return state.SkipWithError("GEInitialize");
  ge::Session s;
  ge::Graph g("conv");
  auto x = g.Input("x", ge::DataType::kFloat, {1, kC, kHW, kHW});
  ge::Tensor w = Filled({kC, kC, 3, 3}, 0.01f);
  auto weight = variable_weight ? g.Variable("w", ge::DataType::kFloat, {kC, kC, 3, 3}, &w) : g.Constant("w", w);
  g.AddOutput(g.Op1("Conv", {x, weight}, {{"pads", std::vector<int64_t>{1, 1, 1, 1}}}));
  if (!s.AddGraph(1, g).ok()) return state.SkipWithError("AddGraph");
  std::vector<ge::Tensor> in{Filled({1, kC, kHW, kHW}, 1.0f)}, out;
  if (!s.RunGraph(1, in, out).ok()) return state.SkipWithError("RunGraph");
  for (auto _ : state) {
    if (!s.RunGraph(1, in, out).ok()) return state.SkipWithError("RunGraph");
  }
}

void BM_ConvConstantWeight(benchmark::State& state) { RunConv(state, false); }
void BM_ConvVariableWeight(benchmark::State& state) { RunConv(state, true); }
BENCHMARK(BM_ConvConstantWeight)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ConvVariableWeight)->Unit(benchmark::kMillisecond);

}  // namespace
