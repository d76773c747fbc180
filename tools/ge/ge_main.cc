// `ge` (DESIGN.md §9), linked to libge.so alone: the commands built on the public API (include/ge) run here;
// the developer tools (inspect, test-onnx, compile --dump_graph/--trace) and `ge --help` run in ge-dev (dev_forward.h),
// so that `ge CMD` works the same for every command.
#include <cstdio>
#include <cstring>
#include <string>

#include "commands.h"
#include "dev_forward.h"
#include "flags.h"

namespace {

struct Command {
  const ge::cli::CommandSpec& (*spec)();
  int (*run)(int argc, char** argv);
};

// The commands on the public API alone.
const Command kPublicCommands[] = {
    {ge::cli::CompileCommandSpec, ge::cli::CompileCommand}, {ge::cli::RunCommandSpec, ge::cli::RunCommand},
    {ge::cli::RunOpCommandSpec, ge::cli::RunOpCommand},     {ge::cli::TrainCommandSpec, ge::cli::TrainCommand},
    {ge::cli::OptionsCommandSpec, ge::cli::OptionsCommand},
};

bool IsHelp(const char* arg) { return !std::strcmp(arg, "--help") || !std::strcmp(arg, "-h"); }

}  // namespace

int main(int argc, char** argv) {
  if (argc >= 2) {
    const std::string name = argv[1];
    for (const Command& c : kPublicCommands) {
      if (name != c.spec().name) continue;
      for (int i = 2; i < argc; ++i) {
        if (IsHelp(argv[i])) {
          std::fputs(ge::cli::CommandHelp(c.spec()).c_str(), stdout);
          return 0;
        }
      }
      return c.run(argc, argv);
    }
  }
  return ge::cli::RunDevBinary(argc, argv);
}
