// RuntimeContext: the explicit home of what GE keeps in process singletons for runtime v1 (DESIGN.md §10): the
// rt::Device, the sessions' variables (VarManagerPool) and the ModelManager. A session, an OfflineModel or a test creates one; nothing is global.
// Thread-safe as its parts are. Destruction unloads every model (see ~ModelManager), then frees the device.
#pragma once
#include <functional>
#include <memory>

#include "base/status.h"
#include "rt/device.h"
#include "runtime/model_manager.h"
#include "var/var_manager.h"

namespace ge::runtime {

struct RuntimeContextOptions {
  rt::DeviceOptions device;
  // Makes the device from `device`; null: rt::CreateDefaultDevice (the CPU). Tests pass a recording device.
  std::function<StatusOr<std::unique_ptr<rt::Device>>(const rt::DeviceOptions&)> create_device;
  // How models are loaded: OmModelLoader() for .om files, or a fake in tests. Required.
  ModelLoader loader;
};

class RuntimeContext {
 public:
  static StatusOr<std::unique_ptr<RuntimeContext>> Create(RuntimeContextOptions options);
  RuntimeContext(const RuntimeContext&) = delete;
  RuntimeContext& operator=(const RuntimeContext&) = delete;

  rt::Device& device() { return *device_; }
  ModelManager& models() { return *models_; }
  // The sessions' variables (seed 000): one VarManager per session id, memory from this context's device.
  var::VarManagerPool& variables() { return *variables_; }

 private:
  RuntimeContext() = default;
  std::unique_ptr<rt::Device> device_;
  std::unique_ptr<var::VarManagerPool> variables_;  // before the models: variables outlive the models using them
  std::unique_ptr<ModelManager> models_;  // declared last: destroyed before the device
};

}  // namespace ge::runtime
