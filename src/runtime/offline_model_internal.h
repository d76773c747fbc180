// Internal side of the public OfflineModel (include/ge/model.h): lets the runtime (and tests, with fake
// loaders) build one from any ModelSource and ModelLoader. The public LoadFromFile / LoadFromMemory
// (model_loader.cc) call it with OmModelLoader().
#pragma once
#include <memory>

#include "ge/model.h"
#include "runtime/model_manager.h"
#include "runtime/runtime_context.h"

namespace ge::runtime {

struct OfflineModelAccess {
  // Creates a RuntimeContext for the model (device with options.intra_op_threads) and loads |source|.
  static StatusOr<std::unique_ptr<OfflineModel>> Load(ModelSource source, const OfflineModelOptions& options,
                                                      ModelLoader loader);
  // A memory source per options.borrow_model_data: the caller's bytes, or a 4 KiB-aligned private copy.
  static StatusOr<ModelSource> MemorySource(const void* data, size_t size, const OfflineModelOptions& options);
  static ModelId model_id(const OfflineModel& model);
  static RuntimeContext& context(OfflineModel& model);
};

}  // namespace ge::runtime
