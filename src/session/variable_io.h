// A session's variables in and out: GetVariables, and checkpoint files (var/checkpoint.h) saved and restored.
#pragma once
#include <string>
#include <vector>

#include "base/tensor.h"
#include "rt/device.h"
#include "var/var_manager.h"

namespace ge::session {

// Copies of the named variables (all of the session's, sorted by name, when *names is empty: *names is filled).
Status ReadVariables(var::VarManager* manager, rt::Device* device, std::vector<std::string>* names,
                     std::vector<Tensor>* values);
Status SaveSessionCheckpoint(var::VarManager* manager, rt::Device* device, const std::string& path);
// The checkpoint's variables into the session (placed if new); each counts as initialized afterwards.
Status RestoreSessionCheckpoint(var::VarManager* manager, rt::Device* device, const std::string& path);

}  // namespace ge::session
