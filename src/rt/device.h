// Device: what the runtime reaches through GE's rts/ACL — memory per type, streams, events, models (the sink) and
// synchronous copies. The runtime (src/runtime) uses devices only through this interface; rt/cpu/ is the CPU
// implementation and rt/testing/ a recording one for tests. See README.md for how a CUDA device fits.
// Thread-safe. A Device outlives everything it created.
#pragma once
#include <cstddef>
#include <memory>
#include <string>

#include "base/status.h"
#include "rt/event.h"
#include "rt/mem_type.h"
#include "rt/model.h"
#include "rt/stream.h"

namespace ge::rt {

inline constexpr size_t kDefaultAlignment = 64;

// Allocation statistics of one memory type.
struct MemoryStats {
  size_t limit_bytes = 0;   // 0: unlimited
  size_t in_use_bytes = 0;  // sum of live blocks' sizes rounded up to their alignment; what the limit counts
  size_t peak_bytes = 0;    // high-water mark of in_use_bytes
  size_t mapped_bytes = 0;  // bytes reserved from the OS for live blocks (>= in_use_bytes)
  size_t pinned_bytes = 0;  // bytes of live blocks locked in RAM
  size_t huge_1g_bytes = 0; // bytes of live blocks on 1 GB pages
  size_t live_blocks = 0;
  uint64_t alloc_count = 0;   // successful allocations since creation
  uint64_t failed_count = 0;  // allocations refused (limit or OS)
};

// How intra-op parallelism reacts when another process takes CPU from this one (rt/cpu/contention_governor.h).
enum class ContentionPolicy {
  kAdaptive,     // full width while the process is not being preempted; one thread while it is
  kFullThreads,  // always intra_op_threads (a machine known to be quiet; reproducible timings)
  kOneThread,    // always one thread, whatever kernels were prepared for
};

struct DeviceOptions {
  // Byte limits per memory type; 0 means unlimited.
  size_t device_memory_limit = 0;
  size_t host_memory_limit = 0;
  size_t rdma_memory_limit = 0;
  // GE's ge.variableUse1gHugePage: 0 off, 1 only 1 GB pages, 2 prefer 1 GB pages and fall back. Applies to
  // device-memory blocks of at least huge_page_min_bytes.
  int huge_page_policy = 0;
  size_t huge_page_min_bytes = size_t{1} << 30;
  // Threads for one kernel (intra-op), including the calling stream's worker; 0: the CPUs this process may use
  // (affinity mask and cgroup quota: rt/cpu/cpu_quota.h).
  int intra_op_threads = 0;
  ContentionPolicy contention_policy = ContentionPolicy::kAdaptive;
};

class Device {
 public:
  virtual ~Device() = default;
  virtual const char* name() const = 0;  // "cpu", "recording", ...
  virtual const DeviceOptions& options() const = 0;

  // --- memory ---
  // At least |bytes| of |type|, aligned to |alignment| (a power of two). ResourceExhausted past the type's limit.
  virtual StatusOr<void*> Malloc(MemType type, size_t bytes, size_t alignment = kDefaultAlignment) = 0;
  virtual Status Free(MemType type, void* ptr) = 0;
  virtual MemoryStats memory_stats(MemType type) const = 0;
  // Whether host code may read and write memory of |type| directly (CPU: always; a discrete GPU: not kDevice).
  // Where it may not, the runtime moves bytes only with Memcpy and device tasks.
  virtual bool HostAccessible(MemType type) const = 0;
  // Synchronous copy between host memory and memory of this device.
  virtual Status Memcpy(void* dst, const void* src, size_t bytes, MemcpyKind kind) = 0;

  // --- execution ---
  // Threads one kernel may use (what kernels are prepared for: PrepareRequest::intra_op_threads).
  virtual int intra_op_threads() const = 0;
  // The pool host kernels run their parallel regions on (owned by the device); null: they run serially.
  virtual IntraOpPool* intra_op_pool() { return nullptr; }
  virtual StatusOr<std::unique_ptr<Stream>> CreateStream() = 0;
  virtual StatusOr<std::unique_ptr<Event>> CreateEvent() = 0;
  virtual StatusOr<std::unique_ptr<Model>> CreateModel(std::string name, int num_streams = 1) = 0;
};

// The device a runtime uses when its creator names none: the CPU device (rt/cpu/cpu_device.cc).
StatusOr<std::unique_ptr<Device>> CreateDefaultDevice(const DeviceOptions& options = {});

}  // namespace ge::rt
