#include "base/shape.h"

#include <sstream>

namespace ge {

StatusOr<int64_t> CheckedNumElements(const Dims& dims) {
  int64_t n = 1;
  for (int64_t d : dims) {
    if (d < 0) return InvalidArgument("shape " + DimsToString(dims) + " has a negative or unknown dim");
    if (d != 0 && n > INT64_MAX / d) return OutOfRange("shape " + DimsToString(dims) + " has too many elements");
    n *= d;
  }
  return n;
}

int64_t NumElements(const Dims& dims) {
  int64_t n = 1;
  for (int64_t d : dims) n *= d;
  return n;
}

std::string DimsToString(const Dims& dims) {
  std::ostringstream os;
  os << "[";
  for (size_t i = 0; i < dims.size(); ++i) os << (i ? "," : "") << dims[i];
  os << "]";
  return os.str();
}

bool Shape::IsFullyKnown() const {
  if (unknown_rank_) return false;
  for (int64_t d : dims_)
    if (d < 0) return false;
  return true;
}

std::string Shape::ToString() const {
  if (unknown_rank_) return "[*]";
  std::ostringstream os;
  os << "[";
  for (size_t i = 0; i < dims_.size(); ++i) {
    if (i) os << ",";
    if (dims_[i] >= 0) {
      os << dims_[i];
    } else if (!symbols_[i].empty()) {
      os << symbols_[i];
    } else {
      os << "?";
    }
  }
  os << "]";
  return os.str();
}

}  // namespace ge
