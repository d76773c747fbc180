// The `ge` command line (DESIGN.md §9).
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "base/edit_distance.h"
#include "commands.h"
#include "flags.h"

namespace {

struct Command {
  const ge::cli::CommandSpec& (*spec)();
  int (*run)(int argc, char** argv);
};

// In the order `ge --help` lists them.
const Command kCommands[] = {
    {ge::cli::CompileCommandSpec, ge::cli::CompileCommand}, {ge::cli::RunCommandSpec, ge::cli::RunCommand},
    {ge::cli::InspectCommandSpec, ge::cli::InspectCommand}, {ge::cli::RunOpCommandSpec, ge::cli::RunOpCommand},
    {ge::cli::TrainCommandSpec, ge::cli::TrainCommand},     {ge::cli::TestOnnxCommandSpec, ge::cli::TestOnnxCommand},
    {ge::cli::OptionsCommandSpec, ge::cli::OptionsCommand},
};

bool IsHelp(const char* arg) { return !std::strcmp(arg, "--help") || !std::strcmp(arg, "-h"); }

// full: every command's flags (ge --help); otherwise a line per command (a mistyped or missing command).
void Usage(FILE* out, bool full) {
  std::fprintf(out, "usage: ge <command> [flags]   (ge <command> --help: that command's flags)\n");
  for (const Command& c : kCommands) {
    if (full) {
      std::fprintf(out, "\n%s", ge::cli::CommandHelp(c.spec()).c_str());
    } else {
      std::fprintf(out, "  ge %-10s %s\n", c.spec().name, c.spec().summary);
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || IsHelp(argv[1])) {
    Usage(argc < 2 ? stderr : stdout, argc >= 2);
    return argc < 2 ? 2 : 0;
  }
  const std::string name = argv[1];
  for (const Command& c : kCommands) {
    if (name != c.spec().name) continue;
    for (int i = 2; i < argc; ++i) {
      if (IsHelp(argv[i])) {
        std::fputs(ge::cli::CommandHelp(c.spec()).c_str(), stdout);
        return 0;
      }
    }
    return c.run(argc, argv);
  }
  std::vector<std::string> names;
  for (const Command& c : kCommands) names.push_back(c.spec().name);
  const std::string closest = ge::ClosestName(name, names);
  std::fprintf(stderr, "ge: unknown command '%s'%s\n", name.c_str(),
               closest.empty() ? "" : ("; did you mean '" + closest + "'?").c_str());
  Usage(stderr, false);
  return 2;
}
