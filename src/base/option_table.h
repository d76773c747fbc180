// The one table of ge.* options (option_table.def): each key's type, allowed values, default, the components that
// read it, and whether it changes anything on the CPU device. GEInitialize, sessions, single ops and the ge command
// line validate what they are given here, so a misspelled key is an error naming the key meant, wherever it is given.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"

namespace ge {

enum class OptionType { kBool, kEnum, kInt, kString, kPath, kJson };

// Components that read options; a bit set says who listens to a key, or who listens where options are given.
enum OptionReader : uint32_t {
  kReaderInit = 1u << 0,       // GEInitialize (the process's runtime context)
  kReaderSession = 1u << 1,    // Session and its VarManager
  kReaderCompiler = 1u << 2,   // compiler passes and planning (ge compile, session graphs)
  kReaderRuntimeV2 = 1u << 3,  // ModelV2 when a model loads (ge run, session graphs with dynamic shapes)
  kReaderSingleOp = 1u << 4,   // SingleOp / DynamicSingleOp (ge run-op)
};

struct OptionInfo {
  const char* name;  // a family ends in ".<name>": ge.engine.<name>
  OptionType type;
  const char* values;         // kBool/kEnum: "a|b"; kInt: "MIN..MAX"; otherwise ""
  const char* default_value;  // "" where no single value says it (the description does)
  uint32_t readers;           // OptionReader bits
  bool effect_on_cpu;         // false: accepted for GE compatibility, changes nothing on this device
  const char* description;
};

// Every option, in table order.
const std::vector<OptionInfo>& AllOptions();

// The row of `key` (a family's row for ge.engine.dnnl), or nullptr.
const OptionInfo* FindOption(std::string_view key);

// InvalidArgument unless `value` is one `info` allows; the message names the key and the allowed values.
Status CheckOptionValue(const OptionInfo& info, std::string_view key, std::string_view value);

// InvalidArgument naming the first key that is unknown (with the closest known key, if one is near), read by
// none of `accepted` readers, or has a bad value. `where` prefixes the message as "where: " ("session", "graph 3"; "":
// nothing).
Status CheckOptionsAgainstTable(const std::map<std::string, std::string>& options, uint32_t accepted,
                                const std::string& where);

// "compiler", "runtime v2", ...: the names of the reader bits in `readers`, joined by ", ".
std::string ReaderNames(uint32_t readers);
const char* OptionTypeName(OptionType type);

// The table for people (one block per option) and as JSON (an array of objects, one per option).
std::string FormatOptionTable();
std::string OptionTableJson();

}  // namespace ge
