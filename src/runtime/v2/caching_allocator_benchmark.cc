// CachingAllocator costs: the fast path (a hit in the class of the block just freed), a hit in a larger class,
// a miss that goes to the device, the device alone, two threads sharing one allocator, and one GPT-like run at a
// random length. Each iteration is one Malloc + one Free unless its name says otherwise.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <memory>
#include <random>
#include <vector>

#include "rt/cpu/cpu_device.h"
#include "runtime/v2/caching_allocator.h"

namespace ge::runtime::v2 {
namespace {

std::unique_ptr<rt::CpuDevice> Device() {
  rt::DeviceOptions o;
  o.intra_op_threads = 1;
  return std::move(rt::CpuDevice::Create(o)).value();
}

void BM_HitSameClass(benchmark::State& state) {
  auto dev = Device();
  CachingAllocator a(dev.get(), {});
  const size_t bytes = static_cast<size_t>(state.range(0));
  a.Free(*a.Malloc(bytes));
  for (auto _ : state) {
    MemBlock* b = *a.Malloc(bytes);
    benchmark::DoNotOptimize(b->addr);
    a.Free(b);
  }
}
BENCHMARK(BM_HitSameClass)->Arg(64)->Arg(64 << 10)->Arg(8 << 20);

void BM_HitLargerClass(benchmark::State& state) {
  auto dev = Device();
  CachingAllocatorOptions o;
  CachingAllocator a(dev.get(), o);
  a.Free(*a.Malloc(60000));  // class 60416 serves a 40000-byte request (class 40448): 8 classes up
  for (auto _ : state) {
    MemBlock* b = *a.Malloc(40000);
    benchmark::DoNotOptimize(b->addr);
    a.Free(b);
  }
}
BENCHMARK(BM_HitLargerClass);

// Malloc + Free + Trim: every Malloc goes to the device.
void BM_MissToDevice(benchmark::State& state) {
  auto dev = Device();
  CachingAllocator a(dev.get(), {});
  const size_t bytes = static_cast<size_t>(state.range(0));
  for (auto _ : state) {
    MemBlock* b = *a.Malloc(bytes);
    benchmark::DoNotOptimize(b->addr);
    a.Free(b);
    a.Trim();
  }
}
BENCHMARK(BM_MissToDevice)->Arg(64)->Arg(64 << 10)->Arg(8 << 20);

// rt::Device Malloc + Free, for comparison with the cache.
void BM_DeviceAlone(benchmark::State& state) {
  auto dev = Device();
  const size_t bytes = static_cast<size_t>(state.range(0));
  for (auto _ : state) {
    void* p = *dev->Malloc(rt::MemType::kDevice, bytes);
    benchmark::DoNotOptimize(p);
    dev->Free(rt::MemType::kDevice, p).IgnoreError();
  }
}
BENCHMARK(BM_DeviceAlone)->Arg(64)->Arg(64 << 10)->Arg(8 << 20);

// Threads sharing one allocator, each hitting its own class (contention on the one mutex).
std::unique_ptr<rt::CpuDevice> g_shared_device;
std::unique_ptr<CachingAllocator> g_shared;
void BM_HitSharedByThreads(benchmark::State& state) {
  if (state.thread_index() == 0) {
    g_shared_device = Device();
    g_shared = std::make_unique<CachingAllocator>(g_shared_device.get(), CachingAllocatorOptions{});
  }
  const size_t bytes = 1024 * static_cast<size_t>(state.thread_index() + 1);
  for (auto _ : state) {
    MemBlock* b = *g_shared->Malloc(bytes);
    benchmark::DoNotOptimize(b->addr);
    g_shared->Free(b);
  }
  if (state.thread_index() == 0) {
    g_shared.reset();
    g_shared_device.reset();
  }
}
BENCHMARK(BM_HitSharedByThreads)->Threads(1)->Threads(2)->UseRealTime();

// One iteration: the 20 values of a 2-layer GPT-like decoder run at a random length 1..256 (d_model 256).
void BM_DecoderRunAtRandomLength(benchmark::State& state) {
  auto dev = Device();
  CachingAllocatorOptions o;
  o.cap_bytes = static_cast<size_t>(state.range(0)) << 20;
  CachingAllocator a(dev.get(), o);
  std::mt19937 rng(7);
  std::uniform_int_distribution<size_t> len(1, 256);
  std::vector<MemBlock*> live;
  for (auto _ : state) {
    const size_t s = len(rng);
    const size_t values[] = {s * 1024, s * 3072, s * s * 16, s * s * 16, s * 1024,
                             s * 1024, s * 4096, s * 4096, s * 1024, s * 1024};
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
  const CachingAllocatorStats st = a.stats();
  state.counters["hit_pct"] = 100.0 * st.hits / std::max<uint64_t>(st.hits + st.misses, 1);
  state.counters["held_MiB"] = st.cached_bytes / 1048576.0;
}
BENCHMARK(BM_DecoderRunAtRandomLength)->Arg(0)->Arg(8);

}  // namespace
}  // namespace ge::runtime::v2
