// VarResource: the tables of one session's variables (seed 000, "VarResource"; ge_facts.md §5): the address of
// every variable key, each variable's current desc, logical address → memory type, logical address → device
// memory, format trans roads, the graphs that changed or first allocated a variable, FileConstant path:offset →
// key, multi-batch name mapping, and the per-device ready state. Plain data; VarManager serializes access.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "base/status.h"
#include "base/tensor_desc.h"
#include "rt/mem_type.h"

namespace ge::var {

// Variable memory's alignment and guard (GE's kSessionMemAlignSize, and 2 such units around each variable).
inline constexpr uint64_t kVarAlign = 512;
inline constexpr uint64_t kVarGuard = 2 * kVarAlign;
// Logical base of variable memory (GE's kVarMemoryLogicBase, fixed at 128 GB so offline models agree).
inline constexpr uint64_t kVarMemoryLogicBase = uint64_t{128} << 30;

inline uint64_t RoundUpVar(uint64_t n) { return (n + kVarAlign - 1) / kVarAlign * kVarAlign; }

// What kind of persistent-memory node a variable comes from (seed 000, "变量类型").
enum class VarKind : int { kVariable, kConstant, kFileConstant, kConstPlaceHolder };

// One step of a variable's format trans road (TransData / Cast / Reshape folded into the variable).
struct TransStep {
  std::string node_type;
  TensorDesc input, output;
};

struct VarAddr {
  TensorDesc desc;
  uint64_t logical = 0;  // HBM: kVarMemoryLogicBase + offset; host and RDMA: the memory's address
  uint64_t offset = 0;
  uint64_t size = 0;     // bytes the variable's desc holds
  rt::MemType mem_type = rt::MemType::kDevice;
  VarKind kind = VarKind::kVariable;
};

// Device memory behind one logical range (lazy, per variable), or the caller's (ConstPlaceHolder / external).
struct VarDevAddr {
  uint64_t logical = 0;
  uint64_t size = 0;        // the variable's bytes (the allocation adds the guards)
  void* block = nullptr;    // what was allocated (roundup512(size) + 1024 bytes); null until first use
  void* external = nullptr; // memory the caller owns (ConstPlaceHolder); never freed here
};

// The key of a variable (GE's VarResource::VarKey): batch-mapped name + numeric format + "_" + numeric dtype —
// with no separator between name and format, as GE's code has it.
std::string VarKey(const std::string& batch_mapped_name, const TensorDesc& desc);

struct VarResource {
  std::map<std::string, VarAddr> var_addr_mgr_map;            // key → address
  std::map<std::string, TensorDesc> cur_var_tensor_desc_map;  // name → current desc
  std::map<uint64_t, rt::MemType> var_offset_map;             // logical → memory type
  std::map<uint64_t, VarDevAddr> var_dev_addr_mgr_map;        // logical → device memory
  std::map<std::string, std::vector<TransStep>> var_to_trans_road;
  std::map<std::string, uint32_t> var_names_to_changed_graph_id;
  std::map<std::string, uint32_t> var_names_to_allocated_graph_id;
  std::map<std::string, std::string> file_constant_var_map;   // "path:offset" → key
  std::map<std::string, std::string> batch_var_name_map;      // batch name → key name
  std::map<uint32_t, std::set<std::string>> var_is_instance;  // device → keys ready there
  std::map<uint32_t, std::set<uint64_t>> loaded_offsets;      // device → offsets whose constant is loaded

  const std::string& BatchMapped(const std::string& name) const {
    auto it = batch_var_name_map.find(name);
    return it == batch_var_name_map.end() ? name : it->second;
  }
  // The address entry of name's current desc; null when the name is unknown.
  const VarAddr* Current(const std::string& name) const;
  // SaveVarAddr: a new key only (a duplicate is an error); records the offset map and the device entry.
  Status SaveVarAddr(const std::string& name, const VarAddr& addr, void* external = nullptr);
};

}  // namespace ge::var
