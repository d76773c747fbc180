// Device: the CPU "device" of the rt layer. Owns one MemoryPool per MemType and the intra-op ThreadPool, and
// creates streams, events and models. No global state: every user (and every test) creates its own Device.
// Thread-safe. The Device must outlive everything it created.
#pragma once
#include <array>
#include <memory>
#include <string>

#include "base/status.h"
#include "rt/event.h"
#include "rt/mem_type.h"
#include "rt/memory_pool.h"
#include "rt/model.h"
#include "rt/stream.h"
#include "rt/thread_pool.h"

namespace ge::rt {

struct DeviceOptions {
  // Byte limits per pool; 0 means unlimited.
  size_t device_memory_limit = 0;
  size_t host_memory_limit = 0;
  size_t rdma_memory_limit = 0;
  // GE's ge.variableUse1gHugePage: 0 off, 1 only 1 GB pages, 2 prefer 1 GB pages and fall back. Applies to
  // device-pool blocks of at least huge_page_min_bytes.
  int huge_page_policy = 0;
  size_t huge_page_min_bytes = kOneGiB;
  // Threads for one kernel (intra-op), including the calling stream's worker; 0: all hardware threads.
  int intra_op_threads = 0;
};

class Device {
 public:
  static StatusOr<std::unique_ptr<Device>> Create(const DeviceOptions& options = {});
  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;

  const DeviceOptions& options() const { return options_; }
  MemoryPool& pool(MemType type) { return *pools_[static_cast<int>(type)]; }
  ThreadPool& thread_pool() { return *thread_pool_; }

  StatusOr<void*> Malloc(MemType type, size_t bytes, size_t alignment = kDefaultAlignment) {
    return pool(type).Allocate(bytes, alignment);
  }
  Status Free(MemType type, void* ptr) { return pool(type).Free(ptr); }

  StatusOr<std::unique_ptr<Stream>> CreateStream() { return Stream::Create(thread_pool_.get()); }
  std::unique_ptr<Event> CreateEvent() { return std::make_unique<Event>(); }
  StatusOr<std::unique_ptr<Model>> CreateModel(std::string name, int num_streams = 1) {
    return Model::Create(std::move(name), num_streams, thread_pool_.get());
  }

 private:
  explicit Device(const DeviceOptions& options) : options_(options) {}

  DeviceOptions options_;
  std::array<std::unique_ptr<MemoryPool>, kNumMemTypes> pools_;
  std::unique_ptr<ThreadPool> thread_pool_;
};

}  // namespace ge::rt
