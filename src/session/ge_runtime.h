// The process-wide runtime behind GEInitialize / GEFinalize (GE's contract makes it process state): one
// RuntimeContext (device, thread pools, the sessions' VarManagerPool), the count of open sessions and the streams
// CreateStream handed out (public_stream.h).
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>

#include "rt/stream.h"
#include "runtime/runtime_context.h"

namespace ge::session {

// What a CreateStream handle stands for: a stream of the process's device, and the context that owns the device
// (kept alive while the stream is).
struct PublicStream {
  std::shared_ptr<runtime::RuntimeContext> context;
  std::unique_ptr<rt::Stream> stream;
};

struct GeRuntime {
  std::mutex mu;
  std::shared_ptr<runtime::RuntimeContext> context;  // guarded by mu; null outside GEInitialize..GEFinalize
  int open_sessions = 0;                             // guarded by mu
  uint64_t next_session_id = 1;                      // guarded by mu
  // Live CreateStream handles (the handle is the PublicStream's address): a stale or foreign pointer is looked up,
  // never dereferenced.
  std::map<const void*, std::shared_ptr<PublicStream>> streams;  // guarded by mu
};

GeRuntime& ProcessRuntime();

// The stream behind a CreateStream handle (shared: it stays alive while the caller holds it), or InvalidArgument
// naming `call`.
StatusOr<std::shared_ptr<PublicStream>> LookUpStream(void* handle, const char* call);

}  // namespace ge::session
