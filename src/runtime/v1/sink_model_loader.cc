// Everything in runtime v1 that loads real .om models through SinkModel lives here, so code and tests that use
// only injected loaders never link SinkModel.
#include <utility>

#include "ge/model.h"
#include "om/om_reader.h"
#include "runtime/v1/model_manager.h"
#include "runtime/v1/offline_model_internal.h"
#include "runtime/v1/sink_model.h"

namespace ge {
namespace runtime {

ModelLoader SinkModelLoader() {
  return [](const ModelSource& source, const ModelLoadOptions& options, rt::Device& device) -> StatusOr<LoadedModel> {
    std::shared_ptr<const om::OmReader> om;
    if (!source.path.empty()) {
      GE_ASSIGN_OR_RETURN(om, om::OmReader::Open(source.path));
    } else {
      GE_ASSIGN_OR_RETURN(om, om::OmReader::FromMemory(source.data, source.size, source.keep_alive));
    }
    SinkModelOptions sink_options;
    sink_options.feature_map = options.feature_map;
    sink_options.feature_map_size = options.feature_map_size;
    GE_ASSIGN_OR_RETURN(std::unique_ptr<SinkModel> model, SinkModel::Load(std::move(om), &device, sink_options));
    LoadedModel loaded;
    loaded.feature_map_bytes = options.feature_map != nullptr ? 0 : model->stats().feature_map_bytes;
    loaded.weights_bytes = model->stats().weights_bytes;
    loaded.model = std::move(model);
    return loaded;
  };
}

}  // namespace runtime

StatusOr<std::unique_ptr<OfflineModel>> OfflineModel::LoadFromFile(const std::string& path,
                                                                   const OfflineModelOptions& options) {
  return runtime::OfflineModelAccess::Load(runtime::ModelSource::File(path), options, runtime::SinkModelLoader());
}

StatusOr<std::unique_ptr<OfflineModel>> OfflineModel::LoadFromMemory(const void* data, size_t size,
                                                                     const OfflineModelOptions& options) {
  GE_ASSIGN_OR_RETURN(runtime::ModelSource source, runtime::OfflineModelAccess::MemorySource(data, size, options));
  return runtime::OfflineModelAccess::Load(std::move(source), options, runtime::SinkModelLoader());
}

}  // namespace ge
