#include "flags.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>

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

StatusOr<Flags> ParseFlags(int argc, char** argv, int first, const std::vector<std::string>& known) {
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
    if (std::find(known.begin(), known.end(), name) == known.end()) {
      return InvalidArgument("unknown flag --" + name);
    }
    f.values[name].push_back(value);
  }
  return f;
}

}  // namespace ge::cli
