// Per-task overhead of the device layer. Reported counters: ns_per_task.
//   BM_ModelExecute: one ModelExecute + Synchronize of a 10,000-task single-stream model (the sink fast path).
//   BM_ModelExecuteOnCaller: the same model run by CpuModel::Execute on the calling thread.
//   BM_StreamEnqueue: 10,000 CpuStream::Enqueue calls + Synchronize (host scheduling per task, for contrast).
#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdlib>

#include "rt/cpu/cpu_device.h"

namespace ge::rt {
namespace {

constexpr int kTasks = 10000;

Status Trivial(void* args, TaskContext&) {
  ++*static_cast<long*>(args);
  return Status::Ok();
}

std::unique_ptr<CpuDevice> MakeDevice() {
  DeviceOptions o;
  o.intra_op_threads = 1;
  auto d = CpuDevice::Create(o);
  if (!d.ok()) std::abort();
  return std::move(*d);
}

std::unique_ptr<Model> MakeChain(CpuDevice& dev, long* counter) {
  auto m = dev.CreateModel("chain", 1);
  if (!m.ok()) std::abort();
  for (int i = 0; i < kTasks; ++i) {
    if (!(*m)->AddKernel(0, Trivial, counter).ok()) std::abort();
  }
  if (!(*m)->Finalize().ok()) std::abort();
  return std::move(*m);
}

// Wall-clock ns per task over the whole run (the benchmarks use real time: work happens on stream workers).
struct PerTask {
  benchmark::State& state;
  std::chrono::steady_clock::time_point t0 = std::chrono::steady_clock::now();
  ~PerTask() {
    double ns = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count();
    state.counters["ns_per_task"] = ns / (static_cast<double>(state.iterations()) * kTasks);
  }
};

void BM_ModelExecute(benchmark::State& state) {
  auto dev = MakeDevice();
  long counter = 0;
  auto model = MakeChain(*dev, &counter);
  auto stream = dev->CreateStream().value();
  PerTask per_task{state};
  for (auto _ : state) {
    if (!ModelExecute(*model, *stream).ok() || !stream->Synchronize().ok()) state.SkipWithError("execute failed");
  }
  benchmark::DoNotOptimize(counter);
}
BENCHMARK(BM_ModelExecute)->Unit(benchmark::kMicrosecond)->UseRealTime();

void BM_ModelExecuteOnCaller(benchmark::State& state) {
  auto dev = MakeDevice();
  long counter = 0;
  auto model = MakeChain(*dev, &counter);
  PerTask per_task{state};
  for (auto _ : state) {
    if (!model->Execute().ok()) state.SkipWithError("execute failed");
  }
  benchmark::DoNotOptimize(counter);
}
BENCHMARK(BM_ModelExecuteOnCaller)->Unit(benchmark::kMicrosecond)->UseRealTime();

void BM_StreamEnqueue(benchmark::State& state) {
  auto dev = MakeDevice();
  long counter = 0;
  auto stream = dev->CreateStream().value();
  PerTask per_task{state};
  for (auto _ : state) {
    for (int i = 0; i < kTasks; ++i) {
      if (!stream->Enqueue(Task{Trivial, &counter}).ok()) state.SkipWithError("enqueue failed");
    }
    if (!stream->Synchronize().ok()) state.SkipWithError("synchronize failed");
  }
}
BENCHMARK(BM_StreamEnqueue)->Unit(benchmark::kMicrosecond)->UseRealTime();

}  // namespace
}  // namespace ge::rt
