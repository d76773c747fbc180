// The reference Conv kernel's float path (im2col + GEMM) on ResNet-50's 3x3 64->64 layer at 56x56 (Google
// Benchmark; `make bench-kernels`). Counter: GFLOP/s.
#include <benchmark/benchmark.h>

#include "kernels/ref/families.h"
#include "kernels/ref/testing/op_tester.h"
#include "ops/families.h"

namespace ge::ref {
namespace {

void BM_RefConvResNet50_3x3(benchmark::State& state) {
  testing::OpTester t(ops::RegisterNnOps, RegisterNnRefKernels);
  const int c = 64, h = 56, m = 64;
  Tensor x = Tensor::FromVector(std::vector<float>(c * h * h, 0.5f), {1, c, h, h});
  Tensor w = Tensor::FromVector(std::vector<float>(m * c * 9, 0.25f), {m, c, 3, 3});
  ir::AttrMap a;
  a.Set("pads", ir::AttrValue::Ints({1, 1, 1, 1}));
  for (auto _ : state) {
    auto y = t.Run1("Conv", {x, w}, a);
    if (!y.ok()) state.SkipWithError(y.status().ToString().c_str());
  }
  const double flop = 2.0 * m * c * 9 * h * h;
  state.counters["GFLOP/s"] = benchmark::Counter(flop * 1e-9 * state.iterations(), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_RefConvResNet50_3x3)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace ge::ref
