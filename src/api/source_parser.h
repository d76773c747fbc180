// A CompileSource (include/ge/compile.h) parsed into ge's IR: ONNX or IR text (.geir), from a file or bytes; the
// format from CompileSource::format or, for kAuto, the bytes and a .geir extension. What Compile and
// LoadOnInterpreter start from.
#pragma once
#include <memory>

#include "base/status.h"
#include "ge/compile.h"
#include "ir/graph.h"

namespace ge {

StatusOr<std::unique_ptr<ir::Model>> ParseSource(const CompileSource& source);

}  // namespace ge
