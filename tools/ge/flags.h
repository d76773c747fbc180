// --name=value flag parsing for the ge command line (the standard library and include/ge only: linked into ge), and
// each command's declaration of the flags it takes: the parser refuses any other flag and `ge CMD --help` prints the
// same declaration, so the two cannot drift.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "ge/status.h"

namespace ge::cli {

struct FlagSpec {
  const char* name;   // without the dashes: "output_dir"
  const char* value;  // how its value is written ("N", "FILE.npy"); "" for a switch given as --name alone
  const char* help;   // one line
};

struct CommandSpec {
  const char* name;      // "compile": ge compile
  const char* synopsis;  // what follows the command besides the optional flags: "--model=M.onnx --output=M.om"
  const char* summary;   // one line
  std::vector<FlagSpec> flags;
};

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
// Fails on a flag `command` does not declare, naming the closest one it does.
StatusOr<Flags> ParseFlags(int argc, char** argv, int first, const CommandSpec& command);

// `ge NAME SYNOPSIS [flags]`, the summary, then one line per flag.
std::string CommandHelp(const CommandSpec& command);

// The --option=KEY=VALUE flags as a map, unchecked (the public API checks the keys it is given); a flag without
// '=' or with an empty key is refused.
StatusOr<std::map<std::string, std::string>> OptionPairsFromFlags(const Flags& flags);

}  // namespace ge::cli
