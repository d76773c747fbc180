#include "base/status.h"

namespace ge {

const char* StatusCodeName(StatusCode code) {
  switch (code) {
    case StatusCode::kOk: return "OK";
    case StatusCode::kInvalidArgument: return "INVALID_ARGUMENT";
    case StatusCode::kNotFound: return "NOT_FOUND";
    case StatusCode::kUnimplemented: return "UNIMPLEMENTED";
    case StatusCode::kOutOfRange: return "OUT_OF_RANGE";
    case StatusCode::kResourceExhausted: return "RESOURCE_EXHAUSTED";
    case StatusCode::kFailedPrecondition: return "FAILED_PRECONDITION";
    case StatusCode::kDataLoss: return "DATA_LOSS";
    case StatusCode::kTimeout: return "TIMEOUT";
    case StatusCode::kAborted: return "ABORTED";
    case StatusCode::kInternal: return "INTERNAL";
  }
  return "UNKNOWN";
}

std::string Status::ToString() const {
  if (ok()) return "OK";
  return std::string(StatusCodeName(code_)) + ": " + message_;
}

Status Status::WithContext(const std::string& context) const {
  if (ok()) return *this;
  return Status(code_, context + ": " + message_);
}

Status InvalidArgument(std::string msg) { return Status(StatusCode::kInvalidArgument, std::move(msg)); }
Status NotFound(std::string msg) { return Status(StatusCode::kNotFound, std::move(msg)); }
Status Unimplemented(std::string msg) { return Status(StatusCode::kUnimplemented, std::move(msg)); }
Status OutOfRange(std::string msg) { return Status(StatusCode::kOutOfRange, std::move(msg)); }
Status ResourceExhausted(std::string msg) { return Status(StatusCode::kResourceExhausted, std::move(msg)); }
Status FailedPrecondition(std::string msg) { return Status(StatusCode::kFailedPrecondition, std::move(msg)); }
Status DataLoss(std::string msg) { return Status(StatusCode::kDataLoss, std::move(msg)); }
Status Timeout(std::string msg) { return Status(StatusCode::kTimeout, std::move(msg)); }
Status Aborted(std::string msg) { return Status(StatusCode::kAborted, std::move(msg)); }
Status Internal(std::string msg) { return Status(StatusCode::kInternal, std::move(msg)); }

}  // namespace ge
