// oneDNN convolution throughput (Google Benchmark; `make bench-kernels`): ResNet-50's 3x3 64->64 layer at 56x56,
// batch 1, at 1 and 2 threads, through the dnnl engine's prepared kernel. Counter: GFLOP/s; label: the
// implementation oneDNN chose.
#include <benchmark/benchmark.h>

#include "kernels/dnnl/dnnl_test_util.h"

namespace ge::dnnl_kernels::testing {
namespace {

using AV = ir::AttrValue;

void BM_DnnlConvResNet50_3x3(benchmark::State& state) {
  std::mt19937 rng(11);
  Case c("Conv", {RandomTensor({1, 64, 56, 56}, rng), RandomTensor({64, 64, 3, 3}, rng), RandomTensor({64}, rng)},
         {false, true, true});
  c.attrs.Set("pads", AV::Ints({1, 1, 1, 1}));
  c.threads = static_cast<int>(state.range(0));
  auto p = PrepareCase(c);
  if (!p.ok() || (*p)->kernel == nullptr) {
    state.SkipWithError(p.ok() ? "the dnnl engine declined the conv" : p.status().ToString().c_str());
    return;
  }
  for (auto _ : state) {
    Status s = (*p)->Run();
    if (!s.ok()) state.SkipWithError(s.ToString().c_str());
  }
  const double flop = 2.0 * 64 * 64 * 9 * 56 * 56;
  state.counters["GFLOP/s"] = benchmark::Counter(flop * 1e-9 * state.iterations(), benchmark::Counter::kIsRate);
  state.SetLabel((*p)->kernel->impl_name());
}
BENCHMARK(BM_DnnlConvResNet50_3x3)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
}  // namespace ge::dnnl_kernels::testing
