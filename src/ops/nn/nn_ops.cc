#include "ops/families.h"
#include "ops/infer_util.h"
#include "ops/nn/nn_ops_internal.h"

namespace ge::ops {

namespace nn {

Status RequireFloatInput(const InferContext& ctx, int i, const char* what) {
  if (!ctx.has_input(i)) return ctx.Error(std::string(what) + " input is missing");
  DataType dt = ctx.input(i)->dtype;
  if (dt != DataType::kUndefined && !IsFloatingPoint(dt)) {
    return ctx.Error(std::string(what) + " must be a floating-point tensor, got " + DataTypeName(dt));
  }
  return Status::Ok();
}

Status RequireRank(const InferContext& ctx, int i, int rank, const char* what) {
  if (!ctx.has_input(i)) return Status::Ok();
  const Shape& s = ctx.input(i)->shape;
  if (!s.unknown_rank() && s.rank() != rank) {
    return ctx.Error(std::string(what) + " must have rank " + std::to_string(rank) + ", got " + s.ToString());
  }
  return Status::Ok();
}

}  // namespace nn

void RegisterNnOps(OpRegistry* r) {
  nn::RegisterConvOps(r);
  nn::RegisterPoolOps(r);
  nn::RegisterNormOps(r);
  nn::RegisterSampleOps(r);
}

}  // namespace ge::ops
