// How a tensor travels between runtime kernels: a Chain holding an RtTensor (owned by the chain, created once
// when the graph is built and filled in place on every run). The shape is inline (no allocation per run).
#pragma once
#include <cstddef>
#include <cstdint>

#include "base/data_type.h"
#include "base/format.h"
#include "base/shape.h"

namespace ge::runtime::v2 {

struct MemBlock;  // allocator.h

inline constexpr int kMaxRtRank = 8;

struct RtShape {
  int rank = 0;
  int64_t dims[kMaxRtRank] = {};
  int64_t NumElements() const {
    int64_t n = 1;
    for (int i = 0; i < rank; ++i) n *= dims[i];
    return n;
  }
  bool operator==(const RtShape& o) const {
    if (rank != o.rank) return false;
    for (int i = 0; i < rank; ++i) {
      if (dims[i] != o.dims[i]) return false;
    }
    return true;
  }
  bool operator!=(const RtShape& o) const { return !(*this == o); }
  Dims ToDims() const { return Dims(dims, dims + rank); }
  // False when dims has more than kMaxRtRank entries.
  static bool FromDims(const Dims& d, RtShape* out) {
    if (d.size() > static_cast<size_t>(kMaxRtRank)) return false;
    out->rank = static_cast<int>(d.size());
    for (int i = 0; i < out->rank; ++i) out->dims[i] = d[i];
    return true;
  }
};

// Hot fields first: data, bytes, block, the shape version and a shape of rank <= 2 share one cache line when the
// tensor starts one (ValueSlot is 64-byte aligned).
struct RtTensor {
  void* data = nullptr;      // null for an empty tensor or before allocation
  size_t bytes = 0;          // what data holds
  MemBlock* block = nullptr; // the allocator's block behind data, when the execution allocated it (else null)
  // Bumped by SetDesc whenever dtype or shape change: a consumer that saw the same version saw the same desc.
  uint32_t version = 0;
  DataType dtype = DataType::kUndefined;
  Format format = Format::kND;
  RtShape shape;

  void SetDesc(DataType d, const RtShape& s) {
    if (d != dtype || s != shape) {
      dtype = d;
      shape = s;
      ++version;
    }
  }
};


}  // namespace ge::runtime::v2
