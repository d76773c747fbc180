// Schemas of the variable family (seed 000): ge::Variable (a session variable: attributes `dtype`, an ONNX
// element type, and `shape`; optional `_init_value`, a tensor), Assign / AssignAdd / AssignSub (ref, value) → ref
// updated in place, VarIsInitializedOp (ref) → bool scalar, and FileConstant (a constant read from an external
// weight file: `dtype`, `shape`, `file_path` or `file_id`, `offset`, `length`).
#include <string>

#include "ops/families.h"
#include "ops/infer_util.h"

namespace ge::ops {
namespace {

// dtype + shape attributes → a static desc.
Status DeclaredDesc(InferContext& ctx, TensorDesc* desc) {
  const ir::AttrValue* dtype = ctx.attr().Find("dtype");
  if (!dtype || dtype->type != ir::AttrValue::Type::kInt) return ctx.Error("attribute 'dtype' (an int) is required");
  if (dtype->i <= 0 || dtype->i > kMaxDataTypeValue || !IsValidDataType(static_cast<int32_t>(dtype->i)) ||
      static_cast<DataType>(dtype->i) == DataType::kString) {
    return ctx.Error("unsupported data type " + std::to_string(dtype->i));
  }
  const ir::AttrValue* shape = ctx.attr().Find("shape");
  if (!shape || shape->type != ir::AttrValue::Type::kInts) return ctx.Error("attribute 'shape' (ints) is required");
  for (int64_t d : shape->ints) {
    if (d < 0) return ctx.Error("shape " + DimsToString(shape->ints) + " has a negative dim");
  }
  *desc = TensorDesc(static_cast<DataType>(dtype->i), Shape(shape->ints));
  return Status::Ok();
}

Status InferVariable(InferContext& ctx) {
  TensorDesc desc;
  GE_RETURN_IF_ERROR(DeclaredDesc(ctx, &desc));
  if (const Tensor* init = ctx.attr().GetTensor("_init_value")) {
    if (init->dtype() != desc.dtype || init->dims() != desc.shape.dims()) {
      return ctx.Error("_init_value is " + std::string(DataTypeName(init->dtype())) + DimsToString(init->dims()) +
                       ", the variable " + std::string(DataTypeName(desc.dtype)) + desc.shape.ToString());
    }
  }
  ctx.output(0) = desc;
  return Status::Ok();
}

Status InferAssign(InferContext& ctx) {
  const TensorDesc* ref = ctx.input(0);
  const TensorDesc* value = ctx.input(1);
  if (ref->dtype != value->dtype) {
    return ctx.Error(std::string("value is ") + DataTypeName(value->dtype) + ", the variable " +
                     DataTypeName(ref->dtype));
  }
  if (ref->shape.IsFullyKnown() && value->shape.IsFullyKnown() && ref->shape.dims() != value->shape.dims()) {
    return ctx.Error("value shape " + value->shape.ToString() + " differs from the variable's " +
                     ref->shape.ToString());
  }
  ctx.output(0) = *ref;
  return Status::Ok();
}

Status InferAssignArith(InferContext& ctx) {
  GE_RETURN_IF_ERROR(InferAssign(ctx));
  const DataType dt = ctx.input(0)->dtype;
  if (dt == DataType::kBool || dt == DataType::kString) {
    return ctx.Error(std::string("cannot add to a ") + DataTypeName(dt) + " variable");
  }
  return Status::Ok();
}

Status InferVarIsInitialized(InferContext& ctx) {
  ctx.output(0) = TensorDesc(DataType::kBool, Shape(Dims{}));
  return Status::Ok();
}

Status InferFileConstant(InferContext& ctx) {
  TensorDesc desc;
  GE_RETURN_IF_ERROR(DeclaredDesc(ctx, &desc));
  if (ctx.attr().GetString("file_path", "").empty() && ctx.attr().GetString("file_id", "").empty()) {
    return ctx.Error("attribute 'file_path' or 'file_id' is required");
  }
  if (ctx.attr().GetInt("offset", 0) < 0) return ctx.Error("offset must not be negative");
  ctx.output(0) = desc;
  return Status::Ok();
}

}  // namespace

void RegisterVariableOps(OpRegistry* r) {
  r->Add({OpId::kGeVariable, 0, 0, 1, 1, InferVariable});
  r->Add({OpId::kGeAssign, 2, 2, 1, 1, InferAssign});
  r->Add({OpId::kGeAssignAdd, 2, 2, 1, 1, InferAssignArith});
  r->Add({OpId::kGeAssignSub, 2, 2, 1, 1, InferAssignArith});
  r->Add({OpId::kGeVarIsInitializedOp, 1, 1, 1, 1, InferVarIsInitialized});
  r->Add({OpId::kGeFileConstant, 0, 0, 1, 1, InferFileConstant});
}

}  // namespace ge::ops
