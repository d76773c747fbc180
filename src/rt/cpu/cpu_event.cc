#include "rt/cpu/cpu_event.h"

#include <algorithm>

#include "rt/cpu/cpu_stream.h"

namespace ge::rt {

uint64_t CpuEvent::completed() const {
  std::lock_guard<std::mutex> lk(mu_);
  return completed_;
}

bool CpuEvent::Query() const {
  uint64_t target = recorded();
  std::lock_guard<std::mutex> lk(mu_);
  return completed_ >= target;
}

void CpuEvent::Complete(uint64_t gen, const Status* error) {
  // Notify under the lock: a host thread that sees the completion may destroy the event right away.
  std::lock_guard<std::mutex> lk(mu_);
  completed_ = std::max(completed_, gen);
  if (error != nullptr && !error->ok()) {
    if (error_gen_ == 0) {
      error_gen_ = gen;
      error_ = *error;
    }
  } else if (gen > error_gen_) {
    error_gen_ = 0;
    error_ = Status::Ok();
  }
  cv_.notify_all();
}

Status CpuEvent::ResultLocked(uint64_t gen) const {
  if (error_gen_ != 0 && gen >= error_gen_) return error_.WithContext("event recorded on a failed stream");
  return Status::Ok();
}

Status CpuEvent::WaitFor(uint64_t gen, const TaskContext& ctx) {
  std::unique_lock<std::mutex> lk(mu_);
  cv_.wait(lk, [&] { return completed_ >= gen || ctx.Stopped(); });
  if (completed_ < gen) return Aborted("event wait interrupted");
  return ResultLocked(gen);
}

void CpuEvent::Interrupt() {
  // Under the mutex, the wake-up is ordered after a waiter's predicate check, so it cannot be lost.
  std::lock_guard<std::mutex> lk(mu_);
  cv_.notify_all();
}

Status CpuEvent::Synchronize(Duration timeout) {
  const uint64_t target = recorded();
  std::unique_lock<std::mutex> lk(mu_);
  auto done = [&] { return completed_ >= target; };
  if (timeout == kWaitForever) {
    cv_.wait(lk, done);
  } else if (!cv_.wait_for(lk, timeout, done)) {
    return Timeout("event synchronize timed out after " +
                   std::to_string(std::chrono::duration_cast<std::chrono::milliseconds>(timeout).count()) + " ms");
  }
  return ResultLocked(target);
}

Status StreamEventRecordTask(void* args, TaskContext& ctx) {
  static_cast<CpuEvent*>(args)->Complete(ctx.imm, ctx.stream_error);
  return Status::Ok();
}

Status StreamEventWaitTask(void* args, TaskContext& ctx) {
  auto* event = static_cast<CpuEvent*>(args);
  if (ctx.stream != nullptr) static_cast<CpuStream*>(ctx.stream)->SetBlockedOn(event);
  Status s = event->WaitFor(ctx.imm, ctx);
  if (ctx.stream != nullptr) static_cast<CpuStream*>(ctx.stream)->SetBlockedOn(nullptr);
  return s;
}

}  // namespace ge::rt
