// Status / StatusOr (defined in the public include/ge/status.h): the error type of every fallible call in ge. No
// exceptions cross module boundaries. This header adds the internal macros.
#pragma once
#include <string>
#include <utility>

#include "ge/status.h"  // IWYU pragma: export



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
