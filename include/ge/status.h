// Public status types: ge::Status, ge::StatusOr<T>, ge::StatusCode and the ge::InvalidArgument(...)-style
// constructors. Every fallible public call returns one of them; no exceptions cross the API. Self-contained: the
// library's own code uses these same types (src/base/status.h adds the internal helper macros).
//
// Code mapping for users coming from GE/ACL and gRPC-style APIs:
//   kTimeout           - a deadline was exceeded (a run longer than its timeout; the model was aborted)
//   kAborted           - stopped on request, or cancelled (a queued request whose model was unloaded)
//   kResourceExhausted - a queue or memory limit was reached (e.g. ExecuteAsync with a full queue)
#pragma once
#include "ge/api.h"
#include <string>
#include <utility>
#include <variant>

namespace ge {

enum class StatusCode {
  kOk = 0,
  kInvalidArgument,    // caller passed something malformed (bad model, bad shape, bad attr)
  kNotFound,           // a named thing (file, op, value) does not exist
  kUnimplemented,      // valid input that ge does not support yet
  kOutOfRange,         // an index or size outside the allowed range
  kResourceExhausted,  // memory or another limit would be exceeded
  kFailedPrecondition, // call order or state is wrong
  kDataLoss,           // a file is truncated or corrupt
  kTimeout,            // an operation ran past its deadline
  kAborted,            // an operation was stopped on request
  kInternal,           // a bug in ge
};

GE_API const char* StatusCodeName(StatusCode code);

class [[nodiscard]] GE_API Status {
 public:
  Status() = default;
  Status(StatusCode code, std::string message) : code_(code), message_(std::move(message)) {}
  static Status Ok() { return Status(); }

  bool ok() const { return code_ == StatusCode::kOk; }
  StatusCode code() const { return code_; }
  const std::string& message() const { return message_; }
  std::string ToString() const;
  // Returns a copy whose message is "context: message".
  Status WithContext(const std::string& context) const;
  void IgnoreError() const {}

 private:
  StatusCode code_ = StatusCode::kOk;
  std::string message_;
};

GE_API Status InvalidArgument(std::string msg);
GE_API Status NotFound(std::string msg);
GE_API Status Unimplemented(std::string msg);
GE_API Status OutOfRange(std::string msg);
GE_API Status ResourceExhausted(std::string msg);
GE_API Status FailedPrecondition(std::string msg);
GE_API Status DataLoss(std::string msg);
GE_API Status Timeout(std::string msg);
GE_API Status Aborted(std::string msg);
GE_API Status Internal(std::string msg);

template <typename T>
class [[nodiscard]] StatusOr {
 public:
  StatusOr(Status status) : v_(std::move(status)) {}  // NOLINT: implicit by design
  StatusOr(T value) : v_(std::move(value)) {}         // NOLINT: implicit by design
  bool ok() const { return std::holds_alternative<T>(v_); }
  const Status& status() const {
    static const Status kOkStatus;
    return ok() ? kOkStatus : std::get<Status>(v_);
  }
  T& value() & { return std::get<T>(v_); }
  const T& value() const& { return std::get<T>(v_); }
  T&& value() && { return std::get<T>(std::move(v_)); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

 private:
  std::variant<Status, T> v_;
};

}  // namespace ge
