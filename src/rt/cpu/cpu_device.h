// CpuDevice: the CPU implementation of rt::Device. Owns one MemoryPool per MemType and the intra-op ThreadPool, and
// creates streams, events and models. No global state: every user (and every test) creates its own CpuDevice.
// Thread-safe. The CpuDevice must outlive everything it created.
#pragma once
#include <array>
#include <memory>
#include <string>

#include "base/status.h"
#include "rt/device.h"
#include "rt/cpu/cpu_event.h"
#include "rt/mem_type.h"
#include "rt/cpu/memory_pool.h"
#include "rt/cpu/cpu_model.h"
#include "rt/cpu/cpu_stream.h"
#include "rt/cpu/thread_pool.h"

namespace ge::rt {


class CpuDevice final : public Device {
 public:
  static StatusOr<std::unique_ptr<CpuDevice>> Create(const DeviceOptions& options = {});
  CpuDevice(const CpuDevice&) = delete;
  CpuDevice& operator=(const CpuDevice&) = delete;

  const char* name() const override { return "cpu"; }
  const DeviceOptions& options() const override { return options_; }
  MemoryPool& pool(MemType type) { return *pools_[static_cast<int>(type)]; }
  ThreadPool& thread_pool() { return *thread_pool_; }

  StatusOr<void*> Malloc(MemType type, size_t bytes, size_t alignment = kDefaultAlignment) override {
    return pool(type).Allocate(bytes, alignment);
  }
  Status Free(MemType type, void* ptr) override { return pool(type).Free(ptr); }
  MemoryStats memory_stats(MemType type) const override { return pools_[static_cast<int>(type)]->stats(); }
  bool HostAccessible(MemType) const override { return true; }
  Status Memcpy(void* dst, const void* src, size_t bytes, MemcpyKind kind) override;

  int intra_op_threads() const override { return thread_pool_->num_threads(); }
  IntraOpPool* intra_op_pool() override { return thread_pool_.get(); }
  StatusOr<std::unique_ptr<Stream>> CreateStream() override;
  StatusOr<std::unique_ptr<Event>> CreateEvent() override { return std::unique_ptr<Event>(new CpuEvent()); }
  StatusOr<std::unique_ptr<Model>> CreateModel(std::string name, int num_streams = 1) override;

 private:
  explicit CpuDevice(const DeviceOptions& options) : options_(options) {}

  DeviceOptions options_;
  std::array<std::unique_ptr<MemoryPool>, kNumMemTypes> pools_;
  std::unique_ptr<ThreadPool> thread_pool_;
};

}  // namespace ge::rt
