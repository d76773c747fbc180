// ge options: ge's table of ge.* options (include/ge/options.h), for people or as JSON.
#include <cstdio>

#include "commands.h"
#include "flags.h"
#include "ge/options.h"

namespace ge::cli {

const CommandSpec& OptionsCommandSpec() {
  static const CommandSpec spec = {
      "options",
      "",
      "list the ge.* options --option, sessions and single ops take: values, default, who reads them, effect",
      {{"json", "",
        "print the table as a JSON array (name, type, values, default, read_by, effect_on_cpu, "
        "description)"}}};
  return spec;
}

int OptionsCommand(int argc, char** argv) {
  auto flags = ParseFlags(argc, argv, 2, OptionsCommandSpec());
  if (!flags.ok()) {
    std::fprintf(stderr, "ge options: %s\n", flags.status().ToString().c_str());
    return 2;
  }
  if (!flags->positional.empty()) {
    std::fprintf(stderr, "ge options: takes no arguments, got '%s'\n", flags->positional[0].c_str());
    return 2;
  }
  const std::string text = FormatOptions(flags->GetBool("json"));
  std::fputs(text.c_str(), stdout);
  return 0;
}

}  // namespace ge::cli
