// GE's stream calls on ge's CPU device (include/ge/session.h: CreateStream, DestroyStream, SynchronizeStream):
// each handle is an rt::Stream of the process's device, registered in the process runtime (ge_runtime.h).
#include <memory>
#include <string>
#include <thread>

#include "ge/session.h"
#include "session/ge_runtime.h"

namespace ge {
namespace session {

StatusOr<std::shared_ptr<PublicStream>> LookUpStream(void* handle, const char* call) {
  if (handle == nullptr) return InvalidArgument(std::string(call) + ": the stream is null");
  GeRuntime& rt = ProcessRuntime();
  std::lock_guard<std::mutex> lk(rt.mu);
  auto it = rt.streams.find(handle);
  if (it == rt.streams.end()) {
    return InvalidArgument(std::string(call) + ": not a stream CreateStream made (or it was destroyed)");
  }
  return it->second;
}

}  // namespace session

Status CreateStream(void** stream) {
  if (stream == nullptr) return InvalidArgument("CreateStream: null output pointer");
  session::GeRuntime& rt = session::ProcessRuntime();
  std::lock_guard<std::mutex> lk(rt.mu);
  if (rt.context == nullptr) return FailedPrecondition("CreateStream: call ge::GEInitialize first");
  auto s = std::make_shared<session::PublicStream>();
  s->context = rt.context;
  GE_ASSIGN_OR_RETURN(s->stream, rt.context->device().CreateStream());
  *stream = s.get();
  rt.streams.emplace(s.get(), std::move(s));
  return Status::Ok();
}

Status DestroyStream(void* stream) {
  GE_ASSIGN_OR_RETURN(std::shared_ptr<session::PublicStream> s, session::LookUpStream(stream, "DestroyStream"));
  {
    session::GeRuntime& rt = session::ProcessRuntime();
    std::lock_guard<std::mutex> lk(rt.mu);
    rt.streams.erase(stream);  // new calls with the handle are refused from here on
  }
  // A call that looked the handle up before it was erased may still be enqueueing: wait until it let go, so that
  // everything it enqueued runs before the stream goes (destroying a stream discards tasks not yet started).
  s->stream->Synchronize().IgnoreError();  // its runs' errors die with it
  while (s.use_count() > 1) {
    std::this_thread::yield();
    s->stream->Synchronize().IgnoreError();
  }
  s->stream->ResetError();
  return Status::Ok();
}

Status SynchronizeStream(void* stream) {
  GE_ASSIGN_OR_RETURN(std::shared_ptr<session::PublicStream> s, session::LookUpStream(stream, "SynchronizeStream"));
  Status st = s->stream->Synchronize();
  if (!st.ok()) s->stream->ResetError();
  return st;
}

}  // namespace ge
