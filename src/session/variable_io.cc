#include "session/variable_io.h"

#include <algorithm>

#include "compiler/variable_trans.h"
#include "kernels/builtin_engines.h"
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
    const std::vector<var::TransStep> road = manager->GetTransRoad(name);
    if (road.empty()) {
      values->push_back(it->value);
      continue;
    }
    auto declared = compiler::ApplyTransRoad(it->value, road, /*inverse=*/true, kernels::BuiltinEngines());
    if (!declared.ok()) return declared.status().WithContext("variable '" + name + "'");
    values->push_back(std::move(*declared));
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

Status ConvertVariableMemory(var::VarManager* manager, rt::Device* device, const std::string& name) {
  const std::vector<var::TransStep> road = manager->GetTransRoad(name);
  if (road.empty() || !manager->IsVarMemoryAllocated(name)) return Status::Ok();
  const std::string what = "converting variable '" + name + "' to its new stored desc";
  GE_ASSIGN_OR_RETURN(TensorDesc cur, manager->GetCurVarDesc(name));
  GE_ASSIGN_OR_RETURN(var::VarAddr addr, manager->GetVarAddr(name, cur));
  GE_ASSIGN_OR_RETURN(void* mem, manager->GetVarMemoryAddr(addr.logical, addr.mem_type));
  const TensorDesc& old_desc = road.front().input;
  GE_ASSIGN_OR_RETURN(Tensor old_value, Tensor::Create(old_desc.dtype, old_desc.shape.dims()));
  // The memory was allocated for the old desc (variable acceleration only folds into a desc that fits it).
  GE_RETURN_IF_ERROR(device->Memcpy(old_value.raw_data(), mem, old_value.nbytes(), rt::MemcpyKind::kDeviceToHost));
  auto converted = compiler::ApplyTransRoad(old_value, road, /*inverse=*/false, kernels::BuiltinEngines());
  if (!converted.ok()) return converted.status().WithContext(what);
  GE_RETURN_IF_ERROR(device->Memcpy(mem, converted->raw_data(), converted->nbytes(), rt::MemcpyKind::kHostToDevice));
  manager->BumpWriteVersion(name);
  return Status::Ok();
}

}  // namespace ge::session
