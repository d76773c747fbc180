#include "ops/families.h"
#include "ops/index/index_ops.h"

namespace ge::ops {

namespace index_infer {

Status CheckIndexDtype(const InferContext& ctx, int i, const std::string& what) {
  DataType dt = ctx.input(i)->dtype;
  if (dt != DataType::kInt32 && dt != DataType::kInt64 && dt != DataType::kUndefined) {
    return ctx.Error(what + " must be int32 or int64, got " + DataTypeName(dt));
  }
  return Status::Ok();
}

bool MergeDim(int64_t a, int64_t b, int64_t* out) {
  if (a != kUnknownDim && b != kUnknownDim && a != b) return false;
  *out = a != kUnknownDim ? a : b;
  return true;
}

}  // namespace index_infer

void RegisterIndexOps(OpRegistry* r) {
  RegisterGatherOps(r);
  RegisterScatterOps(r);
  RegisterSelectOps(r);
  RegisterOneHotOps(r);
  RegisterNmsOps(r);
}

}  // namespace ge::ops
