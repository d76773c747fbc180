#include "rt/cpu/cpu_model.h"

#include <chrono>
#include <cstring>
#include <optional>

namespace ge::rt {

CpuModel::CpuModel(std::string name, int num_streams, ThreadPool* pool)
    : name_(std::move(name)), pool_(pool), lists_(num_streams), meta_(num_streams) {}

StatusOr<std::unique_ptr<CpuModel>> CpuModel::Create(std::string name, int num_streams, ThreadPool* pool) {
  if (num_streams < 1) return InvalidArgument("model " + name + ": needs at least one stream");
  std::unique_ptr<CpuModel> m(new CpuModel(std::move(name), num_streams, pool));
  for (int j = 1; j < num_streams; ++j) {
    GE_ASSIGN_OR_RETURN(auto worker, CpuStream::Create(pool));
    m->workers_.push_back(std::move(worker));
  }
  m->sub_runs_.reserve(num_streams);
  for (int j = 0; j < num_streams; ++j) m->sub_runs_.push_back(SubRun{m.get(), j});
  return m;
}

CpuModel::~CpuModel() {
  Abort();
  workers_.clear();  // stops and joins the workers before the lists they read go away
}

Status CpuModel::CheckBuildable(int stream) const {
  if (finalized_) return FailedPrecondition("model " + name_ + ": cannot add tasks after Finalize");
  if (stream < 0 || stream >= num_streams()) {
    return OutOfRange("model " + name_ + ": stream " + std::to_string(stream) + " not in [0, " +
                      std::to_string(num_streams()) + ")");
  }
  return Status::Ok();
}

Status CpuModel::Add(int stream, Task task, ModelTaskKind kind, int event) {
  GE_RETURN_IF_ERROR(CheckBuildable(stream));
  if (!meta_[stream].empty() && meta_[stream].back().kind == ModelTaskKind::kEndGraph) {
    return FailedPrecondition("model " + name_ + ": stream " + std::to_string(stream) + " already ended");
  }
  lists_[stream].push_back(task);
  meta_[stream].push_back(TaskMeta{kind, event});
  return Status::Ok();
}

StatusOr<int> CpuModel::AddEvent() {
  if (finalized_) return FailedPrecondition("model " + name_ + ": cannot add events after Finalize");
  events_.push_back(std::make_unique<EventSlot>());
  return static_cast<int>(events_.size()) - 1;
}

Status CpuModel::AddKernel(int stream, TaskFn fn, void* args) {
  if (fn == nullptr) return InvalidArgument("model " + name_ + ": kernel task has no function");
  return Add(stream, Task{fn, args}, ModelTaskKind::kKernel, -1);
}

Status CpuModel::AddMemcpy(int stream, void* dst, const void* src, size_t bytes) {
  GE_RETURN_IF_ERROR(CheckBuildable(stream));
  if (bytes != 0 && (dst == nullptr || src == nullptr)) return InvalidArgument("model " + name_ + ": memcpy of null");
  memcpy_args_.push_back(MemcpyArgs{dst, src, bytes});
  return Add(stream, Task{MemcpyTask, &memcpy_args_.back()}, ModelTaskKind::kMemcpy, -1);
}

Status CpuModel::AddEventRecord(int stream, int event) {
  if (event < 0 || event >= static_cast<int>(events_.size())) {
    return OutOfRange("model " + name_ + ": no event " + std::to_string(event));
  }
  return Add(stream, Task{EventRecordTask, events_[event].get()}, ModelTaskKind::kEventRecord, event);
}

Status CpuModel::AddEventWait(int stream, int event) {
  if (event < 0 || event >= static_cast<int>(events_.size())) {
    return OutOfRange("model " + name_ + ": no event " + std::to_string(event));
  }
  return Add(stream, Task{EventWaitTask, events_[event].get()}, ModelTaskKind::kEventWait, event);
}

Status CpuModel::AddEndGraph(int stream) { return Add(stream, Task{EndGraphTask, this}, ModelTaskKind::kEndGraph, -1); }

Status CpuModel::CheckNoDeadlock() const {
  // Simulate one execution with every list advancing as far as it can; a list left behind waits forever.
  const int n = num_streams();
  std::vector<size_t> pos(n, 0);
  std::vector<bool> recorded(events_.size(), false);
  for (bool progress = true; progress;) {
    progress = false;
    for (int j = 0; j < n; ++j) {
      while (pos[j] < meta_[j].size()) {
        const TaskMeta& m = meta_[j][pos[j]];
        if (m.kind == ModelTaskKind::kEventWait && !recorded[m.event]) break;
        if (m.kind == ModelTaskKind::kEventRecord) recorded[m.event] = true;
        ++pos[j];
        progress = true;
      }
    }
  }
  for (int j = 0; j < n; ++j) {
    if (pos[j] < meta_[j].size()) {
      return InvalidArgument("model " + name_ + ": stream " + std::to_string(j) + " task " + std::to_string(pos[j]) +
                             " waits for event " + std::to_string(meta_[j][pos[j]].event) + ", which is never " +
                             "recorded before it can run (deadlock)");
    }
  }
  return Status::Ok();
}

Status CpuModel::Finalize() {
  if (finalized_) return FailedPrecondition("model " + name_ + ": already finalized");
  std::vector<int> records(events_.size(), 0);
  bool has_end = false;
  for (const auto& list : meta_) {
    for (const TaskMeta& m : list) {
      if (m.kind == ModelTaskKind::kEventRecord) ++records[m.event];
      if (m.kind == ModelTaskKind::kEndGraph) has_end = true;
    }
  }
  for (size_t e = 0; e < records.size(); ++e) {
    if (records[e] > 1) {
      return InvalidArgument("model " + name_ + ": event " + std::to_string(e) + " is recorded " +
                             std::to_string(records[e]) + " times; a model event is recorded once");
    }
  }
  GE_RETURN_IF_ERROR(CheckNoDeadlock());
  if (!has_end) GE_RETURN_IF_ERROR(AddEndGraph(0));
  meta_.clear();
  meta_.shrink_to_fit();
  finalized_ = true;
  return Status::Ok();
}

Status CpuModel::StopReason() const {
  if (stop_.load() & kStopAbort) return Aborted("model " + name_ + " aborted");
  return Aborted("model " + name_ + " cancelled");
}

Status CpuModel::RunList(int stream, const TaskContext& ctx) const {
  const Task* tasks = lists_[stream].data();
  const size_t n = lists_[stream].size();
  TaskContext c = ctx;
  std::optional<ContentionGovernor::ScopedWidth> width;
  if (run_width_ > 0) width.emplace(pool_->governor(), run_width_);
  for (size_t i = 0; i < n; ++i) {
    if (c.Stopped()) return StopReason();
    Status s = tasks[i].fn(tasks[i].args, c);
    if (!s.ok()) {
      if (c.Stopped()) return StopReason();  // an interrupted wait: report why it was interrupted
      return s.WithContext("model " + name_ + " stream " + std::to_string(stream) + " task " + std::to_string(i));
    }
  }
  return Status::Ok();
}

void CpuModel::Fail(Status s) {
  {
    std::lock_guard<std::mutex> lk(mu_);
    if (first_error_.ok()) first_error_ = std::move(s);
  }
  stop_.fetch_or(kStopCancel);
  InterruptEvents();
}

void CpuModel::InterruptEvents() {
  for (auto& slot : events_) slot->event.Interrupt();
}

Status CpuModel::Run(const TaskContext& launch_ctx) {
  if (!finalized_) return FailedPrecondition("model " + name_ + ": execute before Finalize");
  if (running_.exchange(true)) return FailedPrecondition("model " + name_ + " is already executing");
  stop_.fetch_and(~kStopCancel);
  Status result;
  if (stop_.load() & kStopAbort) {
    result = StopReason();
  } else {
    for (auto& slot : events_) slot->gen = slot->event.ReserveGeneration();
    // Another process takes the CPU: this execution runs at the width recent ones were faster at.
    run_width_ = pool_ != nullptr && pool_->governor().held_down() ? width_chooser_.Choose(pool_->num_threads()) : 0;
    const auto start = std::chrono::steady_clock::now();
    TaskContext ctx = launch_ctx;
    ctx.model_stop = &stop_;
    if (ctx.stream != nullptr) static_cast<CpuStream*>(ctx.stream)->SetBlockedOn(this);
    if (workers_.empty()) {
      result = RunList(0, ctx);  // the fast path: no other thread involved
    } else {
      {
        std::lock_guard<std::mutex> lk(mu_);
        pending_lists_ = num_streams() - 1;
        first_error_ = Status::Ok();
      }
      for (int j = 1; j < num_streams(); ++j) {
        Status s = workers_[j - 1]->Enqueue(Task{SubListTask, &sub_runs_[j]});
        if (!s.ok()) Fail(s);  // not reached: the task has a function
      }
      Status s0 = RunList(0, ctx);
      if (!s0.ok()) Fail(std::move(s0));
      std::unique_lock<std::mutex> lk(mu_);
      cv_.wait(lk, [&] { return pending_lists_ == 0; });
      result = first_error_;
    }
    if (ctx.stream != nullptr) static_cast<CpuStream*>(ctx.stream)->SetBlockedOn(nullptr);
    if (run_width_ > 0 && result.ok()) {
      width_chooser_.Record(
          run_width_,
          std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start).count());
    }
  }
  running_.store(false);
  return result;
}

void CpuModel::Abort() {
  stop_.fetch_or(kStopAbort);
  InterruptEvents();
}

void CpuModel::ResetAbort() { stop_.fetch_and(~kStopAbort); }

void CpuModel::Interrupt() { Fail(Aborted("model " + name_ + ": launching stream destroyed")); }

Status CpuModel::Execute() {
  TaskContext ctx;
  ctx.pool = pool_;
  return Run(ctx);
}

Status CpuModel::SubListTask(void* args, TaskContext& ctx) {
  auto* run = static_cast<SubRun*>(args);
  CpuModel* m = run->model;
  TaskContext c = ctx;
  c.model_stop = &m->stop_;
  Status s = m->RunList(run->stream, c);
  if (!s.ok()) m->Fail(std::move(s));
  std::lock_guard<std::mutex> lk(m->mu_);
  if (--m->pending_lists_ == 0) m->cv_.notify_all();
  return Status::Ok();  // errors go to the launch, not to the worker stream
}

Status CpuModel::EventRecordTask(void* args, TaskContext& ctx) {
  auto* slot = static_cast<EventSlot*>(args);
  slot->event.Complete(slot->gen, nullptr);
  return Status::Ok();
}

Status CpuModel::EventWaitTask(void* args, TaskContext& ctx) {
  auto* slot = static_cast<EventSlot*>(args);
  return slot->event.WaitFor(slot->gen, ctx);
}

Status CpuModel::MemcpyTask(void* args, TaskContext& ctx) {
  auto* a = static_cast<MemcpyArgs*>(args);
  if (a->bytes != 0) std::memcpy(a->dst, a->src, a->bytes);
  return Status::Ok();
}

Status CpuModel::EndGraphTask(void* args, TaskContext& ctx) {
  static_cast<CpuModel*>(args)->executions_.fetch_add(1, std::memory_order_relaxed);
  return Status::Ok();
}

static Status ModelLaunchTask(void* args, TaskContext& ctx) { return static_cast<CpuModel*>(args)->Run(ctx); }

Status CpuModel::ExecuteAsync(Stream& stream) {
  if (!finalized()) return FailedPrecondition("model " + name() + ": execute before Finalize");
  return stream.Enqueue(Task{ModelLaunchTask, this});
}

}  // namespace ge::rt
