#include "var/mem_resource.h"

#include <algorithm>
#include <cstring>

#include "var/var_resource.h"

namespace ge::var {
namespace {

class HbmMemResource final : public MemResource {
 public:
  explicit HbmMemResource(uint64_t limit) : limit_(limit) {}

  StatusOr<uint64_t> AssignVarMem(const std::string& name, uint64_t size) override {
    const uint64_t need = RoundUpVar(size) + kVarGuard;
    if (size > limit_ || need > limit_ - std::min(limit_, counter_)) {
      return ResourceExhausted("variable '" + name + "' needs " + std::to_string(need) +
                               " bytes of variable memory; " + std::to_string(limit_ - std::min(limit_, counter_)) +
                               " of the session's " + std::to_string(limit_) + " are left");
    }
    const uint64_t offset = counter_;
    counter_ += need;
    return offset;
  }
  Status Restore(uint64_t offset, uint64_t size) override {
    counter_ = std::max(counter_, offset + RoundUpVar(size) + kVarGuard);
    return Status::Ok();
  }
  uint64_t var_mem_size() const override { return counter_; }
  rt::MemType mem_type() const override { return rt::MemType::kDevice; }

 private:
  const uint64_t limit_;
  uint64_t counter_ = 0;
};

class PoolMemResource final : public MemResource {
 public:
  PoolMemResource(rt::MemType type, rt::Device* device) : type_(type), device_(device) {}
  ~PoolMemResource() override {
    for (void* b : blocks_) (void)device_->Free(type_, b);
  }

  StatusOr<uint64_t> AssignVarMem(const std::string& name, uint64_t size) override {
    auto mem = device_->Malloc(type_, std::max<uint64_t>(size, 1), kVarAlign);
    if (!mem.ok()) return mem.status().WithContext("variable '" + name + "'");
    if (type_ == rt::MemType::kHost) std::memset(*mem, 0, size);
    blocks_.push_back(*mem);
    used_ += size;
    return static_cast<uint64_t>(reinterpret_cast<uintptr_t>(*mem));
  }
  Status Restore(uint64_t, uint64_t) override {
    return FailedPrecondition(std::string("a ") + rt::MemTypeName(type_) +
                              " variable cannot be restored from an offline model (its address is a process's)");
  }
  uint64_t var_mem_size() const override { return used_; }
  rt::MemType mem_type() const override { return type_; }

 private:
  const rt::MemType type_;
  rt::Device* const device_;
  std::vector<void*> blocks_;
  uint64_t used_ = 0;
};

}  // namespace

std::unique_ptr<MemResource> MakeHbmMemResource(uint64_t limit) { return std::make_unique<HbmMemResource>(limit); }

std::unique_ptr<MemResource> MakePoolMemResource(rt::MemType type, rt::Device* device) {
  return std::make_unique<PoolMemResource>(type, device);
}

}  // namespace ge::var
