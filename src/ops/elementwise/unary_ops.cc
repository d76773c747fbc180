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
  for (const char* name : {"Abs", "Sign", "Erf"}) r->Add({"", name, 1, 1, 1, 1, InferUnaryOf<kNumeric>});
  r->Add({"", "Neg", 1, 1, 1, 1, InferUnaryOf<kSignedNumeric>});
  for (const char* name : {"Exp", "Log", "Sqrt", "Reciprocal", "Sin", "Cos", "Tan", "Asin", "Acos", "Atan", "Sinh",
                           "Cosh", "Asinh", "Acosh", "Atanh", "Ceil", "Floor", "Round"}) {
    r->Add({"", name, 1, 1, 1, 1, InferUnaryOf<kFloatTypes>});
  }
  r->Add({"", "IsNaN", 1, 1, 1, 1, InferFloatToBool});
  r->Add({"", "IsInf", 1, 1, 1, 1, InferFloatToBool});
  r->Add({"", "Not", 1, 1, 1, 1, InferUnaryOf<kBoolType>});
}

}  // namespace ge::ops::elementwise
