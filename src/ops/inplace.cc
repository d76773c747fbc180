#include "ops/inplace.h"

namespace ge::ops {

bool IsInplaceUnary(OpId op) {
  switch (op) {
    case OpId::kRelu: case OpId::kNeg: case OpId::kAbs: case OpId::kSigmoid: case OpId::kTanh: case OpId::kExp:
    case OpId::kLog: case OpId::kSqrt: case OpId::kReciprocal: case OpId::kFloor: case OpId::kCeil:
    case OpId::kRound: case OpId::kSign: case OpId::kErf: case OpId::kSoftplus: case OpId::kLeakyRelu:
    case OpId::kElu: case OpId::kSelu: case OpId::kHardSigmoid: case OpId::kHardSwish: case OpId::kClip:
      return true;
    default: return false;
  }
}

bool IsInplaceBinary(OpId op) {
  switch (op) {
    case OpId::kAdd: case OpId::kSub: case OpId::kMul: case OpId::kDiv: case OpId::kMax: case OpId::kMin:
      return true;
    default: return false;
  }
}

bool IsDataView(OpId op) {
  switch (op) {
    case OpId::kIdentity: case OpId::kReshape: case OpId::kFlatten: case OpId::kSqueeze: case OpId::kUnsqueeze:
    case OpId::kDropout:
      return true;
    default: return false;
  }
}

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
