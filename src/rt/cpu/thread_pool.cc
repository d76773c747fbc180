#include "rt/cpu/thread_pool.h"

#include <algorithm>
#include <string>
#include <system_error>

#include "rt/cpu/cpu_quota.h"

#ifdef _OPENMP
#include <omp.h>
#endif

namespace ge::rt {
namespace {
// The pool whose job the current thread is running (workers: always), so nested ParallelFor calls run
// serially instead of re-entering the pool (try_lock on a mutex the thread holds is undefined).
thread_local const ThreadPool* tls_inside = nullptr;
}  // namespace

struct ThreadPool::Job {
  RangeFn fn;
  size_t n;
  size_t chunk;
  std::atomic<size_t> next{0};
};

StatusOr<std::unique_ptr<ThreadPool>> ThreadPool::Create(int num_threads, PoolBackend backend,
                                                         ContentionPolicy contention) {
  if (num_threads < 0) return InvalidArgument("thread pool size must be >= 0, got " + std::to_string(num_threads));
  if (num_threads == 0) num_threads = UsableCpuCount();
#ifdef _OPENMP
  if (backend == PoolBackend::kDefault) backend = PoolBackend::kOpenMp;
#else
  if (backend == PoolBackend::kOpenMp) return InvalidArgument("thread pool: this build has no OpenMP");
  if (backend == PoolBackend::kDefault) backend = PoolBackend::kThreads;
#endif
  std::unique_ptr<ThreadPool> pool(new ThreadPool());
  pool->num_threads_ = num_threads;
  pool->backend_ = backend;
  pool->governor_ = std::make_unique<ContentionGovernor>(num_threads, contention);
  if (backend == PoolBackend::kOpenMp) return pool;
  try {
    pool->workers_.reserve(num_threads - 1);
    for (int i = 1; i < num_threads; ++i) pool->workers_.emplace_back([p = pool.get()] { p->WorkerLoop(); });
  } catch (const std::system_error& e) {
    return ResourceExhausted(std::string("cannot start thread pool worker: ") + e.what());
  }
  return pool;
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard<std::mutex> lk(mu_);
    stop_ = true;
  }
  work_cv_.notify_all();
  for (auto& t : workers_) t.join();
}

void ThreadPool::RunChunks(Job* job) {
  for (;;) {
    size_t begin = job->next.fetch_add(job->chunk, std::memory_order_relaxed);
    if (begin >= job->n) return;
    job->fn(begin, std::min(job->n, begin + job->chunk));
  }
}

void ThreadPool::WorkerLoop() {
  tls_inside = this;
  uint64_t seen = 0;
  std::unique_lock<std::mutex> lk(mu_);
  for (;;) {
    work_cv_.wait(lk, [&] { return stop_ || (job_ != nullptr && job_gen_ != seen); });
    if (stop_) return;
    seen = job_gen_;
    Job* job = job_;
    ++busy_workers_;
    lk.unlock();
    RunChunks(job);
    lk.lock();
    if (--busy_workers_ == 0) done_cv_.notify_all();
  }
}

void ThreadPool::RunOnOpenMp(Job* job, int threads) {
#ifdef _OPENMP
  const ThreadPool* outer = tls_inside;
  // A oneDNN kernel run at reduced width turns dynamic teams on for this thread (dnnl_kernel.cc); this region must
  // get the team it asks for.
  if (omp_get_dynamic()) omp_set_dynamic(0);
#pragma omp parallel num_threads(threads)
  {
    // Nested calls from inside the job (on any of the region's threads) run serially, as on kThreads workers.
    const ThreadPool* saved = tls_inside;
    tls_inside = this;
    RunChunks(job);
    tls_inside = saved;
  }
  tls_inside = outer;
#else
  RunChunks(job);
#endif
}

void ThreadPool::ParallelFor(size_t n, RangeFn fn, size_t grain) {
  if (n == 0) return;
  grain = std::max<size_t>(grain, 1);
  const size_t threads = static_cast<size_t>(governor_->Threads());
  if (threads == 1 || n <= grain || tls_inside == this || !run_mu_.try_lock()) {
    fn(0, n);
    return;
  }
  // About four chunks per thread balances uneven chunks without much contention on |next|.
  size_t chunk = std::max(grain, (n + threads * 4 - 1) / (threads * 4));
  Job job{fn, n, chunk};
  if (backend_ == PoolBackend::kOpenMp) {
    RunOnOpenMp(&job, static_cast<int>(threads));
    run_mu_.unlock();
    return;
  }
  {
    std::lock_guard<std::mutex> lk(mu_);
    job_ = &job;
    ++job_gen_;
  }
  work_cv_.notify_all();
  const ThreadPool* outer = tls_inside;
  tls_inside = this;
  RunChunks(&job);
  tls_inside = outer;
  {
    std::unique_lock<std::mutex> lk(mu_);
    job_ = nullptr;  // late wakers see no job and go back to sleep
    done_cv_.wait(lk, [&] { return busy_workers_ == 0; });
  }
  run_mu_.unlock();
}

}  // namespace ge::rt
