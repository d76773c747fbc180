// VAR_INFO (seed 000, "离线变量管理"): a session's variable tables serialized into an offline model
// (VarManagerToSerial) and restored into the loading session's VarManager (VarManagerToDeserial). The format is
// var_info.proto (var_manager.proto's messages and field numbers).
#pragma once
#include <cstddef>
#include <string>

#include "base/status.h"
#include "var/var_manager.h"

namespace ge::var {

inline constexpr uint32_t kVarInfoVersion = 1;

// The manager's tables: every variable's address, current desc, trans road and graph ids, the memory limits and
// the variable memory used per type. Device addresses are never written (they are this process's).
StatusOr<std::string> SerializeVarInfo(const VarManager& manager, uint32_t device_id = 0);

// Restores the variables of serialized VAR_INFO into |manager| (initialized): each variable with a current desc is
// placed with RestoreVarMem at its recorded logical address (so the base, the session's limit and the format
// rules apply), then its trans road and graph ids. DataLoss naming the problem for bytes that do not parse,
// another version or logical base, or tables that disagree; the manager's errors otherwise.
Status RestoreVarInfo(const void* data, size_t size, VarManager* manager);

}  // namespace ge::var
