#include "rt/cpu/cpu_stream.h"

#include <cstring>
#include <system_error>

namespace ge::rt {

StatusOr<std::unique_ptr<CpuStream>> CpuStream::Create(ThreadPool* pool) {
  std::unique_ptr<CpuStream> s(new CpuStream(pool));
  s->pending_.reserve(1024);
  try {
    s->worker_ = std::thread([p = s.get()] { p->WorkerLoop(); });
  } catch (const std::system_error& e) {
    return ResourceExhausted(std::string("cannot start stream worker: ") + e.what());
  }
  return s;
}

CpuStream::~CpuStream() {
  {
    std::lock_guard<std::mutex> lk(mu_);
    stop_.store(true);
    if (blocked_on_ != nullptr) blocked_on_->Interrupt();
  }
  work_cv_.notify_all();
  worker_.join();
}

namespace {

struct MemcpyArgs {
  void* dst;
  const void* src;
  size_t bytes;
};

// Always runs (so its args are freed); copies only on a healthy, running stream.
Status StreamMemcpyTask(void* args, TaskContext& ctx) {
  auto* a = static_cast<MemcpyArgs*>(args);
  if (ctx.stream_error == nullptr && !ctx.Stopped() && a->bytes != 0) std::memmove(a->dst, a->src, a->bytes);
  delete a;
  return Status::Ok();
}

}  // namespace

Status CpuStream::EnqueueMemcpy(void* dst, const void* src, size_t bytes, MemcpyKind) {
  if (bytes != 0 && (dst == nullptr || src == nullptr)) return InvalidArgument("stream memcpy with a null address");
  Task t{StreamMemcpyTask, new MemcpyArgs{dst, src, bytes}};
  t.always = true;
  return Enqueue(t);
}

void CpuStream::RunAlwaysTasks(const std::vector<Task>& tasks, size_t from, TaskContext& ctx) {
  for (size_t i = from; i < tasks.size(); ++i) {
    if (tasks[i].always) (void)tasks[i].fn(tasks[i].args, ctx);
  }
}

Status CpuStream::Enqueue(Task task) {
  if (task.fn == nullptr) return InvalidArgument("stream task has no function");
  bool wake;
  {
    std::lock_guard<std::mutex> lk(mu_);
    pending_.push_back(task);
    ++enqueued_;
    wake = worker_idle_;
    worker_idle_ = false;
  }
  if (wake) work_cv_.notify_one();
  return Status::Ok();
}

// Events and streams of one device: the CPU device's events are CpuEvents.
Status CpuStream::RecordEvent(Event& e) {
  auto& event = static_cast<CpuEvent&>(e);
  return Enqueue(Task{StreamEventRecordTask, &event, event.ReserveGeneration()});
}

Status CpuStream::WaitEvent(Event& e) {
  auto& event = static_cast<CpuEvent&>(e);
  uint64_t gen = event.recorded();
  if (gen == 0) return Status::Ok();
  return Enqueue(Task{StreamEventWaitTask, &event, gen});
}

void CpuStream::RunBatch(std::vector<Task>& batch, TaskContext& ctx) {
  for (size_t i = 0; i < batch.size(); ++i) {
    const Task& t = batch[i];
    if (stop_.load(std::memory_order_relaxed)) return RunAlwaysTasks(batch, i, ctx);
    ctx.imm = t.imm;
    if (!has_error_.load(std::memory_order_relaxed)) {
      Status s = t.fn(t.args, ctx);
      if (!s.ok()) {
        std::lock_guard<std::mutex> lk(mu_);
        if (error_.ok()) error_ = std::move(s);
        has_error_.store(true, std::memory_order_relaxed);
      }
    } else if (t.fn == StreamEventRecordTask || t.always) {
      // Waiters on another stream must not hang on a point this failed stream will never reach cleanly.
      Status err = error();
      ctx.stream_error = &err;
      (void)t.fn(t.args, ctx);
      ctx.stream_error = nullptr;
    }
  }
}

void CpuStream::WorkerLoop() {
  TaskContext ctx;
  ctx.pool = pool_;
  ctx.stream = this;
  ctx.cancel = &stop_;
  std::vector<Task> batch;
  batch.reserve(1024);
  std::unique_lock<std::mutex> lk(mu_);
  for (;;) {
    if (pending_.empty() && !stop_.load()) {
      worker_idle_ = true;
      work_cv_.wait(lk, [&] { return stop_.load() || !pending_.empty(); });
    }
    worker_idle_ = false;
    if (stop_.load()) {
      batch.swap(pending_);
      lk.unlock();
      RunAlwaysTasks(batch, 0, ctx);
      return;
    }
    batch.swap(pending_);
    lk.unlock();
    RunBatch(batch, ctx);
    const size_t n = batch.size();
    batch.clear();
    lk.lock();
    completed_ += n;
    if (sync_waiters_ > 0) done_cv_.notify_all();
  }
}

Status CpuStream::Synchronize(Duration timeout) {
  std::unique_lock<std::mutex> lk(mu_);
  const uint64_t target = enqueued_;
  auto done = [&] { return completed_ >= target; };
  ++sync_waiters_;
  bool ok = true;
  if (timeout == kWaitForever) {
    done_cv_.wait(lk, done);
  } else {
    ok = done_cv_.wait_for(lk, timeout, done);
  }
  --sync_waiters_;
  if (!ok) {
    return Timeout("stream synchronize timed out after " +
                   std::to_string(std::chrono::duration_cast<std::chrono::milliseconds>(timeout).count()) +
                   " ms with " + std::to_string(target - completed_) + " tasks unfinished");
  }
  return error_;
}

bool CpuStream::Query() const {
  std::lock_guard<std::mutex> lk(mu_);
  return completed_ >= enqueued_;
}

Status CpuStream::error() const {
  std::lock_guard<std::mutex> lk(mu_);
  return error_;
}

void CpuStream::ResetError() {
  std::lock_guard<std::mutex> lk(mu_);
  error_ = Status::Ok();
  has_error_.store(false, std::memory_order_relaxed);
}

void CpuStream::SetBlockedOn(Interruptible* target) {
  std::lock_guard<std::mutex> lk(mu_);
  blocked_on_ = target;
  // A stop that came before registration: the target's wait predicate sees stop_ anyway, but wake it to be sure.
  if (target != nullptr && stop_.load()) target->Interrupt();
}

}  // namespace ge::rt
