#include "flags.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>

#include "base/edit_distance.h"

namespace ge::cli {

std::string Flags::Get(const std::string& name, const std::string& def) const {
  auto it = values.find(name);
  return it == values.end() ? def : it->second.back();
}

const std::vector<std::string>& Flags::GetAll(const std::string& name) const {
  static const std::vector<std::string> kEmpty;
  auto it = values.find(name);
  return it == values.end() ? kEmpty : it->second;
}

StatusOr<int64_t> Flags::GetInt(const std::string& name, int64_t def, int64_t min, int64_t max) const {
  if (!Has(name)) return def;
  std::string v = Get(name);
  char* end = nullptr;
  errno = 0;
  long long x = std::strtoll(v.c_str(), &end, 10);
  const bool digits_only = !v.empty() && (std::isdigit(static_cast<unsigned char>(v[0])) || v[0] == '-');
  if (!digits_only || *end != '\0') return InvalidArgument("--" + name + "=" + v + " is not an integer");
  if (errno == ERANGE || x < min || x > max) {  // ERANGE: beyond int64, where strtoll saturates
    return InvalidArgument("--" + name + "=" + v + " is out of range [" + std::to_string(min) + ", " +
                           std::to_string(max) + "]");
  }
  return static_cast<int64_t>(x);
}

bool Flags::GetBool(const std::string& name) const {
  if (!Has(name)) return false;
  std::string v = Get(name);
  return v == "1" || v == "true" || v == "yes";
}

StatusOr<Flags> ParseFlags(int argc, char** argv, int first, const CommandSpec& command) {
  Flags f;
  for (int i = first; i < argc; ++i) {
    std::string a = argv[i];
    if (a.rfind("--", 0) != 0) {
      f.positional.push_back(a);
      continue;
    }
    size_t eq = a.find('=');
    std::string name = a.substr(2, eq == std::string::npos ? std::string::npos : eq - 2);
    std::string value = eq == std::string::npos ? "1" : a.substr(eq + 1);
    const auto declared = std::find_if(command.flags.begin(), command.flags.end(),
                                       [&](const FlagSpec& spec) { return name == spec.name; });
    if (declared == command.flags.end()) {
      std::vector<std::string> names;
      for (const FlagSpec& spec : command.flags) names.push_back(spec.name);
      const std::string closest = ClosestName(name, names);
      return InvalidArgument("unknown flag --" + name + " for ge " + command.name +
                             (closest.empty() ? "" : "; did you mean --" + closest + "?") + " (ge " + command.name +
                             " --help lists its flags)");
    }
    f.values[name].push_back(value);
  }
  return f;
}

std::string CommandHelp(const CommandSpec& command) {
  std::string out = std::string("usage: ge ") + command.name;
  if (*command.synopsis != '\0') out += std::string(" ") + command.synopsis;
  if (!command.flags.empty()) out += " [flags]";
  out += std::string("\n  ") + command.summary + "\n";
  // A flag whose value pattern is long gets its description on the next line.
  constexpr size_t kMaxColumn = 30;
  std::vector<std::string> left;
  size_t width = 0;
  for (const FlagSpec& spec : command.flags) {
    left.push_back(std::string("--") + spec.name + (*spec.value != '\0' ? std::string("=") + spec.value : ""));
    if (left.back().size() <= kMaxColumn) width = std::max(width, left.back().size());
  }
  for (size_t i = 0; i < left.size(); ++i) {
    const std::string pad =
        left[i].size() <= width ? std::string(width - left[i].size() + 2, ' ') : "\n" + std::string(width + 4, ' ');
    out += "  " + left[i] + pad + command.flags[i].help + "\n";
  }
  return out;
}

StatusOr<std::map<std::string, std::string>> OptionPairsFromFlags(const Flags& flags) {
  std::map<std::string, std::string> options;
  for (const std::string& kv : flags.GetAll("option")) {
    const size_t eq = kv.find('=');
    if (eq == std::string::npos || eq == 0) return InvalidArgument("--option wants KEY=VALUE, got '" + kv + "'");
    options[kv.substr(0, eq)] = kv.substr(eq + 1);
  }
  return options;
}

}  // namespace ge::cli
