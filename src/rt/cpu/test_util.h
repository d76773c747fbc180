// Helpers shared by the rt tests.
#pragma once
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>
#include <vector>

#include "rt/cpu/cpu_device.h"

namespace ge::rt::testing {

inline std::unique_ptr<CpuDevice> MakeDevice(int threads = 2) {
  DeviceOptions o;
  o.intra_op_threads = threads;
  auto d = CpuDevice::Create(o);
  EXPECT_TRUE(d.ok()) << d.status().ToString();
  return std::move(*d);
}

inline std::unique_ptr<CpuStream> MakeStream(CpuDevice& d) {
  auto s = CpuStream::Create(&d.thread_pool());
  EXPECT_TRUE(s.ok()) << s.status().ToString();
  return std::move(*s);
}

// Appends its id to a shared log (thread-safe).
struct LogArgs {
  std::mutex* mu;
  std::vector<int>* log;
  int id;
};
inline Status LogTask(void* args, TaskContext&) {
  auto* a = static_cast<LogArgs*>(args);
  std::lock_guard<std::mutex> lk(*a->mu);
  a->log->push_back(a->id);
  return Status::Ok();
}

inline Status CountTask(void* args, TaskContext&) {
  static_cast<std::atomic<int>*>(args)->fetch_add(1, std::memory_order_relaxed);
  return Status::Ok();
}

inline Status FailTask(void* args, TaskContext&) { return Internal(static_cast<const char*>(args)); }

// Sleeps for *(int*)args milliseconds.
inline Status SleepTask(void* args, TaskContext&) {
  std::this_thread::sleep_for(std::chrono::milliseconds(*static_cast<int*>(args)));
  return Status::Ok();
}

// Blocks until *(std::atomic<bool>*)args is true (polling with sleeps; tests only) or the task is stopped.
inline Status GateTask(void* args, TaskContext& ctx) {
  auto* gate = static_cast<std::atomic<bool>*>(args);
  while (!gate->load() && !ctx.Stopped()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  return Status::Ok();
}

}  // namespace ge::rt::testing
