// The Chrome / Perfetto trace-event JSON form of a TraceRecorder (the "JSON Array Format" object form):
//   {"traceEvents":[
//     {"name":"process_name","ph":"M","pid":1,"tid":0,"ts":0,"args":{"name":"ge run m.om"}},
//     {"name":"thread_name","ph":"M","pid":1,"tid":100,"ts":0,"args":{"name":"stream 0"}},
//     {"name":"conv1","cat":"kernel","ph":"X","pid":1,"tid":100,"ts":12.345,"dur":3.5,"args":{"op":"Conv",...}},
//     ...],
//    "displayTimeUnit":"ms","otherData":{"dropped_slices":0}}
// ts and dur are microseconds (three decimals); one tid per track; "X" events sorted by track, then start, the
// enclosing slice first (so nested load phases nest). Loads in chrome://tracing and ui.perfetto.dev.
#pragma once
#include <string>

#include "base/status.h"
#include "base/trace_recorder.h"

namespace ge::trace {

std::string TraceToJson(const TraceRecorder& recorder);
// Writes TraceToJson to |path|; an error names the path.
Status WriteTraceFile(const TraceRecorder& recorder, const std::string& path);
// |s| as a JSON string literal, quotes included (for building TraceLabel::args_json).
std::string JsonQuote(const std::string& s);

}  // namespace ge::trace
