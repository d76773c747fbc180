#include "runtime/runtime_context.h"

#include <utility>

namespace ge::runtime {

StatusOr<std::unique_ptr<RuntimeContext>> RuntimeContext::Create(RuntimeContextOptions options) {
  if (!options.loader) {
    return InvalidArgument("RuntimeContextOptions.loader is empty (use OmModelLoader() for .om models)");
  }
  std::unique_ptr<RuntimeContext> ctx(new RuntimeContext());
  GE_ASSIGN_OR_RETURN(ctx->device_, options.create_device ? options.create_device(options.device) : rt::CreateDefaultDevice(options.device));
  ctx->models_ = std::make_unique<ModelManager>(ctx->device_.get(), std::move(options.loader));
  return ctx;
}

}  // namespace ge::runtime
