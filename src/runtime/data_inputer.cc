#include "runtime/data_inputer.h"

#include <cstdio>
#include <string>
#include <utility>

namespace ge::runtime {

Clock::time_point DeadlineAfter(rt::Duration d) {
  const Clock::time_point now = Clock::now();
  const auto room = std::chrono::duration_cast<rt::Duration>(Clock::time_point::max() - now);
  if (d >= room) return Clock::time_point::max();
  if (d <= rt::Duration::zero()) return now;
  return now + std::chrono::duration_cast<Clock::duration>(d);
}

std::string FormatDuration(rt::Duration d) {
  if (d == rt::kWaitForever) return "forever";
  const double ns = static_cast<double>(d.count());
  char buf[64];
  if (ns >= 1e9) {
    std::snprintf(buf, sizeof(buf), "%g s", ns / 1e9);
  } else if (ns >= 1e6) {
    std::snprintf(buf, sizeof(buf), "%g ms", ns / 1e6);
  } else {
    std::snprintf(buf, sizeof(buf), "%g us", ns / 1e3);
  }
  return buf;
}

namespace {

// Waits on |cv| until |ready| or |deadline| (time_point::max(): no deadline). Returns ready().
template <typename Pred>
bool WaitUntil(std::condition_variable& cv, std::unique_lock<std::mutex>& lk, Clock::time_point deadline, Pred ready) {
  if (deadline == Clock::time_point::max()) {
    cv.wait(lk, ready);
    return true;
  }
  return cv.wait_until(lk, deadline, ready);
}

}  // namespace

DataInputer::DataInputer(size_t capacity) : capacity_(capacity == 0 ? 1 : capacity) {}

Status DataInputer::Push(RunRequest&& request, rt::Duration timeout) {
  std::unique_lock<std::mutex> lk(mu_);
  auto has_room = [this] { return stopped_ || queue_.size() < capacity_; };
  if (!has_room() && timeout > rt::Duration::zero()) WaitUntil(not_full_, lk, DeadlineAfter(timeout), has_room);
  if (stopped_) return Aborted("DataInputer is stopped; request not queued");
  if (queue_.size() >= capacity_) {
    if (timeout <= rt::Duration::zero()) {
      return ResourceExhausted("DataInputer is full (" + std::to_string(capacity_) +
                               " requests queued) and the caller asked not to wait");
    }
    return ResourceExhausted("DataInputer is still full (" + std::to_string(capacity_) + " requests queued) after " +
                             FormatDuration(timeout));
  }
  queue_.push_back(std::move(request));
  lk.unlock();
  not_empty_.notify_one();
  return Status::Ok();
}

StatusOr<RunRequest> DataInputer::Pop(rt::Duration timeout) {
  std::unique_lock<std::mutex> lk(mu_);
  auto ready = [this] { return stopped_ || !queue_.empty(); };
  if (!ready()) WaitUntil(not_empty_, lk, DeadlineAfter(timeout), ready);
  if (stopped_) return Aborted("DataInputer is stopped");
  if (queue_.empty()) return Timeout("no request arrived within " + FormatDuration(timeout));
  RunRequest r = std::move(queue_.front());
  queue_.pop_front();
  lk.unlock();
  not_full_.notify_one();
  return r;
}

void DataInputer::Stop() {
  {
    std::lock_guard<std::mutex> lk(mu_);
    stopped_ = true;
  }
  not_full_.notify_all();
  not_empty_.notify_all();
}

std::vector<RunRequest> DataInputer::Drain() {
  std::vector<RunRequest> out;
  {
    std::lock_guard<std::mutex> lk(mu_);
    out.reserve(queue_.size());
    for (auto& r : queue_) out.push_back(std::move(r));
    queue_.clear();
  }
  not_full_.notify_all();
  return out;
}

size_t DataInputer::size() const {
  std::lock_guard<std::mutex> lk(mu_);
  return queue_.size();
}

bool DataInputer::stopped() const {
  std::lock_guard<std::mutex> lk(mu_);
  return stopped_;
}

}  // namespace ge::runtime
