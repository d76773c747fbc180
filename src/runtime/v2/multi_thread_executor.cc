#include "runtime/v2/multi_thread_executor.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include "runtime/v2/exec_plan.h"

namespace ge::runtime::v2 {
namespace {

constexpr uint32_t kNone = 0xFFFFFFFFu;
// Idle rounds before a thread with nothing to run sleeps: first pause instructions, then yields (the machine may
// have fewer cores than threads, and a yield lets a working thread have the core).
constexpr int kPauseRounds = 256;
constexpr int kIdleRounds = kPauseRounds + 64;

inline void CpuRelax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

// Returns false when the caller should stop spinning and sleep.
inline bool Backoff(int* idle) {
  if (++*idle < kPauseRounds) {
    CpuRelax();
    return true;
  }
  if (*idle < kIdleRounds) {
    std::this_thread::yield();
    return true;
  }
  *idle = 0;
  return false;
}

// Multi-producer multi-consumer queue of node indices for one run. Each slot is written at most once per run and
// tagged with the run's generation, so a run starts by bumping the generation instead of clearing slots.
// Reset only while no thread uses the queue (between runs).
class ReadyQueue {
 public:
  void Init(size_t capacity) {
    capacity_ = capacity;
    slots_ = std::make_unique<std::atomic<uint64_t>[]>(capacity);
    for (size_t i = 0; i < capacity; ++i) slots_[i].store(0, std::memory_order_relaxed);
  }
  void Reset() {
    if (++gen_ == 0) {  // wrapped: stale tags could match again
      for (size_t i = 0; i < capacity_; ++i) slots_[i].store(0, std::memory_order_relaxed);
      gen_ = 1;
    }
    head_.store(0, std::memory_order_relaxed);
    tail_.store(0, std::memory_order_relaxed);
  }
  // Claims |count| consecutive slots; fill each with Publish.
  size_t Reserve(size_t count) { return tail_.fetch_add(count, std::memory_order_relaxed); }
  void Publish(size_t slot, uint32_t node) {
    slots_[slot].store((static_cast<uint64_t>(gen_) << 32) | node, std::memory_order_release);
  }
  bool TryPop(uint32_t* node) {
    size_t h = head_.load(std::memory_order_acquire);
    for (;;) {
      if (h >= capacity_) return false;
      const uint64_t v = slots_[h].load(std::memory_order_acquire);
      if ((v >> 32) != gen_) return false;  // nothing published there yet
      if (head_.compare_exchange_weak(h, h + 1, std::memory_order_acq_rel, std::memory_order_acquire)) {
        *node = static_cast<uint32_t>(v);
        return true;
      }
    }
  }
  bool HasWork() const {
    const size_t h = head_.load(std::memory_order_acquire);
    return h < capacity_ && (slots_[h].load(std::memory_order_acquire) >> 32) == gen_;
  }

 private:
  std::unique_ptr<std::atomic<uint64_t>[]> slots_;
  size_t capacity_ = 0;
  uint32_t gen_ = 0;  // written between runs only
  std::atomic<size_t> head_{0};
  std::atomic<size_t> tail_{0};
};

// A worker group and its event count |ec| (high half: wake-ups so far, low half: sleeping threads). A thread goes
// to sleep by counting itself in with one read-modify-write, then re-checking the queue; a pusher publishes its
// nodes, then bumps the wake-up half with one read-modify-write and wakes someone if the sleeper half is non-zero.
// Both sides modify the same atomic, so one of them sees the other: no wake-up is lost, without seq_cst fences.
struct Group {
  static constexpr uint64_t kWake = uint64_t{1} << 32;
  static constexpr uint64_t kSleepers = kWake - 1;

  ReadyQueue queue;
  int workers = 0;  // threads of the executor in this group (the caller is in the launch group in addition)
  std::atomic<uint64_t> ec{0};
  std::mutex mu;  // held between a wake-up's increment and its notify, and by sleepers checking the count
  std::condition_variable cv;

  void Notify(bool all) {
    const uint64_t before = ec.fetch_add(kWake, std::memory_order_acq_rel);
    if ((before & kSleepers) == 0) return;
    { std::lock_guard<std::mutex> lk(mu); }
    if (all) {
      cv.notify_all();
    } else {
      cv.notify_one();
    }
  }
  // Sleeps until the next Notify unless |stop| is set or the queue has work once this thread is counted in.
  void Sleep(const std::atomic<bool>& stop) {
    const uint64_t wakes = ec.fetch_add(1, std::memory_order_acq_rel) >> 32;
    if (!stop.load(std::memory_order_acquire) && !queue.HasWork()) {
      std::unique_lock<std::mutex> lk(mu);
      cv.wait(lk, [&] { return (ec.load(std::memory_order_acquire) >> 32) != wakes; });
    }
    ec.fetch_sub(1, std::memory_order_relaxed);
  }
};

// kTraced: every node's run is timed and recorded (MultiThreadOptions::tracer); false: no trace code at all.
template <bool kTraced>
class MultiThreadExecutor final : public Executor {
 public:
  MultiThreadExecutor(ExecuteGraph* graph, ExecutionState* exec, ExecPlan plan, const MultiThreadOptions& options)
      : graph_(graph), exec_(exec), plan_(std::move(plan)), tracer_(options.tracer) {
    graph_->Bind(exec_);
    const size_t n = plan_.num_nodes();
    const bool memory_group = options.memory_threads > 0;
    groups_[kLaunch].workers = options.launch_threads - 1;
    groups_[kMemory].workers = options.memory_threads;
    route_.resize(n);
    size_t count[2] = {0, 0};
    for (size_t i = 0; i < n; ++i) {
      route_[i] = memory_group && plan_.section[i] == CriticalSection::kMemory ? kMemory : kLaunch;
      ++count[route_[i]];
    }
    for (int g = 0; g < 2; ++g) groups_[g].queue.Init(count[g]);
    degree_ = std::make_unique<std::atomic<uint32_t>[]>(n);
    size_t max_out = 0;
    for (size_t i = 0; i < n; ++i) {
      const size_t out = plan_.edge_begin[i + 1] - plan_.edge_begin[i];
      if (out == 0) ++sinks_;
      max_out = std::max(max_out, out);
    }
    scratch_.resize(options.launch_threads + options.memory_threads);
    for (std::vector<uint32_t>& s : scratch_) s.resize(max_out);
  }

  ~MultiThreadExecutor() override {
    {
      std::lock_guard<std::mutex> lk(run_mu_);
      stop_ = true;
    }
    run_cv_.notify_all();
    for (std::thread& t : threads_) t.join();
  }

  Status StartWorkers() {
    try {
      for (int g = 0; g < 2; ++g) {
        for (int w = 0; w < groups_[g].workers; ++w) {
          const int thread = static_cast<int>(threads_.size()) + 1;  // [0] is the caller's
          uint32_t* scratch = scratch_[thread].data();
          if constexpr (kTraced) {
            tracer_->recorder->NameTrack(tracer_->track + thread, "executor worker " + std::to_string(thread) +
                                                                      (g == kMemory ? " (memory)" : " (launch)"));
          }
          threads_.emplace_back([this, g, scratch, thread] { WorkerLoop(g, scratch, thread); });
        }
      }
    } catch (const std::system_error& e) {
      return ResourceExhausted(std::string("cannot start executor worker thread: ") + e.what());
    }
    return Status::Ok();
  }

  Status Run() override {
    const size_t n = plan_.num_nodes();
    if (n == 0) return Status::Ok();
    for (size_t i = 0; i < n; ++i) degree_[i].store(plan_.in_degree[i], std::memory_order_relaxed);
    remaining_.store(sinks_, std::memory_order_relaxed);
    failed_.store(kNone, std::memory_order_relaxed);
    over_.store(false, std::memory_order_relaxed);
    for (Group& g : groups_) g.queue.Reset();
    for (uint32_t r : plan_.roots) {  // no worker is in a run yet: no wake-ups
      ReadyQueue& q = groups_[route_[r]].queue;
      q.Publish(q.Reserve(1), r);
    }
    const int workers = static_cast<int>(threads_.size());
    active_.store(workers, std::memory_order_relaxed);
    if (workers > 0) {
      bool parked;
      {
        std::lock_guard<std::mutex> lk(run_mu_);  // publishes the resets above to the workers
        run_gen_.store(run_gen_.load(std::memory_order_relaxed) + 1, std::memory_order_release);
        parked = parked_ > 0;
      }
      if (parked) run_cv_.notify_all();
    }
    Participate(kLaunch, scratch_[0].data(), 0);
    WaitForWorkers();
    const uint32_t failed = failed_.load(std::memory_order_acquire);
    if (failed != kNone) return FailedNodeStatus(*graph_, exec_, failed);
    return Status::Ok();
  }

 private:
  static constexpr int kLaunch = 0;
  static constexpr int kMemory = 1;

  void WorkerLoop(int group, uint32_t* scratch, int thread) {
    uint64_t seen = 0;
    for (;;) {
      int idle = 0;
      while (run_gen_.load(std::memory_order_acquire) == seen && Backoff(&idle)) {
      }
      {
        std::unique_lock<std::mutex> lk(run_mu_);
        ++parked_;
        run_cv_.wait(lk, [&] { return stop_ || run_gen_.load(std::memory_order_relaxed) != seen; });
        --parked_;
        if (stop_) return;
        seen = run_gen_.load(std::memory_order_relaxed);
      }
      Participate(group, scratch, thread);
      if (active_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
        std::lock_guard<std::mutex> lk(done_mu_);
        done_cv_.notify_one();
      }
    }
  }

  // Runs nodes of |group| until the run is over. |scratch|: this thread's room for the consumers one node readies;
  // |thread|: its index (0: the caller).
  void Participate(int group, uint32_t* scratch, int thread) {
    Group& g = groups_[group];
    int idle = 0;
    for (;;) {
      if (over_.load(std::memory_order_acquire)) return;
      uint32_t node;
      if (g.queue.TryPop(&node)) {
        idle = 0;
        while (node != kNone && !over_.load(std::memory_order_acquire)) node = Execute(node, group, scratch, thread);
        continue;
      }
      if (!Backoff(&idle)) g.Sleep(over_);
    }
  }

  // Runs |i|, makes its consumers ready and returns one of them in |group| for this thread to run next (kNone if
  // none); the others go to their groups' queues, one reservation and one wake-up per group.
  uint32_t Execute(uint32_t i, int group, uint32_t* scratch, int thread) {
    const FlatNode& node = plan_.nodes[i];
    KernelStatus status;
    if constexpr (kTraced) {
      const auto t0 = std::chrono::steady_clock::now();
      status = node.fn(node.ctx);
      const auto t1 = std::chrono::steady_clock::now();
      tracer_->recorder->AddKernelSlice(tracer_->track + thread, tracer_->labels->For(i), tracer_->recorder->Since(t0),
                                        std::chrono::duration_cast<std::chrono::nanoseconds>(t1 - t0).count());
    } else {
      (void)thread;
      status = node.fn(node.ctx);
    }
    if (status != kStatusSuccess) {
      uint32_t expected = kNone;
      failed_.compare_exchange_strong(expected, i, std::memory_order_acq_rel);
      Finish();
      return kNone;
    }
    const uint32_t begin = plan_.edge_begin[i];
    const uint32_t end = plan_.edge_begin[i + 1];
    if (begin == end) {  // a sink: the run is over when the last one has finished (every node precedes a sink)
      if (remaining_.fetch_sub(1, std::memory_order_acq_rel) == 1) Finish();
      return kNone;
    }
    uint32_t next = kNone;
    uint32_t ready = 0;
    uint32_t per_group[2] = {0, 0};
    for (uint32_t e = begin; e < end; ++e) {
      const uint32_t c = plan_.edges[e];
      // A node with one predecessor is ready now: no shared count to decrement.
      if (plan_.in_degree[c] != 1 && degree_[c].fetch_sub(1, std::memory_order_acq_rel) != 1) continue;
      if (next == kNone && route_[c] == group) {
        next = c;
      } else {
        scratch[ready++] = c;
        ++per_group[route_[c]];
      }
    }
    for (int gi = 0; gi < 2; ++gi) {
      if (per_group[gi] == 0) continue;
      Group& g = groups_[gi];
      size_t slot = g.queue.Reserve(per_group[gi]);
      for (uint32_t k = 0; k < ready; ++k) {
        if (route_[scratch[k]] == gi) g.queue.Publish(slot++, scratch[k]);
      }
      g.Notify(/*all=*/per_group[gi] > 1);
    }
    return next;
  }

  // The run is over (all done, or a failure): no node starts after this; wake every sleeper to leave the run.
  void Finish() {
    over_.store(true, std::memory_order_release);
    for (Group& g : groups_) g.Notify(/*all=*/true);
  }

  // Returns once every worker has left the run, so none touches the graph after Run returns.
  void WaitForWorkers() {
    int idle = 0;
    while (active_.load(std::memory_order_acquire) != 0) {
      if (Backoff(&idle)) continue;
      std::unique_lock<std::mutex> lk(done_mu_);
      done_cv_.wait(lk, [&] { return active_.load(std::memory_order_acquire) == 0; });
    }
  }

  ExecuteGraph* graph_;
  ExecutionState* exec_;
  const ExecPlan plan_;
  std::vector<uint8_t> route_;  // node -> group
  Group groups_[2];
  std::unique_ptr<std::atomic<uint32_t>[]> degree_;  // this run's in-degrees
  uint32_t sinks_ = 0;                               // nodes without consumers
  std::atomic<uint32_t> remaining_{0};               // sinks of this run not finished
  std::atomic<uint32_t> failed_{kNone};              // the first node that failed in this run
  std::atomic<bool> over_{false};                    // no node starts once set

  std::vector<std::vector<uint32_t>> scratch_;  // per thread (the caller first), max out-degree entries each
  std::vector<std::thread> threads_;
  std::mutex run_mu_;
  std::condition_variable run_cv_;    // workers wait here between runs
  std::atomic<uint64_t> run_gen_{0};  // written under run_mu_, read by spinning workers
  int parked_ = 0;                    // guarded by run_mu_
  bool stop_ = false;                 // guarded by run_mu_
  std::atomic<int> active_{0};        // workers not yet out of the current run
  std::mutex done_mu_;
  std::condition_variable done_cv_;  // Run waits here for active_ == 0
  KernelTracer* tracer_;             // kTraced only
};

template <bool kTraced>
StatusOr<std::unique_ptr<Executor>> Start(ExecuteGraph* graph, ExecutionState* exec, ExecPlan plan,
                                          const MultiThreadOptions& options) {
  auto ex = std::make_unique<MultiThreadExecutor<kTraced>>(graph, exec, std::move(plan), options);
  GE_RETURN_IF_ERROR(ex->StartWorkers());
  return std::unique_ptr<Executor>(std::move(ex));
}

}  // namespace

StatusOr<std::unique_ptr<Executor>> CreateMultiThreadExecutor(ExecuteGraph* graph, ExecutionState* exec,
                                                              const MultiThreadOptions& options) {
  if (options.launch_threads < 1 || options.memory_threads < 0) {
    return InvalidArgument("multi-thread executor needs launch_threads >= 1 and memory_threads >= 0, got " +
                           std::to_string(options.launch_threads) + " and " + std::to_string(options.memory_threads));
  }
  GE_ASSIGN_OR_RETURN(ExecPlan plan, BuildExecPlan(*graph));
  if (options.tracer != nullptr) {
    if (options.tracer->recorder == nullptr || options.tracer->labels == nullptr) {
      return InvalidArgument("multi-thread executor: a tracer needs a recorder and labels");
    }
    return Start<true>(graph, exec, std::move(plan), options);
  }
  return Start<false>(graph, exec, std::move(plan), options);
}

}  // namespace ge::runtime::v2
