// Intra-op parallelism: one pool per CpuDevice; a kernel splits its work with ParallelFor.
// Thread-safe. One ParallelFor runs on the pool at a time; a concurrent or nested call runs serially on its caller's
// thread instead of waiting.
//
// Two backends. kOpenMp (the default where the build has OpenMP) runs each ParallelFor as an OpenMP parallel region:
// the threads oneDNN's primitives run on, which spin for a while after each region, so the host kernels between
// primitives start in ~1 us and no second set of threads competes with them for the cores (with a pool of its own,
// a CNN's ChannelShuffle on 2 cores waited tens of microseconds per call for a sleeping worker while OpenMP's spun).
// kThreads: workers of the pool's own that sleep on a condition variable (no spinning).
#pragma once
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <memory>
#include <mutex>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

#include "base/status.h"
#include "rt/cpu/contention_governor.h"
#include "rt/task.h"

namespace ge::rt {

enum class PoolBackend { kDefault, kOpenMp, kThreads };

class ThreadPool final : public IntraOpPool {
 public:
  // |num_threads| total workers including the caller; 0 means UsableCpuCount() (affinity and cgroup quota).
  // kDefault: kOpenMp where the build has OpenMP, else kThreads; kOpenMp without it is InvalidArgument.
  // |contention| picks how many of them each region uses when other processes take the CPU (ContentionGovernor).
  static StatusOr<std::unique_ptr<ThreadPool>> Create(int num_threads, PoolBackend backend = PoolBackend::kDefault,
                                                      ContentionPolicy contention = ContentionPolicy::kAdaptive);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  // Threads that can run one ParallelFor (workers + the caller).
  int num_threads() const override { return num_threads_; }
  int active_threads() override { return governor_->Threads(); }
  const ContentionGovernor& governor() const { return *governor_; }
  PoolBackend backend() const { return backend_; }

  // Calls fn(begin, end) over disjoint ranges covering [0, n), each at least |grain| long (except the last),
  // and returns when all have finished. The caller's thread takes part.
  void ParallelFor(size_t n, RangeFn fn, size_t grain = 1) override;

 private:
  struct Job;
  ThreadPool() = default;
  void WorkerLoop();
  static void RunChunks(Job* job);
  void RunOnOpenMp(Job* job, int threads);

  int num_threads_ = 1;
  PoolBackend backend_ = PoolBackend::kThreads;
  std::unique_ptr<ContentionGovernor> governor_;
  std::vector<std::thread> workers_;  // kThreads
  std::mutex run_mu_;  // held by the caller whose job owns the pool
  std::mutex mu_;      // guards the fields below
  std::condition_variable work_cv_;
  std::condition_variable done_cv_;
  Job* job_ = nullptr;
  uint64_t job_gen_ = 0;
  int busy_workers_ = 0;
  bool stop_ = false;
};

}  // namespace ge::rt
