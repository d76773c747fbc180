#include "var/var_resource.h"

namespace ge::var {

std::string VarKey(const std::string& batch_mapped_name, const TensorDesc& desc) {
  return batch_mapped_name + std::to_string(static_cast<int>(desc.format)) + "_" +
         std::to_string(static_cast<int>(desc.dtype));
}

const VarAddr* VarResource::Current(const std::string& name) const {
  auto d = cur_var_tensor_desc_map.find(name);
  if (d == cur_var_tensor_desc_map.end()) return nullptr;
  auto a = var_addr_mgr_map.find(VarKey(BatchMapped(name), d->second));
  return a == var_addr_mgr_map.end() ? nullptr : &a->second;
}

Status VarResource::SaveVarAddr(const std::string& name, const VarAddr& addr, void* external) {
  const std::string key = VarKey(BatchMapped(name), addr.desc);
  if (var_addr_mgr_map.count(key) != 0) {
    return FailedPrecondition("variable '" + name + "': key " + key + " already has an address");
  }
  var_addr_mgr_map[key] = addr;
  cur_var_tensor_desc_map[name] = addr.desc;
  var_offset_map[addr.logical] = addr.mem_type;
  VarDevAddr& dev = var_dev_addr_mgr_map[addr.logical];
  dev.logical = addr.logical;
  dev.size = std::max(dev.size, addr.size);
  if (external != nullptr) dev.external = external;
  return Status::Ok();
}

}  // namespace ge::var
