// Schemas of the unary math ops: output has the input's shape (and dtype, except IsNaN / IsInf).
#include "ops/elementwise/elementwise_infer.h"
#include "ops/elementwise/elementwise_ops.h"

namespace ge::ops::elementwise {
namespace {

Status InferFloatToBool(InferContext& ctx) {
  GE_RETURN_IF_ERROR(CheckInputType(ctx, 0, kFloatTypes));
  ctx.output(0) = TensorDesc(DataType::kBool, ctx.input(0)->shape);
  return Status::Ok();
}

}  // namespace

void RegisterUnaryOps(OpRegistry* r) {
  for (OpId id : {OpId::kAbs, OpId::kSign, OpId::kErf}) r->Add({id, 1, 1, 1, 1, InferUnaryOf<kNumeric>});
  r->Add({OpId::kNeg, 1, 1, 1, 1, InferUnaryOf<kSignedNumeric>});
  for (OpId id : {OpId::kExp, OpId::kLog, OpId::kSqrt, OpId::kReciprocal, OpId::kSin, OpId::kCos, OpId::kTan,
                  OpId::kAsin, OpId::kAcos, OpId::kAtan, OpId::kSinh, OpId::kCosh, OpId::kAsinh, OpId::kAcosh,
                  OpId::kAtanh, OpId::kCeil, OpId::kFloor, OpId::kRound}) {
    r->Add({id, 1, 1, 1, 1, InferUnaryOf<kFloatTypes>});
  }
  r->Add({OpId::kIsNaN, 1, 1, 1, 1, InferFloatToBool});
  r->Add({OpId::kIsInf, 1, 1, 1, 1, InferFloatToBool});
  r->Add({OpId::kNot, 1, 1, 1, 1, InferUnaryOf<kBoolType>});
}

}  // namespace ge::ops::elementwise
