#include "rt/device.h"

namespace ge::rt {

StatusOr<std::unique_ptr<Device>> Device::Create(const DeviceOptions& options) {
  if (options.huge_page_policy < 0 || options.huge_page_policy > 2) {
    return InvalidArgument("huge page policy must be 0 (off), 1 (only 1 GB pages) or 2 (prefer 1 GB pages), got " +
                           std::to_string(options.huge_page_policy));
  }
  std::unique_ptr<Device> d(new Device(options));
  MemoryPoolOptions dev;
  dev.limit_bytes = options.device_memory_limit;
  dev.huge_page_policy = static_cast<HugePagePolicy>(options.huge_page_policy);
  dev.huge_page_min_bytes = options.huge_page_min_bytes;
  MemoryPoolOptions host;
  host.limit_bytes = options.host_memory_limit;
  MemoryPoolOptions rdma;
  rdma.limit_bytes = options.rdma_memory_limit;
  rdma.pin = true;
  d->pools_[static_cast<int>(MemType::kDevice)] = std::make_unique<MemoryPool>(MemType::kDevice, dev);
  d->pools_[static_cast<int>(MemType::kHost)] = std::make_unique<MemoryPool>(MemType::kHost, host);
  d->pools_[static_cast<int>(MemType::kRdma)] = std::make_unique<MemoryPool>(MemType::kRdma, rdma);
  GE_ASSIGN_OR_RETURN(d->thread_pool_, ThreadPool::Create(options.intra_op_threads));
  return d;
}

}  // namespace ge::rt
