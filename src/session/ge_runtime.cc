#include "session/ge_runtime.h"

#include <string>

#include "ge/session.h"
#include "runtime/model_manager.h"
#include "session/session_options.h"
#include "base/option_table.h"

namespace ge {
namespace session {

GeRuntime& ProcessRuntime() {
  static GeRuntime* runtime = new GeRuntime();  // never destroyed: sessions may outlive static destruction order
  return *runtime;
}

namespace {

StatusOr<int> ParseCount(const Options& options, const std::string& key, int max) {
  auto it = options.find(key);
  if (it == options.end()) return 0;
  const std::string& v = it->second;
  const bool digits = !v.empty() && v.size() <= 6 && v.find_first_not_of("0123456789") == std::string::npos;
  if (!digits || std::stoi(v) > max) return InvalidArgument("GEInitialize option " + key + " must be 0.." +
                                                            std::to_string(max) + ", got '" + v + "'");
  return std::stoi(v);
}

}  // namespace
}  // namespace session

Status GEInitialize(const Options& options) {
  GE_RETURN_IF_ERROR(CheckOptionsAgainstTable(options, kReaderInit, "GEInitialize"));
  GE_ASSIGN_OR_RETURN(int device_id, session::ParseCount(options, "ge.exec.deviceId", 0));
  (void)device_id;  // one CPU device
  GE_ASSIGN_OR_RETURN(int threads, session::ParseCount(options, "ge.intraOpThreads", 4096));
  session::GeRuntime& rt = session::ProcessRuntime();
  std::lock_guard<std::mutex> lk(rt.mu);
  if (rt.context != nullptr) return Status::Ok();
  runtime::RuntimeContextOptions o;
  o.device.intra_op_threads = threads;
  o.loader = runtime::OmModelLoader();
  auto ctx = runtime::RuntimeContext::Create(std::move(o));
  if (!ctx.ok()) return ctx.status().WithContext("GEInitialize");
  rt.context = std::move(*ctx);
  return Status::Ok();
}

Status GEFinalize() {
  session::GeRuntime& rt = session::ProcessRuntime();
  std::lock_guard<std::mutex> lk(rt.mu);
  if (rt.open_sessions > 0) {
    return FailedPrecondition("GEFinalize: " + std::to_string(rt.open_sessions) + " session(s) still open");
  }
  rt.context.reset();
  return Status::Ok();
}

}  // namespace ge
