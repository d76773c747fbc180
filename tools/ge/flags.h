// Minimal --name=value flag parsing for the ge command line.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "base/status.h"

namespace ge::cli {

struct Flags {
  std::map<std::string, std::vector<std::string>> values;  // repeated flags keep every value
  std::vector<std::string> positional;

  bool Has(const std::string& name) const { return values.count(name) != 0; }
  std::string Get(const std::string& name, const std::string& def = "") const;
  const std::vector<std::string>& GetAll(const std::string& name) const;
  StatusOr<int64_t> GetInt(const std::string& name, int64_t def, int64_t min, int64_t max) const;
  bool GetBool(const std::string& name) const;  // --flag, --flag=1/true
};

// Parses argv[first..]. Flags are --name=value or --name (value "1"); everything else is positional.
// Fails on a flag not in `known`.
StatusOr<Flags> ParseFlags(int argc, char** argv, int first, const std::vector<std::string>& known);

}  // namespace ge::cli
