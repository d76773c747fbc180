#include "rt/cpu/cpu_device.h"

#include <cstring>

namespace ge::rt {

StatusOr<std::unique_ptr<CpuDevice>> CpuDevice::Create(const DeviceOptions& options) {
  if (options.huge_page_policy < 0 || options.huge_page_policy > 2) {
    return InvalidArgument("huge page policy must be 0 (off), 1 (only 1 GB pages) or 2 (prefer 1 GB pages), got " +
                           std::to_string(options.huge_page_policy));
  }
  std::unique_ptr<CpuDevice> d(new CpuDevice(options));
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
  GE_ASSIGN_OR_RETURN(d->thread_pool_, ThreadPool::Create(options.intra_op_threads, PoolBackend::kDefault, options.contention_policy));
  return d;
}

Status CpuDevice::Memcpy(void* dst, const void* src, size_t bytes, MemcpyKind) {
  if (bytes == 0) return Status::Ok();
  if (dst == nullptr || src == nullptr) return InvalidArgument("cpu device: memcpy with a null address");
  std::memmove(dst, src, bytes);
  return Status::Ok();
}

StatusOr<std::unique_ptr<Stream>> CpuDevice::CreateStream() {
  GE_ASSIGN_OR_RETURN(std::unique_ptr<CpuStream> s, CpuStream::Create(thread_pool_.get()));
  return std::unique_ptr<Stream>(std::move(s));
}

StatusOr<std::unique_ptr<Model>> CpuDevice::CreateModel(std::string name, int num_streams) {
  GE_ASSIGN_OR_RETURN(std::unique_ptr<CpuModel> m, CpuModel::Create(std::move(name), num_streams, thread_pool_.get()));
  return std::unique_ptr<Model>(std::move(m));
}

StatusOr<std::unique_ptr<Device>> CreateDefaultDevice(const DeviceOptions& options) {
  GE_ASSIGN_OR_RETURN(std::unique_ptr<CpuDevice> d, CpuDevice::Create(options));
  return std::unique_ptr<Device>(std::move(d));
}

}  // namespace ge::rt
