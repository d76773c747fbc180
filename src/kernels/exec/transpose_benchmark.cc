// Prepared Transpose/Slice kernels against the reference adapter on the same slots (Google Benchmark; `make
// bench-kernels`): a channel shuffle, a 2-D transpose, NCHW->NHWC and a channel-half slice. Label: the kernel.
#include <benchmark/benchmark.h>

#include "kernels/exec/exec_test_util.h"
#include "kernels/exec/ref_adapter.h"

namespace ge::exec::testing {
namespace {

OpCase MakeCase(int which) {
  std::mt19937 rng(37);
  switch (which) {
    case 0:
      return OpCase("Transpose", {RandomTensor(DataType::kFloat, {1, 2, 58, 28, 28}, rng)}, {}, Perm({0, 2, 1, 3, 4}));
    case 1:
      return OpCase("Transpose", {RandomTensor(DataType::kFloat, {256, 384}, rng)});
    case 2:
      return OpCase("Transpose", {RandomTensor(DataType::kFloat, {1, 64, 56, 56}, rng)}, {}, Perm({0, 2, 3, 1}));
    default: {
      std::vector<Tensor> in = {RandomTensor(DataType::kFloat, {1, 116, 28, 28}, rng),
                                Tensor::FromVector<int64_t>({58}, {1}), Tensor::FromVector<int64_t>({116}, {1}),
                                Tensor::FromVector<int64_t>({1}, {1})};
      return OpCase("Slice", in, {false, true, true, true});
    }
  }
}

const char* kNames[] = {"shuffle [1,2,58,28,28]", "transpose [256,384]", "NCHW->NHWC [1,64,56,56]",
                        "slice half [1,116,28,28]"};

// range(0): the case; range(1): 0 = the prepared kernel, 1 = the reference adapter.
void BM_DataMovement(benchmark::State& state) {
  auto p = PrepareCase(MakeCase(static_cast<int>(state.range(0))));
  if (!p.ok()) {
    state.SkipWithError(p.status().ToString().c_str());
    return;
  }
  PreparedKernel* k = (*p)->kernel.get();
  KernelBinding* binding = (*p)->binding.get();
  std::unique_ptr<PreparedKernel> ref;
  std::unique_ptr<KernelBinding> ref_binding;
  if (state.range(1) == 1) {
    auto r = RefAdapter::Create((*p)->request);
    if (!r.ok()) {
      state.SkipWithError(r.status().ToString().c_str());
      return;
    }
    ref = std::move(*r);
    auto b = ref->NewBinding();
    if (!b.ok()) {
      state.SkipWithError(b.status().ToString().c_str());
      return;
    }
    ref_binding = std::move(*b);
    ref_binding->io = binding->io;
    k = ref.get();
    binding = ref_binding.get();
  }
  rt::TaskContext ctx;
  for (auto _ : state) {
    Status s = k->fn()(binding, ctx);
    if (!s.ok()) state.SkipWithError(s.ToString().c_str());
  }
  state.SetLabel(std::string(kNames[state.range(0)]) + ": " + k->impl_name());
}
BENCHMARK(BM_DataMovement)->ArgsProduct({{0, 1, 2, 3}, {0, 1}})->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace ge::exec::testing
