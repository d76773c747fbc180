// Intra-op parallelism: one pool per CpuDevice; a kernel splits its work with ParallelFor.
// Thread-safe. Idle workers sleep on a condition variable (no spinning). One ParallelFor runs on the pool at a
// time; a concurrent or nested call runs serially on its caller's thread instead of waiting.
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
#include "rt/task.h"

namespace ge::rt {

class ThreadPool final : public IntraOpPool {
 public:
  // |num_threads| total workers including the caller; 0 means std::thread::hardware_concurrency().
  static StatusOr<std::unique_ptr<ThreadPool>> Create(int num_threads);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  // Threads that can run one ParallelFor (workers + the caller).
  int num_threads() const override { return static_cast<int>(workers_.size()) + 1; }

  // Calls fn(begin, end) over disjoint ranges covering [0, n), each at least |grain| long (except the last),
  // and returns when all have finished. The caller's thread takes part.
  void ParallelFor(size_t n, RangeFn fn, size_t grain = 1) override;

 private:
  struct Job;
  ThreadPool() = default;
  void WorkerLoop();
  static void RunChunks(Job* job);

  std::vector<std::thread> workers_;
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
