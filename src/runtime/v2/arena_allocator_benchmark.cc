// Allocation costs of runtime v2's stack for values of a decoder run: the single-thread front over the caching
// allocator alone (before the arena) against the front over the arena over the caching allocator (ModelV2's), at
// fixed lengths (every run the same sizes) and at random lengths 1..256. One iteration is one run: the 20 values
// of a 2-layer GPT-like decoder (d_model 256), each freed once two later ones exist.
#include <benchmark/benchmark.h>

#include <memory>
#include <random>
#include <vector>

#include "rt/cpu/cpu_device.h"
#include "runtime/v2/allocator_front.h"
#include "runtime/v2/arena_allocator.h"
#include "runtime/v2/caching_allocator.h"

namespace ge::runtime::v2 {
namespace {

std::unique_ptr<rt::CpuDevice> Device() {
  rt::DeviceOptions o;
  o.intra_op_threads = 1;
  return std::move(rt::CpuDevice::Create(o)).value();
}

std::unique_ptr<AllocatorFront> Stack(rt::Device* dev, bool arena, ArenaAllocator** arena_out) {
  std::unique_ptr<Allocator> a = std::make_unique<CachingAllocator>(dev, CachingAllocatorOptions{});
  *arena_out = nullptr;
  if (arena) {
    auto ar = std::make_unique<ArenaAllocator>(dev, std::move(a), ArenaAllocatorOptions{});
    *arena_out = ar.get();
    a = std::move(ar);
  }
  return std::make_unique<AllocatorFront>(std::move(a), arena ? ArenaAllocatorOptions().min_bytes : size_t{64} << 10);
}

void Run(Allocator& a, size_t s, std::vector<MemBlock*>& live) {
  const size_t values[] = {s * 1024, s * 3072, s * s * 16, s * s * 16, s * 1024,
                           s * 1024, s * 4096, s * 4096,   s * 1024,   s * 1024};
  for (int layer = 0; layer < 2; ++layer) {
    for (size_t bytes : values) {
      live.push_back(*a.Malloc(bytes));
      if (live.size() > 2) {
        a.Free(live.front());
        live.erase(live.begin());
      }
    }
  }
  for (MemBlock* b : live) a.Free(b);
  live.clear();
}

// range(0): 0 caching allocator only, 1 with the arena; range(1): the length, 0 for random lengths 1..256.
void BM_DecoderRun(benchmark::State& state) {
  auto dev = Device();
  ArenaAllocator* arena = nullptr;
  auto front = Stack(dev.get(), state.range(0) != 0, &arena);
  std::mt19937 rng(7);
  std::uniform_int_distribution<size_t> len(1, 256);
  std::vector<MemBlock*> live;
  for (auto _ : state) {
    Run(*front, state.range(1) != 0 ? static_cast<size_t>(state.range(1)) : len(rng), live);
    if (arena != nullptr) arena->EndRun();
  }
}
BENCHMARK(BM_DecoderRun)->ArgsProduct({{0, 1}, {3, 16, 100, 0}});

}  // namespace
}  // namespace ge::runtime::v2
