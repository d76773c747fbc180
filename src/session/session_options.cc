#include "session/session_options.h"

#include "base/option_table.h"
#include "om/value_bins.h"

namespace ge::session {

Status CheckOptions(const Options& options, const std::string& where) {
  // A session compiles its graphs and runs them (dynamic ones on runtime v2), so it takes their options too.
  GE_RETURN_IF_ERROR(CheckOptionsAgainstTable(options, kReaderSession | kReaderCompiler | kReaderRuntimeV2, where));
  if (auto bins = options.find("ge.exec.value_bins"); bins != options.end()) {
    auto parsed = om::ParseValueBins(bins->second);
    if (!parsed.ok()) return parsed.status().WithContext(where);
  }
  return Status::Ok();
}

Options MergeOptions(const Options& session, const Options& graph) {
  Options merged = session;
  for (const auto& [k, v] : graph) merged[k] = v;
  return merged;
}

}  // namespace ge::session
