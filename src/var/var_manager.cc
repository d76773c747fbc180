#include "var/var_manager.h"

#include <algorithm>
#include <cstring>

namespace ge::var {
namespace {

constexpr uint64_t kGiB = uint64_t{1} << 30;
constexpr uint64_t kMaxMemoryBudget = 256 * kGiB;
constexpr uint64_t kDefaultGraphMem = 26 * kGiB;
constexpr uint64_t kDefaultVarMem = 5 * kGiB;

bool SameDims(const TensorDesc& a, const TensorDesc& b) { return a.shape.dims() == b.shape.dims(); }

}  // namespace

StatusOr<uint64_t> VarBytes(const TensorDesc& desc) {
  if (desc.kind != ValueKind::kTensor || !desc.shape.IsFullyKnown() || desc.dtype == DataType::kUndefined ||
      desc.dtype == DataType::kString) {
    return InvalidArgument("a variable must be a static numeric tensor, got " + desc.ToString());
  }
  GE_ASSIGN_OR_RETURN(int64_t n, StorageNumElements(desc.shape.dims(), desc.format));
  const uint64_t e = DataTypeSize(desc.dtype);
  if (n < 0 || (n > 0 && e > (uint64_t{1} << 50) / static_cast<uint64_t>(n))) {
    return InvalidArgument("variable of " + desc.ToString() + " is too large");
  }
  return static_cast<uint64_t>(n) * e;
}

VarManager::VarManager(uint64_t session_id, rt::Device* device) : session_id_(session_id), device_(device) {}

VarManager::~VarManager() { (void)FreeVarMemory(); }

Status VarManager::Init(const VarManagerOptions& options) {
  std::lock_guard<std::mutex> lk(mu_);
  if (initialized_) return Status::Ok();
  if (options.memory_budget > kMaxMemoryBudget) {
    return InvalidArgument("session memory budget " + std::to_string(options.memory_budget) +
                           " bytes exceeds 256 GB");
  }
  device_id_ = options.device_id;
  if (options.memory_budget == 0) {
    graph_mem_max_ = kDefaultGraphMem;
    var_mem_max_ = kDefaultVarMem;
  } else {
    graph_mem_max_ = options.memory_budget * 26 / 32;
    var_mem_max_ = options.memory_budget * 5 / 32;
  }
  initialized_ = true;
  return Status::Ok();
}

uint64_t VarManager::graph_mem_max_size() const {
  std::lock_guard<std::mutex> lk(mu_);
  return graph_mem_max_;
}

uint64_t VarManager::var_mem_max_size() const {
  std::lock_guard<std::mutex> lk(mu_);
  return var_mem_max_;
}

uint64_t VarManager::GetVarMemSize(rt::MemType type) const {
  std::lock_guard<std::mutex> lk(mu_);
  auto it = mem_.find(type);
  return it == mem_.end() ? 0 : it->second->var_mem_size();
}

MemResource& VarManager::Resource(rt::MemType type) {
  std::unique_ptr<MemResource>& r = mem_[type];
  if (r == nullptr) {
    r = type == rt::MemType::kDevice ? MakeHbmMemResource(var_mem_max_) : MakePoolMemResource(type, device_);
  }
  return *r;
}

StatusOr<uint64_t> VarManager::FindReuse(const VarRequest& r, uint64_t size) const {
  if (r.kind == VarKind::kFileConstant && !r.file_key.empty()) {
    auto it = res_.file_constant_var_map.find(r.file_key);
    if (it != res_.file_constant_var_map.end()) {
      const VarAddr& a = res_.var_addr_mgr_map.at(it->second);
      if (a.size >= size && a.mem_type == r.mem_type) return a.logical;
    }
  }
  if (r.kind == VarKind::kConstant && r.value != nullptr) {
    for (const auto& [key, a] : res_.var_addr_mgr_map) {
      if (a.kind != VarKind::kConstant || a.mem_type != r.mem_type || a.size != size ||
          DataTypeSize(a.desc.dtype) != DataTypeSize(r.desc.dtype)) {
        continue;
      }
      auto v = init_values_.find(key);  // constants keep their bytes as the init value, by key
      if (v != init_values_.end() && v->second.nbytes() == r.value->nbytes() &&
          std::memcmp(v->second.raw_data(), r.value->raw_data(), r.value->nbytes()) == 0) {
        return a.logical;
      }
    }
  }
  return NotFound("");
}

StatusOr<uint64_t> VarManager::AssignVarMem(const VarRequest& r) {
  GE_ASSIGN_OR_RETURN(const uint64_t size, VarBytes(r.desc));
  if (r.name.empty()) return InvalidArgument("a variable needs a name");
  if (r.kind == VarKind::kConstant && r.value != nullptr && r.value->nbytes() != size) {
    return InvalidArgument("constant '" + r.name + "' holds " + std::to_string(r.value->nbytes()) +
                           " bytes but its desc " + r.desc.ToString() + " needs " + std::to_string(size));
  }
  std::lock_guard<std::mutex> lk(mu_);
  if (!initialized_) return FailedPrecondition("VarManager of session " + std::to_string(session_id_) + ": not initialized");
  const std::string key = VarKey(res_.BatchMapped(r.name), r.desc);
  if (auto it = res_.var_addr_mgr_map.find(key); it != res_.var_addr_mgr_map.end() && it->second.size >= size) {
    res_.cur_var_tensor_desc_map[r.name] = r.desc;
    it->second.desc = r.desc;  // the key has no dims: a reshaped variable keeps its key
    return it->second.logical;  // (1) same name, same format: its address
  }
  VarAddr addr;
  addr.desc = r.desc;
  addr.size = size;
  addr.mem_type = r.mem_type;
  addr.kind = r.kind;
  bool found = false;
  if (const VarAddr* cur = res_.Current(r.name); cur != nullptr && cur->mem_type == r.mem_type && cur->size >= size) {
    addr.logical = cur->logical;  // (1) + (4): the name's memory, re-keyed for the new format
    addr.offset = cur->offset;
    found = true;
  } else if (auto reuse = FindReuse(r, size); reuse.ok()) {
    addr.logical = *reuse;  // (2) the same file range, or identical constant bytes
    addr.offset = r.mem_type == rt::MemType::kDevice ? *reuse - kVarMemoryLogicBase : *reuse;
    found = true;
  }
  if (!found) {  // (3) new memory (also when the name's memory is too small)
    GE_ASSIGN_OR_RETURN(addr.offset, Resource(r.mem_type).AssignVarMem(r.name, size));
    addr.logical = r.mem_type == rt::MemType::kDevice ? kVarMemoryLogicBase + addr.offset : addr.offset;
  }
  res_.var_addr_mgr_map.erase(key);
  GE_RETURN_IF_ERROR(res_.SaveVarAddr(r.name, addr, r.kind == VarKind::kConstPlaceHolder ? r.external : nullptr));
  if (r.kind == VarKind::kFileConstant && !r.file_key.empty()) res_.file_constant_var_map.emplace(r.file_key, key);
  if (r.kind == VarKind::kConstant && r.value != nullptr) {
    GE_ASSIGN_OR_RETURN(Tensor copy, r.value->Clone());
    init_values_[key] = copy;  // the bytes deduplication compares, and what the first allocation copies in
  }
  return addr.logical;
}

bool VarManager::IsVarExist(const std::string& name) const {
  std::lock_guard<std::mutex> lk(mu_);
  return res_.cur_var_tensor_desc_map.count(name) != 0;
}

bool VarManager::IsVarExist(const std::string& name, const TensorDesc& desc) const {
  std::lock_guard<std::mutex> lk(mu_);
  auto it = res_.var_addr_mgr_map.find(VarKey(res_.BatchMapped(name), desc));
  return it != res_.var_addr_mgr_map.end() && SameDims(it->second.desc, desc);
}

StatusOr<VarAddr> VarManager::GetVarAddr(const std::string& name, const TensorDesc& desc) const {
  std::lock_guard<std::mutex> lk(mu_);
  auto it = res_.var_addr_mgr_map.find(VarKey(res_.BatchMapped(name), desc));
  if (it == res_.var_addr_mgr_map.end()) return NotFound("no variable '" + name + "' of " + desc.ToString());
  return it->second;
}

StatusOr<TensorDesc> VarManager::GetCurVarDesc(const std::string& name) const {
  std::lock_guard<std::mutex> lk(mu_);
  auto it = res_.cur_var_tensor_desc_map.find(name);
  if (it == res_.cur_var_tensor_desc_map.end()) return NotFound("no variable '" + name + "'");
  return it->second;
}

Status VarManager::RenewCurVarDesc(const std::string& name, const TensorDesc& desc) {
  GE_ASSIGN_OR_RETURN(const uint64_t size, VarBytes(desc));
  std::lock_guard<std::mutex> lk(mu_);
  const VarAddr* cur = res_.Current(name);
  if (cur == nullptr) return NotFound("no variable '" + name + "'");
  if (size > RoundUpVar(cur->size)) {
    return FailedPrecondition("variable '" + name + "' cannot take " + desc.ToString() + ": it needs " +
                              std::to_string(size) + " bytes and has " + std::to_string(RoundUpVar(cur->size)));
  }
  VarAddr renewed = *cur;
  renewed.desc = desc;
  renewed.size = size;
  const std::string key = VarKey(res_.BatchMapped(name), desc);
  res_.var_addr_mgr_map[key] = renewed;
  res_.cur_var_tensor_desc_map[name] = desc;
  VarDevAddr& dev = res_.var_dev_addr_mgr_map[renewed.logical];
  dev.size = std::max(dev.size, size);  // within RoundUpVar(old size), so within an allocated block too
  return Status::Ok();
}

Status VarManager::SetTransRoad(const std::string& name, std::vector<TransStep> road) {
  std::lock_guard<std::mutex> lk(mu_);
  if (res_.cur_var_tensor_desc_map.count(name) == 0) return NotFound("no variable '" + name + "'");
  res_.var_to_trans_road[name] = std::move(road);
  return Status::Ok();
}

std::vector<TransStep> VarManager::GetTransRoad(const std::string& name) const {
  std::lock_guard<std::mutex> lk(mu_);
  auto it = res_.var_to_trans_road.find(name);
  return it == res_.var_to_trans_road.end() ? std::vector<TransStep>() : it->second;
}

void VarManager::SetChangedGraphId(const std::string& name, uint32_t graph_id) {
  std::lock_guard<std::mutex> lk(mu_);
  res_.var_names_to_changed_graph_id[name] = graph_id;
}

bool VarManager::GetChangedGraphId(const std::string& name, uint32_t* graph_id) const {
  std::lock_guard<std::mutex> lk(mu_);
  auto it = res_.var_names_to_changed_graph_id.find(name);
  if (it == res_.var_names_to_changed_graph_id.end()) return false;
  *graph_id = it->second;
  return true;
}

void VarManager::SetAllocatedGraphId(const std::string& name, uint32_t graph_id) {
  std::lock_guard<std::mutex> lk(mu_);
  res_.var_names_to_allocated_graph_id.emplace(name, graph_id);  // the first graph that allocated it
}

bool VarManager::GetAllocatedGraphId(const std::string& name, uint32_t* graph_id) const {
  std::lock_guard<std::mutex> lk(mu_);
  auto it = res_.var_names_to_allocated_graph_id.find(name);
  if (it == res_.var_names_to_allocated_graph_id.end()) return false;
  *graph_id = it->second;
  return true;
}

void VarManager::SetBatchVariablesKeyName(const std::string& batch_name, const std::string& key_name) {
  std::lock_guard<std::mutex> lk(mu_);
  res_.batch_var_name_map[batch_name] = key_name;
}

Status VarManager::RestoreVarMem(const std::string& name, const TensorDesc& desc, uint64_t logical,
                                 rt::MemType mem_type) {
  GE_ASSIGN_OR_RETURN(const uint64_t size, VarBytes(desc));
  std::lock_guard<std::mutex> lk(mu_);
  if (!initialized_) return FailedPrecondition("VarManager of session " + std::to_string(session_id_) + ": not initialized");
  if (mem_type != rt::MemType::kDevice) {
    return FailedPrecondition("variable '" + name + "': only device variables are restored from offline models");
  }
  if (logical < kVarMemoryLogicBase) {
    return DataLoss("variable '" + name + "': logical address " + std::to_string(logical) +
                    " lies below the variable base " + std::to_string(kVarMemoryLogicBase));
  }
  const uint64_t offset = logical - kVarMemoryLogicBase;
  if (offset > var_mem_max_ || size > var_mem_max_ - offset) {
    return DataLoss("variable '" + name + "' at offset " + std::to_string(offset) + " (" + std::to_string(size) +
                    " bytes) ends past the session's variable memory (" + std::to_string(var_mem_max_) + " bytes)");
  }
  const std::string key = VarKey(res_.BatchMapped(name), desc);
  if (auto it = res_.var_addr_mgr_map.find(key); it != res_.var_addr_mgr_map.end()) {
    if (it->second.logical != logical) {
      return FailedPrecondition("variable '" + name + "' is already at logical address " +
                                std::to_string(it->second.logical) + ", the model expects " + std::to_string(logical) +
                                ": recompile the model in this session");
    }
    res_.cur_var_tensor_desc_map[name] = desc;
    return Status::Ok();
  }
  if (const VarAddr* cur = res_.Current(name); cur != nullptr) {
    // Known in another format: the new one may reuse the memory only if it needs no more bytes.
    if (size > cur->size || cur->logical != logical) {
      return FailedPrecondition("variable '" + name + "' exists as " + cur->desc.ToString() + " (" +
                                std::to_string(cur->size) + " bytes at " + std::to_string(cur->logical) +
                                "); the model wants " + desc.ToString() + " (" + std::to_string(size) + " bytes at " +
                                std::to_string(logical) + "): recompile the model in this session");
    }
  }
  GE_RETURN_IF_ERROR(Resource(mem_type).Restore(offset, size));
  VarAddr addr;
  addr.desc = desc;
  addr.logical = logical;
  addr.offset = offset;
  addr.size = size;
  addr.mem_type = mem_type;
  return res_.SaveVarAddr(name, addr);
}

Status VarManager::SetExternalVar(void* memory, uint64_t size) {
  std::lock_guard<std::mutex> lk(mu_);
  if (memory == nullptr) return InvalidArgument("external variable memory is null");
  const uint64_t used = mem_.count(rt::MemType::kDevice) ? mem_[rt::MemType::kDevice]->var_mem_size() : 0;
  if (size < used) {
    return InvalidArgument("external variable memory of " + std::to_string(size) + " bytes is smaller than the " +
                           std::to_string(used) + " bytes of variables assigned");
  }
  external_ = memory;
  external_size_ = size;
  return Status::Ok();
}

Status VarManager::CheckInitValue(const std::string& name, const TensorDesc& desc, uint64_t size,
                                  const Tensor& value) const {
  // A blocked format's value may come as its storage elements (compiler/variable_trans.h).
  auto stored = StorageNumElements(desc.shape.dims(), desc.format);
  const bool as_storage = desc.format != Format::kND && desc.format != Format::kNCHW && value.rank() == 1 &&
                          stored.ok() && value.numel() == *stored;
  if (value.dtype() != desc.dtype || (value.dims() != desc.shape.dims() && !as_storage)) {
    return InvalidArgument("_init_value of variable '" + name + "' is " + DataTypeName(value.dtype()) +
                           DimsToString(value.dims()) + " but the variable is " + desc.ToString());
  }
  if (value.nbytes() > size) {
    return InvalidArgument("_init_value of variable '" + name + "' holds " + std::to_string(value.nbytes()) +
                           " bytes, more than the variable's " + std::to_string(size));
  }
  return Status::Ok();
}

Status VarManager::SetInitValue(const std::string& name, const Tensor& value) {
  std::lock_guard<std::mutex> lk(mu_);
  const VarAddr* cur = res_.Current(name);
  if (cur == nullptr) return NotFound("_init_value for unknown variable '" + name + "'");
  GE_RETURN_IF_ERROR(CheckInitValue(name, cur->desc, cur->size, value));
  GE_ASSIGN_OR_RETURN(Tensor copy, value.Clone());
  for (const auto& [key, a] : res_.var_addr_mgr_map) {
    if (a.logical == cur->logical) init_values_.erase(key);
  }
  init_values_[VarKey(res_.BatchMapped(name), cur->desc)] = copy;
  return Status::Ok();
}

std::optional<Tensor> VarManager::InitValue(const std::string& name, const TensorDesc& desc) const {
  std::lock_guard<std::mutex> lk(mu_);
  auto it = init_values_.find(VarKey(res_.BatchMapped(name), desc));
  if (it == init_values_.end()) return std::nullopt;
  return it->second;
}

bool VarManager::IsVarMemoryAllocated(const std::string& name) const {
  std::lock_guard<std::mutex> lk(mu_);
  const VarAddr* cur = res_.Current(name);
  if (cur == nullptr) return false;
  if (external_ != nullptr) return true;
  auto it = res_.var_dev_addr_mgr_map.find(cur->logical);
  return it != res_.var_dev_addr_mgr_map.end() && (it->second.block != nullptr || it->second.external != nullptr);
}

void VarManager::SetVarInitialized(const std::string& name) {
  std::lock_guard<std::mutex> lk(mu_);
  initialized_vars_.insert(res_.BatchMapped(name));
}

bool VarManager::IsVarInitialized(const std::string& name) const {
  std::lock_guard<std::mutex> lk(mu_);
  const std::string key_name = res_.BatchMapped(name);
  if (initialized_vars_.count(key_name) != 0) return true;
  const VarAddr* cur = res_.Current(name);
  return cur != nullptr && init_values_.count(VarKey(key_name, cur->desc)) != 0;
}

std::atomic<uint64_t>* VarManager::WriteVersion(uint64_t logical) {
  std::lock_guard<std::mutex> lk(mu_);
  auto it = res_.var_dev_addr_mgr_map.upper_bound(logical);
  if (it == res_.var_dev_addr_mgr_map.begin()) return nullptr;
  --it;
  if (logical - it->second.logical >= std::max<uint64_t>(it->second.size, 1)) return nullptr;
  std::unique_ptr<std::atomic<uint64_t>>& v = write_versions_[it->second.logical];
  if (v == nullptr) v = std::make_unique<std::atomic<uint64_t>>(0);
  return v.get();
}

void VarManager::BumpWriteVersion(const std::string& name) {
  std::lock_guard<std::mutex> lk(mu_);
  const VarAddr* cur = res_.Current(name);
  if (cur == nullptr) return;
  std::unique_ptr<std::atomic<uint64_t>>& v = write_versions_[cur->logical];
  if (v == nullptr) v = std::make_unique<std::atomic<uint64_t>>(0);
  v->fetch_add(1, std::memory_order_acq_rel);
}

StatusOr<void*> VarManager::GetVarMemoryAddr(uint64_t logical, rt::MemType mem_type) {
  std::lock_guard<std::mutex> lk(mu_);
  if (device_ == nullptr) return FailedPrecondition("VarManager has no device");
  if (mem_type == rt::MemType::kRdma) return reinterpret_cast<void*>(static_cast<uintptr_t>(logical));
  // The variable holding |logical|: the entry at or below it whose range contains it.
  auto it = res_.var_dev_addr_mgr_map.upper_bound(logical);
  if (it == res_.var_dev_addr_mgr_map.begin()) return NotFound("logical address " + std::to_string(logical) + " is in no variable");
  --it;
  VarDevAddr& dev = it->second;
  const uint64_t inner = logical - dev.logical;
  if (inner >= std::max<uint64_t>(dev.size, 1)) {
    return NotFound("logical address " + std::to_string(logical) + " is in no variable");
  }
  if (dev.external != nullptr) return static_cast<char*>(dev.external) + inner;
  if (mem_type == rt::MemType::kHost) return reinterpret_cast<void*>(static_cast<uintptr_t>(logical));
  if (external_ != nullptr) {
    const uint64_t off = logical - kVarMemoryLogicBase;
    if (logical < kVarMemoryLogicBase || off >= external_size_) {
      return OutOfRange("logical address " + std::to_string(logical) + " lies outside the external variable memory");
    }
    return static_cast<char*>(external_) + off;
  }
  if (dev.block == nullptr) {
    GE_ASSIGN_OR_RETURN(void* block, device_->Malloc(rt::MemType::kDevice, RoundUpVar(dev.size) + kVarGuard, kVarAlign));
    std::memset(block, 0, RoundUpVar(dev.size) + kVarGuard);
    dev.block = block;
    // The first allocation copies in the initial value of whichever key of this memory has one.
    for (const auto& [key, a] : res_.var_addr_mgr_map) {
      if (a.logical != dev.logical) continue;
      auto v = init_values_.find(key);
      if (v == init_values_.end()) continue;
      Status s = device_->Memcpy(static_cast<char*>(block) + kVarAlign, v->second.raw_data(), v->second.nbytes(),
                                 rt::MemcpyKind::kHostToDevice);
      if (!s.ok()) return s.WithContext("initial value of the variable at " + std::to_string(logical));
      break;
    }
  }
  return static_cast<char*>(dev.block) + kVarAlign + inner;
}

Status VarManager::FreeVarMemory() {
  std::lock_guard<std::mutex> lk(mu_);
  Status first;
  for (auto& [logical, dev] : res_.var_dev_addr_mgr_map) {
    if (dev.block == nullptr || device_ == nullptr) continue;
    Status s = device_->Free(rt::MemType::kDevice, dev.block);
    if (first.ok() && !s.ok()) first = s;
    dev.block = nullptr;
  }
  return first;
}

bool VarManager::CheckAndSetVarLoaded(uint32_t device, uint64_t logical) {
  std::lock_guard<std::mutex> lk(mu_);
  return !res_.loaded_offsets[device].insert(logical).second;
}

void VarManager::SetVarIsReady(const std::string& name, const TensorDesc& desc, uint32_t device) {
  std::lock_guard<std::mutex> lk(mu_);
  res_.var_is_instance[device].insert(VarKey(res_.BatchMapped(name), desc));
}

bool VarManager::IsVarReady(const std::string& name, const TensorDesc& desc, uint32_t device) const {
  std::lock_guard<std::mutex> lk(mu_);
  auto it = res_.var_is_instance.find(device);
  return it != res_.var_is_instance.end() && it->second.count(VarKey(res_.BatchMapped(name), desc)) != 0;
}

VarResource VarManager::resource() const {
  std::lock_guard<std::mutex> lk(mu_);
  return res_;
}

std::shared_ptr<VarManager> VarManagerPool::Instance(uint64_t session_id) {
  std::lock_guard<std::mutex> lk(mu_);
  std::shared_ptr<VarManager>& m = managers_[session_id];
  if (m == nullptr) m = std::make_shared<VarManager>(session_id, device_);
  return m;
}

void VarManagerPool::Destroy(uint64_t session_id) {
  std::lock_guard<std::mutex> lk(mu_);
  managers_.erase(session_id);
}

size_t VarManagerPool::size() const {
  std::lock_guard<std::mutex> lk(mu_);
  return managers_.size();
}

}  // namespace ge::var
