// The C++ side of the Python overhead pair (run_overhead.py): OfflineModel::Execute on a given .om (the 16-float
// Add model) with caller-owned buffers, through libge.so alone. usage: BINARY OM_PATH [benchmark flags]
#include <benchmark/benchmark.h>

#include <cstdio>
#include <string>
#include <vector>

#include "ge/model.h"

namespace {

std::string g_om_path;

void BM_OfflineModelExecute(benchmark::State& state) {
  ge::OfflineModelOptions options;
  options.intra_op_threads = 1;
  auto model = ge::OfflineModel::LoadFromFile(g_om_path, options);
  if (!model.ok()) {
    state.SkipWithError(model.status().ToString().c_str());
    return;
  }
  const auto& in = (*model)->inputs();
  std::vector<std::vector<char>> inputs(in.size());
  std::vector<ge::InputBuffer> in_buffers;
  for (size_t i = 0; i < in.size(); ++i) {
    inputs[i].assign(in[i].bytes, 0);
    in_buffers.push_back({inputs[i].data(), inputs[i].size()});
  }
  const auto& out = (*model)->outputs();
  std::vector<std::vector<char>> outputs(out.size());
  std::vector<ge::OutputBuffer> out_buffers;
  for (size_t i = 0; i < out.size(); ++i) {
    outputs[i].assign(out[i].bytes, 0);
    out_buffers.push_back({outputs[i].data(), outputs[i].size()});
  }
  for (auto _ : state) {
    ge::Status s = (*model)->Execute(in_buffers, out_buffers);
    if (!s.ok()) {
      state.SkipWithError(s.ToString().c_str());
      break;
    }
  }
}
BENCHMARK(BM_OfflineModelExecute)->MinTime(1.0);

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || argv[1][0] == '-') {
    std::fprintf(stderr, "usage: %s OM_PATH [benchmark flags]\n", argv[0]);
    return 2;
  }
  g_om_path = argv[1];
  argv[1] = argv[0];
  --argc;
  ++argv;
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  return 0;
}
