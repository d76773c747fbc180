#include "tensor_text.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <sstream>

namespace ge::cli {

std::string SummarizeTensor(const std::string& name, const Tensor& t) {
  std::ostringstream os;
  os.precision(6);
  os << name << ": " << DataTypeName(t.dtype()) << "[";
  for (size_t i = 0; i < t.dims().size(); ++i) os << (i ? "," : "") << t.dims()[i];
  os << "]";
  if (t.dtype() == DataType::kString || t.numel() == 0) return os.str();
  double mn = INFINITY, mx = -INFINITY, sum = 0;
  for (int64_t i = 0; i < t.numel(); ++i) {
    double v = t.GetAsDouble(i);
    mn = std::min(mn, v);
    mx = std::max(mx, v);
    sum += v;
  }
  os << " min=" << mn << " max=" << mx << " mean=" << sum / static_cast<double>(t.numel()) << " first=[";
  for (int64_t i = 0; i < t.numel() && i < 5; ++i) os << (i ? ", " : "") << t.GetAsDouble(i);
  os << (t.numel() > 5 ? ", ...]" : "]");
  return os.str();
}

std::string SanitizeFileName(const std::string& name) {
  std::string out;
  for (char c : name)
    out += (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.') ? c : '_';
  if (out.empty() || out == "." || out == "..") out = "output";
  return out;
}

}  // namespace ge::cli
