// Status / StatusOr: the error type of every fallible call in ge. No exceptions cross module boundaries.
#pragma once
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

const char* StatusCodeName(StatusCode code);

class [[nodiscard]] Status {
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

Status InvalidArgument(std::string msg);
Status NotFound(std::string msg);
Status Unimplemented(std::string msg);
Status OutOfRange(std::string msg);
Status ResourceExhausted(std::string msg);
Status FailedPrecondition(std::string msg);
Status DataLoss(std::string msg);
Status Timeout(std::string msg);
Status Aborted(std::string msg);
Status Internal(std::string msg);

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

#define GE_CONCAT_INNER(a, b) a##b
#define GE_CONCAT(a, b) GE_CONCAT_INNER(a, b)

#define GE_RETURN_IF_ERROR(expr)            \
  do {                                      \
    ::ge::Status ge_status_ = (expr);       \
    if (!ge_status_.ok()) return ge_status_; \
  } while (0)

#define GE_ASSIGN_OR_RETURN_IMPL(tmp, lhs, expr) \
  auto tmp = (expr);                             \
  if (!tmp.ok()) return tmp.status();            \
  lhs = std::move(tmp).value()

// Expands to several statements: wrap it in braces under an if/else.
#define GE_ASSIGN_OR_RETURN(lhs, expr) GE_ASSIGN_OR_RETURN_IMPL(GE_CONCAT(ge_statusor_, __LINE__), lhs, expr)

// Returns InvalidArgument with the streamed message when cond is false.
#define GE_CHECK_ARG(cond, msg)                                  \
  do {                                                           \
    if (!(cond)) return ::ge::InvalidArgument(std::string() + msg); \
  } while (0)
