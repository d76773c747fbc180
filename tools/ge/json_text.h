// JSON text for the CLI's --json output; the standard library only (linked into both ge and ge-dev).
#pragma once
#include <map>
#include <string>

namespace ge::cli {

// |s| escaped for a JSON string body (quotes, backslashes, control characters); no surrounding quotes.
std::string JsonEscape(const std::string& s);
// {"name":count,...} for a map of counts (kernel implementations, ops).
std::string CountsJson(const std::map<std::string, int>& counts);

}  // namespace ge::cli
