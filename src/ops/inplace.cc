#include "ops/inplace.h"

namespace ge::ops {

bool IsInplaceUnary(OpId op) { return HasTrait(op, OpTrait::kUnaryElementwise); }

bool IsInplaceBinary(OpId op) { return HasTrait(op, OpTrait::kBinaryElementwise); }

bool IsDataView(OpId op) { return HasTrait(op, OpTrait::kDataView); }

bool TransposeMovesOnlyUnitDims(std::vector<int64_t> perm, const int64_t* dims, int rank) {
  if (perm.empty()) {
    for (int d = rank - 1; d >= 0; --d) perm.push_back(d);
  }
  if (static_cast<int>(perm.size()) != rank) return false;
  int64_t last = -1;
  for (int64_t p : perm) {
    if (p < 0 || p >= rank) return false;
    if (dims[p] == 1) continue;
    if (p < last) return false;
    last = p;
  }
  return true;
}

}  // namespace ge::ops
