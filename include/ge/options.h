// GE's option keys (ge.exec.*, ge.engine.*, ...): the one table of every key ge reads, its type, allowed values,
// default, who reads it and whether it changes anything on the CPU device (`ge options` prints it), and the check
// every entry point applies to the options it is given. Self-contained header.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "ge/api.h"
#include "ge/status.h"

namespace ge {

// Where options are given, by who reads them there.
enum class OptionScope {
  kInit,       // GEInitialize
  kSession,    // Session / AddGraph (its VarManager, and the compiler and runtime v2 for its graphs)
  kCompile,    // Compile / CompileToFile (CompileOptions::options)
  kModelLoad,  // OfflineModel loads (OfflineModelOptions::runtime_options: runtime v2)
  kSingleOp,   // single ops (include/ge/single_op.h)
};

struct OptionDescription {
  std::string name;                  // a family ends in ".<name>": ge.engine.<name>
  std::string type;                  // "bool", "enum", "int", "string", "path", "json"
  std::string values;                // bool/enum: "a|b"; int: "MIN..MAX"; otherwise ""
  std::string default_value;         // "" where no single value says it (the description does)
  std::vector<std::string> read_by;  // "init", "session", "compiler", "runtime_v2", "single_op"
  bool effect_on_cpu = true;         // false: accepted for GE compatibility, changes nothing on this device
  std::string description;
};

// Every option, in table order.
GE_API std::vector<OptionDescription> ListOptions();
// The table as `ge options` prints it: one block per option for people, or (json) an array of objects with the
// fields above.
GE_API std::string FormatOptions(bool json);
// InvalidArgument naming the first key that is unknown (with the closest known key when one is near), not read
// where it is given (naming who reads it), or with a bad value; `where` prefixes the message ("--option", "session").
GE_API Status CheckOptions(const std::map<std::string, std::string>& options, OptionScope scope,
                           const std::string& where = "");

}  // namespace ge
