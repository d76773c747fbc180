#include "compiler/input_shape_spec.h"

#include <cerrno>
#include <cstdlib>
#include <sstream>

namespace ge::compiler {
namespace {

constexpr int64_t kMaxDim = int64_t{1} << 40;

bool ParseSize(const std::string& s, int64_t* out) {
  if (s.empty() || s[0] == '-' || s[0] == '+' || s[0] == ' ') return false;
  char* end = nullptr;
  errno = 0;
  const long long v = std::strtoll(s.c_str(), &end, 10);
  if (*end != '\0' || errno != 0 || v < 0 || v > kMaxDim) return false;
  *out = v;
  return true;
}

}  // namespace

StatusOr<InputShapeSpec> ParseInputShapeSpec(const std::string& spec) {
  InputShapeSpec out;
  std::stringstream all(spec);
  std::string item;
  while (std::getline(all, item, ';')) {
    if (item.empty()) continue;
    const size_t colon = item.rfind(':');
    if (colon == std::string::npos || colon == 0) {
      return InvalidArgument("--input_shape item '" + item + "' is not NAME:D1,D2,... (a dim may be a range LO~HI)");
    }
    const std::string name = item.substr(0, colon);
    if (out.shapes.count(name) != 0) return InvalidArgument("--input_shape names '" + name + "' twice");
    Dims dims;
    std::vector<DimRange> ranges;
    bool any_range = false;
    std::stringstream ds(item.substr(colon + 1));
    std::string d;
    while (std::getline(ds, d, ',')) {
      const size_t tilde = d.find('~');
      if (tilde == std::string::npos) {
        int64_t v = 0;
        if (!ParseSize(d, &v)) return InvalidArgument("--input_shape item '" + item + "': bad dim '" + d + "'");
        dims.push_back(v);
        ranges.push_back(DimRange{});
        continue;
      }
      int64_t lo = 0, hi = 0;
      if (!ParseSize(d.substr(0, tilde), &lo) || !ParseSize(d.substr(tilde + 1), &hi)) {
        return InvalidArgument("--input_shape item '" + item + "': bad range '" + d +
                               "' (want LO~HI with 0 <= LO <= HI, e.g. 1~512)");
      }
      if (hi < lo) {
        return InvalidArgument("--input_shape item '" + item + "': range '" + d + "' is empty (LO > HI)");
      }
      if (lo == hi) {
        dims.push_back(lo);
        ranges.push_back(DimRange{});
        continue;
      }
      dims.push_back(kUnknownDim);
      ranges.push_back(DimRange{lo, hi});
      any_range = true;
    }
    if (!item.empty() && item.back() == ',') {
      return InvalidArgument("--input_shape item '" + item + "': empty dim");
    }
    out.shapes[name] = dims;
    if (any_range) out.ranges[name] = ranges;
  }
  return out;
}

}  // namespace ge::compiler
