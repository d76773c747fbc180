#include "base/trace_json.h"

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <tuple>

namespace ge::trace {

namespace {

constexpr int kPid = 1;

// Nanoseconds as microseconds with three decimals ("12.345"); negative clamped to 0.
std::string Micros(int64_t ns) {
  if (ns < 0) ns = 0;
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%" PRId64 ".%03" PRId64, ns / 1000, ns % 1000);
  return buf;
}

void AppendMetadata(std::string* o, const char* name, int tid, const std::string& args) {
  *o += "{\"name\":\"";
  *o += name;
  *o += "\",\"ph\":\"M\",\"pid\":" + std::to_string(kPid) + ",\"tid\":" + std::to_string(tid) +
        ",\"ts\":0,\"args\":" + args + "},\n";
}

}  // namespace

std::string JsonQuote(const std::string& s) {
  std::string o = "\"";
  for (unsigned char c : s) {
    switch (c) {
      case '"':
        o += "\\\"";
        break;
      case '\\':
        o += "\\\\";
        break;
      case '\n':
        o += "\\n";
        break;
      case '\r':
        o += "\\r";
        break;
      case '\t':
        o += "\\t";
        break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof(buf), "\\u%04x", c);
          o += buf;
        } else {
          o += static_cast<char>(c);
        }
    }
  }
  return o + "\"";
}

std::string TraceToJson(const TraceRecorder& recorder) {
  std::vector<TraceSlice> slices = recorder.Snapshot();
  std::stable_sort(slices.begin(), slices.end(), [](const TraceSlice& a, const TraceSlice& b) {
    return std::make_tuple(a.track, a.start_ns, -a.duration_ns) < std::make_tuple(b.track, b.start_ns, -b.duration_ns);
  });
  std::map<int, std::string> tracks = recorder.track_names();
  for (const TraceSlice& s : slices) tracks.emplace(s.track, "track " + std::to_string(s.track));
  std::string o = "{\"traceEvents\":[\n";
  AppendMetadata(&o, "process_name", 0, "{\"name\":" + JsonQuote(recorder.process_name()) + "}");
  for (const auto& [tid, name] : tracks) {
    AppendMetadata(&o, "thread_name", tid, "{\"name\":" + JsonQuote(name) + "}");
    AppendMetadata(&o, "thread_sort_index", tid, "{\"sort_index\":" + std::to_string(tid) + "}");
  }
  for (const TraceSlice& s : slices) {
    const std::string& name = s.label != nullptr ? s.label->name : s.name;
    const std::string& category = s.label != nullptr ? s.label->category : s.category;
    const std::string& args = s.label != nullptr ? s.label->args_json : s.args_json;
    o += "{\"name\":" + JsonQuote(name) + ",\"cat\":" + JsonQuote(category.empty() ? "ge" : category) +
         ",\"ph\":\"X\",\"pid\":" + std::to_string(kPid) + ",\"tid\":" + std::to_string(s.track) +
         ",\"ts\":" + Micros(s.start_ns) + ",\"dur\":" + Micros(s.duration_ns);
    if (!args.empty()) o += ",\"args\":" + args;
    o += "},\n";
  }
  o.resize(o.size() - 2);  // the last ",\n" (the process_name event is always there)
  o += "\n],\"displayTimeUnit\":\"ms\",\"otherData\":{\"dropped_slices\":" + std::to_string(recorder.dropped()) +
       ",\"capacity\":" + std::to_string(recorder.capacity()) + "}}\n";
  return o;
}

Status WriteTraceFile(const TraceRecorder& recorder, const std::string& path) {
  const std::string json = TraceToJson(recorder);
  FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr) return InvalidArgument("cannot write the trace to '" + path + "': " + std::strerror(errno));
  const bool ok = std::fwrite(json.data(), 1, json.size(), f) == json.size();
  if (std::fclose(f) != 0 || !ok) return Internal("writing the trace to '" + path + "' failed");
  return Status::Ok();
}

}  // namespace ge::trace
