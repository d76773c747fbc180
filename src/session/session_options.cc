#include "session/session_options.h"

#include <algorithm>
#include <vector>

#include "om/value_bins.h"

namespace ge::session {
namespace {

struct OptionRule {
  const char* key;
  std::vector<const char*> values;  // empty: any value
};

// Keys GE users set (ge_facts.md §1), plus ge's own compiler switches.
const std::vector<OptionRule>& Rules() {
  static const std::vector<OptionRule> rules = {
      {"ge.graphRunMode", {"0", "1"}},
      {"ge.exec.variable_acc", {"0", "1"}},
      {"ge.externalWeight", {"0", "1", "2"}},
      {"ge.externalWeightDir", {}},
      {"ge.exec.value_bins", {}},
      {"ge.variableUse1gHugePage", {"0", "1", "2"}},
      {"ge.exec.staticMemoryPolicy", {"0", "1", "2", "3", "4"}},
      {"ge.featureBaseRefreshable", {"0", "1"}},
      {"ge.constLifecycle", {"session", "graph"}},
      {"ge.exec.precision_mode", {"fp32", "allow_bf16"}},
      {"ge.exec.disableReuseMemory", {"0", "1"}},
      {"ge.streamMaxParallelNum", {}},
      {"ge.AllowMultiGraphParallelCompile", {"0", "1"}},
      {"ge.sessionMemoryBudget", {}},
      {"ge.format.activation", {"NHWC", "NC1HWC0", "NCHW"}},
      {"ge.fusion", {"0", "1"}},
      {"ge.weights.prepack", {"0", "1"}},
  };
  return rules;
}

}  // namespace

Status CheckOptions(const Options& options, const std::string& where) {
  for (const auto& [key, value] : options) {
    if (key.rfind("ge.engine.", 0) == 0 && key.size() > 10) {
      if (value != "0" && value != "1") return InvalidArgument(where + " option " + key + " must be 0 or 1");
      continue;
    }
    auto rule = std::find_if(Rules().begin(), Rules().end(), [&](const OptionRule& r) { return key == r.key; });
    if (rule == Rules().end()) return InvalidArgument(where + " option '" + key + "' is not an option ge knows");
    if (key == "ge.exec.value_bins") {
      auto bins = om::ParseValueBins(value);
      if (!bins.ok()) return bins.status().WithContext(where);
      continue;
    }
    if (rule->values.empty()) continue;
    if (std::none_of(rule->values.begin(), rule->values.end(), [&](const char* v) { return value == v; })) {
      std::string allowed;
      for (const char* v : rule->values) allowed += (allowed.empty() ? "" : "|") + std::string(v);
      return InvalidArgument(where + " option " + key + " must be " + allowed + ", got '" + value + "'");
    }
  }
  return Status::Ok();
}

Options MergeOptions(const Options& session, const Options& graph) {
  Options merged = session;
  for (const auto& [k, v] : graph) merged[k] = v;
  return merged;
}

}  // namespace ge::session
