#include "runtime/graph_loader.h"

#include <utility>

namespace ge::runtime {

StatusOr<ModelId> GraphLoader::LoadModelFromFile(ModelManager& manager, const std::string& path,
                                                 const ModelLoadOptions& options) {
  return manager.LoadFromFile(path, options);
}

StatusOr<ModelId> GraphLoader::LoadModelFromData(ModelManager& manager, const void* data, size_t size,
                                                 std::shared_ptr<const void> keep_alive,
                                                 const ModelLoadOptions& options) {
  return manager.LoadFromMemory(data, size, std::move(keep_alive), options);
}

Status GraphLoader::UnloadModel(ModelManager& manager, ModelId id, rt::Duration wait) {
  return manager.Unload(id, wait);
}

StatusOr<ModelIo> GraphLoader::GetModelIo(ModelManager& manager, ModelId id) {
  GE_ASSIGN_OR_RETURN(ModelLease lease, manager.Acquire(id));
  ModelIo io;
  io.name = lease.model().name();
  io.inputs = lease.model().inputs();
  io.outputs = lease.model().outputs();
  return io;
}

}  // namespace ge::runtime
