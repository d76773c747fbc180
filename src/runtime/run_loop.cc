#include "runtime/run_loop.h"

#include <string>
#include <utility>

namespace ge::runtime {

namespace {
std::string ModelLabel(const ExecutableModel& m) { return "model '" + m.name() + "'"; }
}  // namespace

RunLoop::RunLoop(ExecutableModel* model, const RunLoopOptions& options)
    : model_(model), inputer_(options.queue_capacity) {}

StatusOr<std::unique_ptr<RunLoop>> RunLoop::Start(ExecutableModel* model, const RunLoopOptions& options) {
  if (model == nullptr) return InvalidArgument("RunLoop::Start: model is null");
  std::unique_ptr<RunLoop> loop(new RunLoop(model, options));
  loop->watchdog_thread_ = std::thread([l = loop.get()] { l->WatchdogMain(); });
  loop->loop_thread_ = std::thread([l = loop.get()] { l->LoopMain(); });
  loop->loop_id_ = loop->loop_thread_.get_id();
  return loop;
}

RunLoop::~RunLoop() { Stop(StopMode::kFinishRunning); }

StatusOr<uint64_t> RunLoop::Submit(RunRequest request, rt::Duration push_timeout) {
  Status st = CheckBuffers(model_->inputs(), request.inputs, "input");
  if (st.ok()) st = CheckBuffers(model_->outputs(), request.outputs, "output");
  if (!st.ok()) return st.WithContext(ModelLabel(*model_));
  // The loop thread cannot pop while it waits for room: a callback never blocks.
  if (std::this_thread::get_id() == loop_id_) push_timeout = rt::Duration::zero();
  if (request.id == 0) request.id = next_id_.fetch_add(1, std::memory_order_relaxed);
  const uint64_t id = request.id;
  {
    std::lock_guard<std::mutex> lk(stats_mu_);
    ++in_flight_;
    ++stats_.accepted;
  }
  st = inputer_.Push(std::move(request), push_timeout);
  if (!st.ok()) {
    {
      std::lock_guard<std::mutex> lk(stats_mu_);
      --in_flight_;
      --stats_.accepted;
    }
    idle_cv_.notify_all();
    return st.WithContext(ModelLabel(*model_) + " run loop");
  }
  return id;
}

void RunLoop::Stop(StopMode mode) {
  if (mode == StopMode::kAbortRunning) {
    std::lock_guard<std::mutex> lk(wd_mu_);
    abort_requested_ = true;
    if (running_ && fired_ == Fired::kNone) {
      fired_ = Fired::kStop;
      model_->Abort();
    }
  }
  inputer_.Stop();
  if (std::this_thread::get_id() == loop_id_) return;  // inside a callback: the loop exits after it
  std::lock_guard<std::mutex> lk(lifecycle_mu_);
  if (joined_) return;
  loop_thread_.join();
  {
    std::lock_guard<std::mutex> wlk(wd_mu_);
    wd_exit_ = true;
  }
  wd_cv_.notify_all();
  watchdog_thread_.join();
  joined_ = true;
}

bool RunLoop::WaitIdle(rt::Duration timeout) const {
  std::unique_lock<std::mutex> lk(stats_mu_);
  auto idle = [this] { return in_flight_ == 0; };
  const Clock::time_point deadline = DeadlineAfter(timeout);
  if (deadline == Clock::time_point::max()) {
    idle_cv_.wait(lk, idle);
    return true;
  }
  return idle_cv_.wait_until(lk, deadline, idle);
}

uint64_t RunLoop::in_flight() const {
  std::lock_guard<std::mutex> lk(stats_mu_);
  return in_flight_;
}

RunLoopStats RunLoop::stats() const {
  std::lock_guard<std::mutex> lk(stats_mu_);
  return stats_;
}

void RunLoop::LoopMain() {
  for (;;) {
    StatusOr<RunRequest> r = inputer_.Pop();
    if (!r.ok()) break;  // stopped
    RunOne(*r);
  }
  for (RunRequest& r : inputer_.Drain()) {
    Finish(r,
           Aborted("cancelled: " + ModelLabel(*model_) + " run loop stopped before request " + std::to_string(r.id) +
                   " ran"),
           &RunLoopStats::cancelled);
  }
}

void RunLoop::RunOne(RunRequest& request) {
  const bool has_deadline = request.timeout > rt::Duration::zero() && request.timeout != rt::kWaitForever;
  bool cancelled = false;
  {
    std::lock_guard<std::mutex> lk(wd_mu_);
    cancelled = abort_requested_;
    if (!cancelled) {
      running_ = true;
      fired_ = Fired::kNone;
      deadline_ = has_deadline ? DeadlineAfter(request.timeout) : Clock::time_point::max();
    }
  }
  if (cancelled) {
    // Stop(kAbortRunning) came between Pop and here: treat the request as still queued.
    Finish(request,
           Aborted("cancelled: " + ModelLabel(*model_) + " run loop stopped before request " +
                   std::to_string(request.id) + " ran"),
           &RunLoopStats::cancelled);
    return;
  }
  if (has_deadline) wd_cv_.notify_one();

  Status st = model_->Execute(request.inputs, request.outputs);

  Fired fired;
  {
    std::lock_guard<std::mutex> lk(wd_mu_);
    running_ = false;
    fired = fired_;
    fired_ = Fired::kNone;
    deadline_ = Clock::time_point::max();
  }
  // The watchdog's Abort (made under wd_mu_) is complete: clear it before the next run.
  if (fired != Fired::kNone) model_->ResetAbort();

  if (fired == Fired::kDeadline) {
    Finish(request,
           Timeout("deadline exceeded: " + ModelLabel(*model_) + " request " + std::to_string(request.id) +
                   " ran longer than its timeout of " + FormatDuration(request.timeout) + " and was aborted"),
           &RunLoopStats::timed_out);
  } else if (fired == Fired::kStop) {
    Finish(
        request,
        Aborted(ModelLabel(*model_) + " request " + std::to_string(request.id) + " aborted: the run loop was stopped"),
        &RunLoopStats::cancelled);
  } else if (st.ok()) {
    Finish(request, st, &RunLoopStats::succeeded);
  } else {
    Finish(request, st.WithContext(ModelLabel(*model_) + " request " + std::to_string(request.id)),
           &RunLoopStats::failed);
  }
}

void RunLoop::WatchdogMain() {
  std::unique_lock<std::mutex> lk(wd_mu_);
  while (!wd_exit_) {
    if (!running_ || fired_ != Fired::kNone || deadline_ == Clock::time_point::max()) {
      wd_cv_.wait(lk);
      continue;
    }
    if (Clock::now() >= deadline_) {
      fired_ = Fired::kDeadline;
      model_->Abort();
      continue;
    }
    wd_cv_.wait_until(lk, deadline_);
  }
}

void RunLoop::Finish(RunRequest& request, const Status& status, uint64_t RunLoopStats::*counter) {
  {
    RunCallback done = std::move(request.done);  // destroyed (with what it captured) before in_flight drops
    request.done = nullptr;
    if (done) done(request.id, status, request.outputs);
  }
  {
    std::lock_guard<std::mutex> lk(stats_mu_);
    ++(stats_.*counter);
    --in_flight_;
  }
  idle_cv_.notify_all();
}

}  // namespace ge::runtime
