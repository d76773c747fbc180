// Reference kernels of the variable family (seed 000). Variable hands out the session variable's memory (through
// KernelContext::variables); Assign/AssignAdd/AssignSub write into their ref input's memory, which aliases the
// variable, and return it (GE's ref outputs); VarIsInitializedOp asks the store; FileConstant reads its bytes from
// the external weight file.
#include <cstdint>
#include <cstring>
#include <fstream>
#include <string>

#include "kernels/ref/families.h"
#include "ops/variable/variable_ref.h"

namespace ge::ref {
namespace {

Status RequireStore(const KernelContext& ctx) {
  if (!ctx.variables) return ctx.Error("no session variables here (run the graph in a session)");
  return Status::Ok();
}

Status RunVariable(KernelContext& ctx) {
  GE_RETURN_IF_ERROR(RequireStore(ctx));
  if (ctx.inferred.empty() || !ctx.inferred[0].shape.IsFullyKnown()) return ctx.Error("variable has no static shape");
  GE_ASSIGN_OR_RETURN(Tensor t,
                      ctx.variables->Variable(ctx.node_name, ctx.inferred[0], ctx.attr().GetTensor("_init_value")));
  ctx.SetOutput(0, std::move(t));
  return Status::Ok();
}

// The ref input's bytes, writable: it aliases the variable (the store's or a loaded model's memory).
void* RefData(const Tensor& ref) { return static_cast<char*>(ref.storage()->data()) + ref.byte_offset(); }

Status CheckRefValue(const KernelContext& ctx, const Tensor** ref, const Tensor** value) {
  *ref = ctx.input(0);
  *value = ctx.input(1);
  if (!*ref || !*value) return ctx.Error("ref and value must be tensors");
  if ((*ref)->dtype() != (*value)->dtype() || (*ref)->dims() != (*value)->dims()) {
    return ctx.Error(std::string("value ") + DataTypeName((*value)->dtype()) + DimsToString((*value)->dims()) +
                     " does not match the variable's " + DataTypeName((*ref)->dtype()) + DimsToString((*ref)->dims()));
  }
  if ((*ref)->dtype() == DataType::kString) return ctx.Error("string variables are not supported");
  return Status::Ok();
}

void MarkAssigned(KernelContext& ctx) {
  if (!ctx.variables || !ctx.node) return;
  if (const ir::Node* var = ops::RefVariable(ctx.node->input(0))) ctx.variables->Written(var->name());
}

Status RunAssign(KernelContext& ctx) {
  const Tensor *ref, *value;
  GE_RETURN_IF_ERROR(CheckRefValue(ctx, &ref, &value));
  if (ref->raw_data() != value->raw_data()) std::memmove(RefData(*ref), value->raw_data(), ref->nbytes());
  MarkAssigned(ctx);
  ctx.SetOutput(0, *ref);
  return Status::Ok();
}

template <typename T>
void Accumulate(void* ref, const void* value, int64_t n, int sign) {
  T* r = static_cast<T*>(ref);
  const T* v = static_cast<const T*>(value);
  for (int64_t i = 0; i < n; ++i) r[i] = sign > 0 ? static_cast<T>(r[i] + v[i]) : static_cast<T>(r[i] - v[i]);
}

Status RunAssignArith(KernelContext& ctx, int sign) {
  const Tensor *ref, *value;
  GE_RETURN_IF_ERROR(CheckRefValue(ctx, &ref, &value));
  void* r = RefData(*ref);
  const void* v = value->raw_data();
  const int64_t n = ref->numel();
  switch (ref->dtype()) {
    case DataType::kFloat: Accumulate<float>(r, v, n, sign); break;
    case DataType::kDouble: Accumulate<double>(r, v, n, sign); break;
    case DataType::kInt8: Accumulate<int8_t>(r, v, n, sign); break;
    case DataType::kInt16: Accumulate<int16_t>(r, v, n, sign); break;
    case DataType::kInt32: Accumulate<int32_t>(r, v, n, sign); break;
    case DataType::kInt64: Accumulate<int64_t>(r, v, n, sign); break;
    case DataType::kUint8: Accumulate<uint8_t>(r, v, n, sign); break;
    case DataType::kUint16: Accumulate<uint16_t>(r, v, n, sign); break;
    case DataType::kUint32: Accumulate<uint32_t>(r, v, n, sign); break;
    case DataType::kUint64: Accumulate<uint64_t>(r, v, n, sign); break;
    default: return ctx.Unsupported(std::string("no arithmetic on ") + DataTypeName(ref->dtype()) + " variables");
  }
  MarkAssigned(ctx);
  ctx.SetOutput(0, *ref);
  return Status::Ok();
}

Status RunAssignAdd(KernelContext& ctx) { return RunAssignArith(ctx, +1); }
Status RunAssignSub(KernelContext& ctx) { return RunAssignArith(ctx, -1); }

Status RunVarIsInitialized(KernelContext& ctx) {
  GE_RETURN_IF_ERROR(RequireStore(ctx));
  const ir::Node* var = ctx.node ? ops::RefVariable(ctx.node->input(0)) : nullptr;
  if (!var) return ctx.Error("input is not a variable");
  GE_ASSIGN_OR_RETURN(Tensor* out, ctx.AllocateOutput(0, {}, DataType::kBool));
  out->data<bool>()[0] = ctx.variables->IsInitialized(var->name());
  return Status::Ok();
}

Status RunFileConstant(KernelContext& ctx) {
  const std::string path = ctx.attr().GetString("file_path", "");
  if (path.empty()) {
    return ctx.Error("file_id '" + ctx.attr().GetString("file_id", "") + "' was not resolved to a file");
  }
  const int64_t offset = ctx.attr().GetInt("offset", 0);
  GE_ASSIGN_OR_RETURN(Tensor* out, ctx.AllocateOutput(0));
  const int64_t length = ctx.attr().GetInt("length", static_cast<int64_t>(out->nbytes()));
  if (length != static_cast<int64_t>(out->nbytes())) {
    return ctx.Error("length " + std::to_string(length) + " does not match the tensor's " +
                     std::to_string(out->nbytes()) + " bytes");
  }
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) return NotFound("weight file '" + path + "' of node '" + ctx.node_name + "' cannot be opened");
  const int64_t file_size = static_cast<int64_t>(in.tellg());
  if (offset < 0 || offset > file_size || file_size - offset < length) {
    return DataLoss("weight file '" + path + "' has " + std::to_string(file_size) + " bytes; node '" + ctx.node_name +
                    "' reads " + std::to_string(length) + " at offset " + std::to_string(offset));
  }
  in.seekg(offset);
  if (!in.read(static_cast<char*>(RefData(*out)), length)) {
    return DataLoss("weight file '" + path + "': read failed at offset " + std::to_string(offset));
  }
  return Status::Ok();
}

}  // namespace

void RegisterVariableRefKernels(KernelRegistry* r) {
  r->Add(OpId::kGeVariable, RunVariable);
  r->Add(OpId::kGeAssign, RunAssign);
  r->Add(OpId::kGeAssignAdd, RunAssignAdd);
  r->Add(OpId::kGeAssignSub, RunAssignSub);
  r->Add(OpId::kGeVarIsInitializedOp, RunVarIsInitialized);
  r->Add(OpId::kGeFileConstant, RunFileConstant);
}

}  // namespace ge::ref
