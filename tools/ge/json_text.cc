#include "json_text.h"

#include <cstdio>

namespace ge::cli {

std::string JsonEscape(const std::string& s) {
  std::string o;
  for (char c : s) {
    if (c == '"' || c == '\\') {
      o += '\\';
      o += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      o += buf;
    } else {
      o += c;
    }
  }
  return o;
}

std::string CountsJson(const std::map<std::string, int>& counts) {
  std::string o = "{";
  for (const auto& [name, n] : counts)
    o += (o.size() > 1 ? "," : "") + ("\"" + JsonEscape(name) + "\":") + std::to_string(n);
  return o + "}";
}

}  // namespace ge::cli
