#include "dev_forward.h"

#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "commands.h"

namespace ge::cli {

namespace {

// The folder of the running executable (/proc/self/exe), "" when unknown.
std::string ExecutableDir() {
  char path[PATH_MAX];
  const ssize_t n = ::readlink("/proc/self/exe", path, sizeof path - 1);
  if (n <= 0) return "";
  const std::string exe(path, static_cast<size_t>(n));
  const size_t slash = exe.rfind('/');
  return slash == std::string::npos ? "" : exe.substr(0, slash);
}

}  // namespace

int RunDevBinary(int argc, char** argv) {
  const std::string dir = ExecutableDir();
  const std::string dev = (dir.empty() ? "." : dir) + "/ge-dev";
  std::vector<char*> args(argv, argv + argc);
  args[0] = const_cast<char*>(dev.c_str());
  args.push_back(nullptr);
  ::execv(dev.c_str(), args.data());
  std::fprintf(stderr, "ge: cannot run the developer binary %s: %s\n", dev.c_str(), std::strerror(errno));
  return 127;
}

int CompileDevCommand(int argc, char** argv) { return RunDevBinary(argc, argv); }

}  // namespace ge::cli
