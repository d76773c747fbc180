// VarManager: one session's variables (seed 000; ge_facts.md §5) — logical addresses assigned at compile time,
// reuse rules, restore from offline models, lazy device memory with guards, init values, ready and loaded state.
// VarManagerPool: session id → VarManager, owned by whoever holds the sessions (no process singleton).
//
// Addresses: an HBM variable's logical address is kVarMemoryLogicBase + its offset in the session's variable
// space; its device memory is allocated on first GetVarMemoryAddr (roundup512(size) + 1024 bytes) and the
// variable lives 512 bytes into it, so 512 guard bytes sit on each side. Host and RDMA variables get real memory
// at assignment; their logical address is that memory's.
//
// Threading: every method is thread-safe (one mutex). The rt::Device outlives the manager.
#pragma once
#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "base/status.h"
#include "base/tensor.h"
#include "base/tensor_desc.h"
#include "rt/device.h"
#include "var/mem_resource.h"
#include "var/var_resource.h"

namespace ge::var {

struct VarManagerOptions {
  uint32_t device_id = 0;
  // The session's memory budget in bytes (GE's SetMemoryMallocSize): 26/32 of it for graphs, 5/32 for
  // variables; at most 256 GB. 0: GE's defaults (26 GB graph + 5 GB variable).
  uint64_t memory_budget = 0;
};

// One variable to place (AssignVarMem).
struct VarRequest {
  std::string name;
  VarKind kind = VarKind::kVariable;
  TensorDesc desc;  // static tensor
  rt::MemType mem_type = rt::MemType::kDevice;
  const Tensor* value = nullptr;  // kConstant: its bytes, for deduplication
  std::string file_key;           // kFileConstant: "path:offset", for deduplication
  void* external = nullptr;       // kConstPlaceHolder: the caller's memory (never freed here)
};

class VarManager {
 public:
  VarManager(uint64_t session_id, rt::Device* device);
  ~VarManager();
  VarManager(const VarManager&) = delete;
  VarManager& operator=(const VarManager&) = delete;

  // Idempotent: the first call fixes the device id and the memory limits.
  Status Init(const VarManagerOptions& options);
  uint64_t session_id() const { return session_id_; }
  uint64_t graph_mem_max_size() const;
  uint64_t var_mem_max_size() const;
  uint64_t var_mem_logic_base() const { return kVarMemoryLogicBase; }
  uint64_t GetVarMemSize(rt::MemType type) const;

  // --- compile time ---
  // The logical address of the variable, assigned by GE's rules in order: (1) a name with a current desc keeps
  // its memory; (2) else a kFileConstant reuses the memory of the same "path:offset", a kConstant that of a
  // constant with identical bytes; (3) new memory when nothing was found or the new desc needs more bytes; (4) a
  // changed format, dtype or shape re-keys the entry onto the same memory.
  StatusOr<uint64_t> AssignVarMem(const VarRequest& request);
  bool IsVarExist(const std::string& name) const;
  bool IsVarExist(const std::string& name, const TensorDesc& desc) const;
  StatusOr<VarAddr> GetVarAddr(const std::string& name, const TensorDesc& desc) const;
  StatusOr<TensorDesc> GetCurVarDesc(const std::string& name) const;
  // After a format change (variable acceleration): the variable's current desc becomes |desc|, a new key on the
  // same memory (which must be large enough).
  Status RenewCurVarDesc(const std::string& name, const TensorDesc& desc);
  Status SetTransRoad(const std::string& name, std::vector<TransStep> road);
  std::vector<TransStep> GetTransRoad(const std::string& name) const;
  void SetChangedGraphId(const std::string& name, uint32_t graph_id);
  bool GetChangedGraphId(const std::string& name, uint32_t* graph_id) const;
  void SetAllocatedGraphId(const std::string& name, uint32_t graph_id);
  bool GetAllocatedGraphId(const std::string& name, uint32_t* graph_id) const;
  // Multi-batch: |batch_name| shares the memory of |key_name|.
  void SetBatchVariablesKeyName(const std::string& batch_name, const std::string& key_name);

  // --- load time ---
  // An offline model's variable at |logical| (GE's RestoreVarMem): logical - base must be >= 0 and the variable
  // must end within the variable limit; a variable already known with another desc may take the new one only if
  // it needs no more bytes ("recompile" otherwise).
  Status RestoreVarMem(const std::string& name, const TensorDesc& desc, uint64_t logical,
                       rt::MemType mem_type = rt::MemType::kDevice);
  // The caller's memory for all HBM variables (GE's SetExternalVar): logical address L maps to
  // memory + (L - base); the memory must cover every variable assigned.
  Status SetExternalVar(void* memory, uint64_t size);
  // The variable's initial value (GE's `_init_value`), copied in when its memory is first allocated. Its dtype
  // and dims must be the variable's, and its bytes at most the variable's.
  // Replaces any init value kept for another desc of the same memory (a variable whose format changed).
  Status SetInitValue(const std::string& name, const Tensor& value);
  // The init value kept for the variable in |desc|, if any.
  std::optional<Tensor> InitValue(const std::string& name, const TensorDesc& desc) const;
  // Whether the variable's memory exists (GetVarMemoryAddr allocated it, or it is the caller's).
  bool IsVarMemoryAllocated(const std::string& name) const;

  // Whether a graph of the session can count on the variable holding a value (VarIsInitializedOp folding): it
  // has an `_init_value`, was restored (checkpoint), or an earlier-compiled graph of the session writes it.
  void SetVarInitialized(const std::string& name);
  bool IsVarInitialized(const std::string& name) const;

  // Write versions (variable acceleration): a counter per variable, at a stable address for the manager's life,
  // that every write of the variable increments (a model's write tasks, RestoreVariables). Kernels that keep a
  // converted copy of a variable compare it. nullptr for an address in no variable.
  std::atomic<uint64_t>* WriteVersion(uint64_t logical);
  void BumpWriteVersion(const std::string& name);

  // --- run time ---
  // The device address of |logical| (any address inside a variable, which gives an inner offset): RDMA → the
  // logical address itself; external memory → memory + (logical - base); otherwise the variable's lazily
  // allocated block + 512 + inner offset. NotFound for an address in no variable.
  StatusOr<void*> GetVarMemoryAddr(uint64_t logical, rt::MemType mem_type);
  // Frees every lazily allocated block (external and ConstPlaceHolder memory stays the caller's).
  Status FreeVarMemory();
  // True when a constant at |logical| was already loaded on |device|; otherwise marks it loaded and returns false.
  bool CheckAndSetVarLoaded(uint32_t device, uint64_t logical);
  void SetVarIsReady(const std::string& name, const TensorDesc& desc, uint32_t device);
  bool IsVarReady(const std::string& name, const TensorDesc& desc, uint32_t device) const;

  // A copy of the tables (for VAR_INFO serialization and tests).
  VarResource resource() const;

 private:
  MemResource& Resource(rt::MemType type);
  StatusOr<uint64_t> FindReuse(const VarRequest& r, uint64_t size) const;
  Status CheckInitValue(const std::string& name, const TensorDesc& desc, uint64_t size, const Tensor& value) const;

  const uint64_t session_id_;
  rt::Device* const device_;
  mutable std::mutex mu_;
  bool initialized_ = false;        // guarded by mu_
  uint32_t device_id_ = 0;          // guarded by mu_
  uint64_t graph_mem_max_ = 0;      // guarded by mu_
  uint64_t var_mem_max_ = 0;        // guarded by mu_
  VarResource res_;                 // guarded by mu_
  std::map<rt::MemType, std::unique_ptr<MemResource>> mem_;  // guarded by mu_; lazy per type
  std::map<std::string, Tensor> init_values_;                 // guarded by mu_; by name
  std::set<std::string> initialized_vars_;                    // guarded by mu_; SetVarInitialized
  // WriteVersion: by the variable's logical base address; entries never removed (stable addresses).
  std::map<uint64_t, std::unique_ptr<std::atomic<uint64_t>>> write_versions_;  // guarded by mu_
  void* external_ = nullptr;        // guarded by mu_
  uint64_t external_size_ = 0;      // guarded by mu_
};

class VarManagerPool {
 public:
  explicit VarManagerPool(rt::Device* device) : device_(device) {}
  // The session's manager, created on first use.
  std::shared_ptr<VarManager> Instance(uint64_t session_id);
  // Drops the session's manager (its memory is freed when the last user lets go).
  void Destroy(uint64_t session_id);
  size_t size() const;

 private:
  rt::Device* const device_;
  mutable std::mutex mu_;
  std::map<uint64_t, std::shared_ptr<VarManager>> managers_;  // guarded by mu_
};

// Bytes a static desc's storage holds (its format's storage shape × element size).
StatusOr<uint64_t> VarBytes(const TensorDesc& desc);

}  // namespace ge::var
