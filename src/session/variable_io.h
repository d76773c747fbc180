// A session's variables in and out: GetVariables, and checkpoint files (var/checkpoint.h) saved and restored.
#pragma once
#include <string>
#include <vector>

#include "base/tensor.h"
#include "rt/device.h"
#include "var/var_manager.h"

namespace ge::session {

// Copies of the named variables (all of the session's, sorted by name, when *names is empty: *names is filled),
// each in the desc graphs declare it in: a variable whose stored desc variable acceleration changed is converted
// back along its trans road. Checkpoints keep the stored descs (restored into a session of the same layout).
Status ReadVariables(var::VarManager* manager, rt::Device* device, std::vector<std::string>* names,
                     std::vector<Tensor>* values);
Status SaveSessionCheckpoint(var::VarManager* manager, rt::Device* device, const std::string& path);
// The checkpoint's variables into the session (placed if new); each counts as initialized afterwards.
Status RestoreSessionCheckpoint(var::VarManager* manager, rt::Device* device, const std::string& path);
// After a compile changed the variable's stored desc (CompileReport::changed_variables): memory it already has,
// holding the value in the road's first desc, is converted in place (GE's TransAllVarData).
Status ConvertVariableMemory(var::VarManager* manager, rt::Device* device, const std::string& name);

}  // namespace ge::session
