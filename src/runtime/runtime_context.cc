#include "runtime/runtime_context.h"

#include <utility>

namespace ge::runtime {

StatusOr<std::unique_ptr<RuntimeContext>> RuntimeContext::Create(RuntimeContextOptions options) {
  if (!options.loader) {
    return InvalidArgument("RuntimeContextOptions.loader is empty (use OmModelLoader() for .om models)");
  }
  std::unique_ptr<RuntimeContext> ctx(new RuntimeContext());
  auto device = options.create_device ? options.create_device(options.device) : rt::CreateDefaultDevice(options.device);
  if (!device.ok()) return device.status().WithContext("RuntimeContext: device");
  if (*device == nullptr) return InvalidArgument("RuntimeContextOptions.create_device returned no device");
  ctx->device_ = std::move(*device);
  ctx->variables_ = std::make_unique<var::VarManagerPool>(ctx->device_.get());
  ctx->models_ = std::make_unique<ModelManager>(ctx->device_.get(), std::move(options.loader));
  return ctx;
}

}  // namespace ge::runtime
