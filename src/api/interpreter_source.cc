// ge::LoadOnInterpreter (include/ge/compile.h): a model source parsed, not compiled, and run by the runtime's
// InterpreterModel behind the offline-model API.
#include <memory>
#include <utility>

#include "api/source_parser.h"
#include "ge/compile.h"
#include "runtime/interpreter_model.h"
#include "runtime/offline_model_internal.h"

namespace ge {

StatusOr<std::unique_ptr<OfflineModel>> LoadOnInterpreter(const CompileSource& source,
                                                          const OfflineModelOptions& options) {
  if (options.trace) {
    return FailedPrecondition(
        "the reference interpreter records no timeline (trace): compile the model and load the .om");
  }
  GE_ASSIGN_OR_RETURN(std::unique_ptr<ir::Model> parsed, ParseSource(source));
  // The loader is a copyable std::function: it holds the parsed model until the one load takes it.
  auto model = std::make_shared<std::unique_ptr<ir::Model>>(std::move(parsed));
  runtime::ModelLoader loader = [model](const runtime::ModelSource&, const runtime::ModelLoadOptions& load,
                                        rt::Device&) -> StatusOr<runtime::LoadedModel> {
    if (*model == nullptr) return FailedPrecondition("LoadOnInterpreter: the parsed model was already loaded");
    runtime::LoadedModel loaded;
    GE_ASSIGN_OR_RETURN(loaded.model, runtime::InterpreterModel::FromModel(std::move(*model), load.seed));
    return loaded;
  };
  const std::string where = source.path.empty() ? "model bytes" : source.path;
  OfflineModelOptions interpreted = options;
  interpreted.interpreter = true;
  return runtime::OfflineModelAccess::Load(runtime::ModelSource::File(where), interpreted, std::move(loader));
}

}  // namespace ge
