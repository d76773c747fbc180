// The label of a kernel's slice in a `--trace` timeline (base/trace_recorder.h): the node's name, and as args its
// op type, engine, kernel implementation (the name `ge run --profile` prints), input and output descs and the bytes
// they occupy. Shared by runtime v1 (one label per kernel task) and runtime v2 (one per Main-graph kernel).
#pragma once
#include <string>

#include "base/trace_recorder.h"
#include "ir/graph.h"

namespace ge::runtime {

// |where|: extra JSON members ("\"stream\":0"), or empty.
trace::TraceLabel KernelTraceLabel(const ir::Node& node, const std::string& impl, const std::string& where = "");

}  // namespace ge::runtime
