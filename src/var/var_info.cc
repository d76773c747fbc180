#include "var/var_info.h"

#include <climits>

#include "om/ir_proto.h"
#include "var/var_info.pb.h"

namespace ge::var {
namespace {

proto::TransNodeMultiInfo RoadToProto(const std::vector<TransStep>& road) {
  proto::TransNodeMultiInfo p;
  for (const TransStep& s : road) {
    proto::SingleTransNodeInfo* n = p.add_node_info();
    n->set_node_type(s.node_type);
    om::DescToProto(s.input, n->mutable_input());
    om::DescToProto(s.output, n->mutable_output());
  }
  return p;
}

StatusOr<std::vector<TransStep>> RoadFromProto(const proto::TransNodeMultiInfo& p, const std::string& what) {
  std::vector<TransStep> road;
  for (const proto::SingleTransNodeInfo& n : p.node_info()) {
    TransStep s;
    s.node_type = n.node_type();
    GE_ASSIGN_OR_RETURN(s.input, om::DescFromProto(n.input(), what + " trans road input"));
    GE_ASSIGN_OR_RETURN(s.output, om::DescFromProto(n.output(), what + " trans road output"));
    road.push_back(std::move(s));
  }
  return road;
}

}  // namespace

StatusOr<std::string> SerializeVarInfo(const VarManager& manager, uint32_t device_id) {
  const VarResource res = manager.resource();
  proto::VarManagerInfo info;
  info.set_version(kVarInfoVersion);
  info.set_session_id(manager.session_id());
  info.set_device_id(device_id);
  info.set_graph_mem_max_size(manager.graph_mem_max_size());
  info.set_var_mem_max_size(manager.var_mem_max_size());
  info.set_var_mem_logic_base(manager.var_mem_logic_base());
  info.set_var_mem_auto_malloc(true);
  proto::VarResourceInfo* r = info.mutable_var_resource();
  for (const auto& [logical, type] : res.var_offset_map) (*r->mutable_var_offset_map())[logical] = static_cast<uint32_t>(type);
  for (const auto& [key, a] : res.var_addr_mgr_map) {
    proto::VarAddrMgrInfo& p = (*r->mutable_var_addr_mgr_map())[key];
    om::DescToProto(a.desc, p.mutable_desc());
    p.set_address(a.logical);
    p.set_offset(a.offset);
    p.set_memory_type(static_cast<uint64_t>(a.mem_type));
  }
  for (const auto& [name, desc] : res.cur_var_tensor_desc_map) {
    om::DescToProto(desc, &(*r->mutable_cur_var_tensor_desc_map())[name]);
  }
  for (const auto& [name, road] : res.var_to_trans_road) (*r->mutable_var_to_trans_road())[name] = RoadToProto(road);
  for (const auto& [name, id] : res.var_names_to_changed_graph_id) (*r->mutable_var_names_to_changed_graph_id())[name] = id;
  for (const auto& [name, id] : res.var_names_to_allocated_graph_id) {
    (*r->mutable_var_names_to_allocated_graph_id())[name] = id;
  }
  for (const auto& [logical, dev] : res.var_dev_addr_mgr_map) {
    proto::VarDevAddrMgr& p = (*r->mutable_var_dev_addr_mgr_map())[logical];
    p.set_address(logical);
    p.set_dev_addr(0);
  }
  for (rt::MemType t : {rt::MemType::kDevice, rt::MemType::kHost, rt::MemType::kRdma}) {
    const uint64_t used = manager.GetVarMemSize(t);
    if (used != 0) (*info.mutable_mem_resource_map())[static_cast<uint32_t>(t)].set_var_mem_size(used);
  }
  std::string bytes;
  if (!info.SerializeToString(&bytes)) return Internal("VAR_INFO: serialization failed");
  return bytes;
}

Status RestoreVarInfo(const void* data, size_t size, VarManager* manager) {
  if (manager == nullptr) return InvalidArgument("RestoreVarInfo: no manager");
  proto::VarManagerInfo info;
  if (size > INT_MAX || !info.ParseFromArray(data, static_cast<int>(size))) return DataLoss("VAR_INFO does not parse");
  if (info.version() != kVarInfoVersion) {
    return DataLoss("VAR_INFO version " + std::to_string(info.version()) + ", expected " +
                    std::to_string(kVarInfoVersion));
  }
  if (info.var_mem_logic_base() != kVarMemoryLogicBase) {
    return DataLoss("VAR_INFO: variable logical base " + std::to_string(info.var_mem_logic_base()) +
                    ", expected " + std::to_string(kVarMemoryLogicBase));
  }
  const proto::VarResourceInfo& r = info.var_resource();
  for (const auto& [name, desc_proto] : r.cur_var_tensor_desc_map()) {
    const std::string what = "VAR_INFO: variable '" + name + "'";
    GE_ASSIGN_OR_RETURN(TensorDesc desc, om::DescFromProto(desc_proto, what));
    auto it = r.var_addr_mgr_map().find(VarKey(name, desc));
    if (it == r.var_addr_mgr_map().end()) return DataLoss(what + " has a desc but no address");
    const proto::VarAddrMgrInfo& a = it->second;
    if (a.memory_type() != static_cast<uint64_t>(rt::MemType::kDevice)) {
      return DataLoss(what + ": memory type " + std::to_string(a.memory_type()) +
                      " (only device variables are in offline models)");
    }
    if (a.address() < kVarMemoryLogicBase || a.address() - kVarMemoryLogicBase != a.offset()) {
      return DataLoss(what + ": address " + std::to_string(a.address()) + " and offset " +
                      std::to_string(a.offset()) + " disagree");
    }
    Status s = manager->RestoreVarMem(name, desc, a.address());
    if (!s.ok()) return s.WithContext(what);
    if (auto road = r.var_to_trans_road().find(name); road != r.var_to_trans_road().end()) {
      GE_ASSIGN_OR_RETURN(std::vector<TransStep> steps, RoadFromProto(road->second, what));
      GE_RETURN_IF_ERROR(manager->SetTransRoad(name, std::move(steps)));
    }
    if (auto g = r.var_names_to_changed_graph_id().find(name); g != r.var_names_to_changed_graph_id().end()) {
      manager->SetChangedGraphId(name, g->second);
    }
    if (auto g = r.var_names_to_allocated_graph_id().find(name); g != r.var_names_to_allocated_graph_id().end()) {
      manager->SetAllocatedGraphId(name, g->second);
    }
  }
  return Status::Ok();
}

}  // namespace ge::var
