// Public status types: ge::Status, ge::StatusOr<T>, ge::StatusCode and the ge::InvalidArgument(...)-style
// constructors. Every fallible public call returns one of them; no exceptions cross the API.
//
// Debt: this re-exports the internal src/base/status.h (the public headers currently need src/ on the include
// path). It should become a self-contained copy once the public API is packaged on its own.
//
// Code mapping for users coming from GE/ACL and gRPC-style APIs:
//   kTimeout           - a deadline was exceeded (a run longer than its timeout; the model was aborted)
//   kAborted           - stopped on request, or cancelled (a queued request whose model was unloaded)
//   kResourceExhausted - a queue or memory limit was reached (e.g. ExecuteAsync with a full queue)
#pragma once
#include "base/status.h"  // IWYU pragma: export
