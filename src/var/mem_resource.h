// MemResource: where variables of one memory type get their room (seed 000, "MemResource"; ge_facts.md §5).
//   HBM (rt::MemType::kDevice): logical offsets only — each variable takes roundup512(size) + 1024 bytes of the
//     session's logical variable space, up to the session's variable limit; device memory comes later, lazily
//     per variable (VarManager::GetVarMemoryAddr).
//   Host and RDMA: real memory from the device's pool at once (host memory zeroed); the "offset" is its address.
// Not thread-safe: VarManager serializes access.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "base/status.h"
#include "rt/device.h"

namespace ge::var {

class MemResource {
 public:
  virtual ~MemResource() = default;
  // Room for |size| bytes of variable |name|: its offset (HBM: from the logical base; host/RDMA: its address).
  virtual StatusOr<uint64_t> AssignVarMem(const std::string& name, uint64_t size) = 0;
  // Marks [offset, offset + size) used by a restored (offline) variable; later assignments go past it.
  virtual Status Restore(uint64_t offset, uint64_t size) = 0;
  // Bytes of variable memory assigned so far (GE's GetVarMemSize; what VAR_INFO records as var_mem_size).
  virtual uint64_t var_mem_size() const = 0;
  virtual rt::MemType mem_type() const = 0;
};

// The HBM resource: a logical counter bounded by |limit| bytes.
std::unique_ptr<MemResource> MakeHbmMemResource(uint64_t limit);
// Host or RDMA memory from |device| (which must outlive the resource; its blocks are freed with it).
std::unique_ptr<MemResource> MakePoolMemResource(rt::MemType type, rt::Device* device);

}  // namespace ge::var
