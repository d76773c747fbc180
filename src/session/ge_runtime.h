// The process-wide runtime behind GEInitialize / GEFinalize (GE's contract makes it process state): one
// RuntimeContext (device, thread pools, the sessions' VarManagerPool) and the count of open sessions.
#pragma once
#include <cstdint>
#include <memory>
#include <mutex>

#include "runtime/runtime_context.h"

namespace ge::session {

struct GeRuntime {
  std::mutex mu;
  std::shared_ptr<runtime::RuntimeContext> context;  // guarded by mu; null outside GEInitialize..GEFinalize
  int open_sessions = 0;                             // guarded by mu
  uint64_t next_session_id = 1;                      // guarded by mu
};

GeRuntime& ProcessRuntime();

}  // namespace ge::session
