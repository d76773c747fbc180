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

}  // namespace ge::ops
