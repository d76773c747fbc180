// Shape: dims of a tensor, possibly partly unknown. A dim is >= 0 when known; kUnknownDim when not, optionally
// with a symbol ("batch", "seq") that ties equal unknown dims together. A Shape may also have unknown rank.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "base/status.h"

namespace ge {

constexpr int64_t kUnknownDim = -1;

using Dims = std::vector<int64_t>;

// Product of dims; an error (not a wrap-around) when it overflows int64 or any dim is negative.
StatusOr<int64_t> CheckedNumElements(const Dims& dims);
// Product of dims with no checks; use only on dims already validated.
int64_t NumElements(const Dims& dims);
std::string DimsToString(const Dims& dims);  // "[1,3,224,224]"

// Bounds of one dim (`ge compile --input_shape="seq:1~512"`); {0, -1}: any size.
struct DimRange {
  int64_t lo = 0, hi = -1;  // hi < 0: unbounded
  bool Contains(int64_t d) const { return d >= lo && (hi < 0 || d <= hi); }
  bool operator==(const DimRange& o) const { return lo == o.lo && hi == o.hi; }
};

class Shape {
 public:
  Shape() = default;  // scalar (rank 0)
  explicit Shape(Dims dims) : dims_(std::move(dims)), symbols_(dims_.size()) {}
  static Shape UnknownRank() {
    Shape s;
    s.unknown_rank_ = true;
    return s;
  }

  bool unknown_rank() const { return unknown_rank_; }
  int rank() const { return static_cast<int>(dims_.size()); }
  const Dims& dims() const { return dims_; }
  int64_t dim(int i) const { return dims_[i]; }
  const std::string& symbol(int i) const { return symbols_[i]; }
  void set_dim(int i, int64_t v) { dims_[i] = v; }
  void set_symbol(int i, std::string s) { symbols_[i] = std::move(s); }
  void AddDim(int64_t v, std::string symbol = "") {
    dims_.push_back(v);
    symbols_.push_back(std::move(symbol));
  }
  // True when the rank and every dim are known.
  bool IsFullyKnown() const;
  std::string ToString() const;  // "[1,3,?,batch]" or "[*]" for unknown rank
  bool operator==(const Shape& o) const {
    return unknown_rank_ == o.unknown_rank_ && dims_ == o.dims_ && symbols_ == o.symbols_;
  }
  bool operator!=(const Shape& o) const { return !(*this == o); }

 private:
  Dims dims_;
  std::vector<std::string> symbols_;
  bool unknown_rank_ = false;
};

}  // namespace ge
