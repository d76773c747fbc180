// ge's Status as Python exceptions: ge.Error (a RuntimeError) and one subclass per StatusCode, carrying ge's
// message. InvalidArgument and OutOfRange are also ValueErrors, NotFound a LookupError, Unimplemented a
// NotImplementedError, so that generic handlers catch them too.
#pragma once
#include <pybind11/pybind11.h>

#include <string>

#include "ge/status.h"

namespace ge::python {

// Creates the exception classes on the module (once, at import).
void RegisterErrors(pybind11::module_& m);

// Raises the exception of status.code() with status.ToString() (a pybind11 error_already_set); no-op when ok.
void ThrowIfError(const Status& status);
// Raises ge.InvalidArgument with message.
[[noreturn]] void ThrowInvalidArgument(const std::string& message);

template <typename T>
T ValueOrThrow(StatusOr<T>&& v) {
  ThrowIfError(v.status());
  return std::move(v).value();
}

}  // namespace ge::python
