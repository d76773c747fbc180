// RecordingDevice: a second, host-simulated implementation of rt::Device for tests. It proves that a runtime
// reaches the device only through the interface: a runtime that cast to the CPU classes or used CPU internals
// would crash or fail here, and every call it makes is counted.
//
// Simulation: memory is host memory from the C allocator (optionally declared not host-accessible, as a discrete
// GPU's is, so the runtime must stage IO and upload constants through Memcpy); streams are synchronous (Enqueue
// runs the task at once on the caller's thread, with the stream's sticky-error rules); events complete when
// recorded; a model runs its task lists on the calling thread, switching lists at event waits, with no intra-op
// pool. Nothing runs concurrently inside the device, so recorded counts are exact.
//
// Thread-safe: counters and block tables are guarded; a model runs one execution at a time.
#pragma once
#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "rt/device.h"

namespace ge::rt::testing {

struct RecordingDeviceOptions {
  // false: kDevice memory is declared not host-accessible (HostAccessible(kDevice) is false).
  bool device_memory_host_accessible = true;
  int intra_op_threads = 1;
};

// What the device saw, since creation.
struct DeviceRecord {
  std::array<uint64_t, kNumMemTypes> mallocs{}, frees{};
  std::array<uint64_t, kNumMemTypes> live_bytes{};  // requested bytes of blocks not yet freed
  std::array<uint64_t, 4> memcpys{};                 // by MemcpyKind, device Memcpy and stream/model copies
  uint64_t memcpy_bytes = 0;
  uint64_t streams = 0, events = 0, models = 0;
  uint64_t stream_tasks = 0;    // host tasks run by streams
  uint64_t kernel_tasks = 0;    // model kernel tasks run
  uint64_t model_executions = 0;
  uint64_t bad_frees = 0;       // Free of an address this device did not allocate (or twice)
};

class RecordingDevice final : public Device {
 public:
  explicit RecordingDevice(RecordingDeviceOptions options = {});
  ~RecordingDevice() override;

  const char* name() const override { return "recording"; }
  const DeviceOptions& options() const override { return device_options_; }
  StatusOr<void*> Malloc(MemType type, size_t bytes, size_t alignment = kDefaultAlignment) override;
  Status Free(MemType type, void* ptr) override;
  MemoryStats memory_stats(MemType type) const override;
  bool HostAccessible(MemType type) const override;
  Status Memcpy(void* dst, const void* src, size_t bytes, MemcpyKind kind) override;
  int intra_op_threads() const override { return options_.intra_op_threads; }
  StatusOr<std::unique_ptr<Stream>> CreateStream() override;
  StatusOr<std::unique_ptr<Event>> CreateEvent() override;
  StatusOr<std::unique_ptr<Model>> CreateModel(std::string name, int num_streams = 1) override;

  DeviceRecord record() const;

  // --- for the device's own streams and models ---
  void CountMemcpy(size_t bytes, MemcpyKind kind);
  void CountStreamTask();
  void CountKernelTask();
  void CountModelExecution();

 private:
  RecordingDeviceOptions options_;
  DeviceOptions device_options_;
  mutable std::mutex mu_;
  std::map<void*, std::pair<MemType, size_t>> blocks_;  // guarded by mu_
  DeviceRecord record_;                                 // guarded by mu_
  std::array<MemoryStats, kNumMemTypes> stats_{};       // guarded by mu_
};

}  // namespace ge::rt::testing
