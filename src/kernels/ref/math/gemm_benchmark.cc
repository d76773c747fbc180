// The reference sgemm (math::Gemm) at n = 512 (Google Benchmark; `make bench-kernels`). Counter: GFLOP/s.
#include <benchmark/benchmark.h>

#include <vector>

#include "kernels/ref/math/gemm.h"

namespace ge::ref {
namespace {

void BM_RefSgemm(benchmark::State& state) {
  const int64_t n = state.range(0);
  std::vector<float> a(n * n, 1.f), b(n * n, 0.5f), c(n * n, 0.f);
  for (auto _ : state) {
    math::Gemm(false, false, n, n, n, 1.f, a.data(), n, b.data(), n, c.data(), n);
    benchmark::DoNotOptimize(c.data());
  }
  state.counters["GFLOP/s"] =
      benchmark::Counter(2.0 * n * n * n * 1e-9 * state.iterations(), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_RefSgemm)->Arg(512)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace ge::ref
