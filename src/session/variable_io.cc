#include "session/variable_io.h"

#include <algorithm>

#include "var/checkpoint.h"
#include "var/var_info.h"

namespace ge::session {

Status ReadVariables(var::VarManager* manager, rt::Device* device, std::vector<std::string>* names,
                     std::vector<Tensor>* values) {
  GE_ASSIGN_OR_RETURN(var::Checkpoint ckpt, var::SaveVariables(manager, device, *names));
  values->clear();
  if (names->empty()) {
    std::sort(ckpt.variables.begin(), ckpt.variables.end(),
              [](const var::CheckpointVariable& a, const var::CheckpointVariable& b) { return a.name < b.name; });
    for (const var::CheckpointVariable& v : ckpt.variables) names->push_back(v.name);
  }
  for (const std::string& name : *names) {
    auto it = std::find_if(ckpt.variables.begin(), ckpt.variables.end(),
                           [&](const var::CheckpointVariable& v) { return v.name == name; });
    if (it == ckpt.variables.end()) return NotFound("variable '" + name + "' does not exist in the session");
    values->push_back(it->value);
  }
  return Status::Ok();
}

Status SaveSessionCheckpoint(var::VarManager* manager, rt::Device* device, const std::string& path) {
  GE_ASSIGN_OR_RETURN(var::Checkpoint ckpt, var::SaveVariables(manager, device, {}));
  GE_ASSIGN_OR_RETURN(ckpt.var_info, var::SerializeVarInfo(*manager));
  return var::WriteCheckpointFile(path, ckpt);
}

Status RestoreSessionCheckpoint(var::VarManager* manager, rt::Device* device, const std::string& path) {
  GE_ASSIGN_OR_RETURN(var::Checkpoint ckpt, var::ReadCheckpointFile(path));
  GE_RETURN_IF_ERROR(var::RestoreVariables(ckpt, manager, device));
  for (const var::CheckpointVariable& v : ckpt.variables) manager->SetVarInitialized(v.name);
  return Status::Ok();
}

}  // namespace ge::session
