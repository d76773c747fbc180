// --option=KEY=VALUE flags checked against ge's option table (base/option_table.h): for the developer commands
// (ge-dev), which hand options to internal layers that do not check them themselves.
#pragma once
#include <cstdint>
#include <map>
#include <string>

#include "base/status.h"
#include "flags.h"

namespace ge::cli {

// The --option flags as a map, each key checked for a command whose options reach `readers` (OptionReader bits):
// unknown keys name the closest known one.
StatusOr<std::map<std::string, std::string>> GeOptionsFromFlags(const Flags& flags, uint32_t readers);

}  // namespace ge::cli
