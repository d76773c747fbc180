// include/ge/options.h on the one option table (base/option_table.def).
#include "ge/options.h"

#include <utility>

#include "base/option_table.h"

namespace ge {
namespace {

uint32_t ReadersOf(OptionScope scope) {
  switch (scope) {
    case OptionScope::kInit:
      return kReaderInit;
    case OptionScope::kSession:
      return kReaderSession | kReaderCompiler | kReaderRuntimeV2;
    case OptionScope::kCompile:
      return kReaderCompiler;
    case OptionScope::kModelLoad:
      return kReaderRuntimeV2;
    case OptionScope::kSingleOp:
      return kReaderSingleOp;
  }
  return 0;
}

// The readers' names as `ge options --json` gives them.
std::vector<std::string> ReaderKeys(uint32_t readers) {
  static const std::pair<uint32_t, const char*> kKeys[] = {{kReaderInit, "init"},
                                                           {kReaderSession, "session"},
                                                           {kReaderCompiler, "compiler"},
                                                           {kReaderRuntimeV2, "runtime_v2"},
                                                           {kReaderSingleOp, "single_op"}};
  std::vector<std::string> out;
  for (const auto& [bit, key] : kKeys) {
    if ((readers & bit) != 0) out.push_back(key);
  }
  return out;
}

}  // namespace

std::vector<OptionDescription> ListOptions() {
  std::vector<OptionDescription> out;
  for (const OptionInfo& info : AllOptions()) {
    OptionDescription d;
    d.name = info.name;
    d.type = OptionTypeName(info.type);
    d.values = info.values;
    d.default_value = info.default_value;
    d.read_by = ReaderKeys(info.readers);
    d.effect_on_cpu = info.effect_on_cpu;
    d.description = info.description;
    out.push_back(std::move(d));
  }
  return out;
}

std::string FormatOptions(bool json) { return json ? OptionTableJson() : FormatOptionTable(); }

Status CheckOptions(const std::map<std::string, std::string>& options, OptionScope scope, const std::string& where) {
  const uint32_t readers = ReadersOf(scope);
  if (readers == 0) return InvalidArgument("CheckOptions: not an OptionScope value");
  return CheckOptionsAgainstTable(options, readers, where);
}

}  // namespace ge
