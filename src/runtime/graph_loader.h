// GraphLoader: GE's loading facade (seed 002 §2.2). Stateless; every call forwards to the ModelManager it is
// given (GE forwards to the ModelManager singleton; here the manager comes from a RuntimeContext), so callers
// (sessions, the offline-model API) need only "load a model", not the registry's internals.
// Thread-safe as ModelManager is.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "base/status.h"
#include "runtime/model_manager.h"

namespace ge::runtime {

struct ModelIo {
  std::string name;
  std::vector<IoDesc> inputs;
  std::vector<IoDesc> outputs;
};

class GraphLoader {
 public:
  GraphLoader() = delete;

  static StatusOr<ModelId> LoadModelFromFile(ModelManager& manager, const std::string& path,
                                             const ModelLoadOptions& options = {});
  // GE's LoadModelFromData: an .om image in memory; |keep_alive| (or the caller) keeps it valid while loaded.
  static StatusOr<ModelId> LoadModelFromData(ModelManager& manager, const void* data, size_t size,
                                             std::shared_ptr<const void> keep_alive = nullptr,
                                             const ModelLoadOptions& options = {});
  // See ModelManager::Unload (refuses while in use unless |wait| lets the runs finish).
  static Status UnloadModel(ModelManager& manager, ModelId id, rt::Duration wait = rt::Duration::zero());
  // Input and output descriptions (GE's GetModelDescInfo).
  static StatusOr<ModelIo> GetModelIo(ModelManager& manager, ModelId id);
};

}  // namespace ge::runtime
