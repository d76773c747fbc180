// SequenceConstruct, SequenceEmpty, SequenceAt, SequenceInsert, SequenceErase, SequenceLength. Sequence elements
// share storage with the tensors they came from (tensors are immutable once produced).
#include <string>

#include "kernels/ref/control/control_kernels.h"

namespace ge::ref::control {
namespace {

StatusOr<const Value*> SequenceInput(const KernelContext& ctx, int i) {
  const Value* v = ctx.input_value(i);
  if (!v || !v->is_sequence()) return ctx.Error("input " + std::to_string(i) + " must be a sequence");
  return v;
}

// Reads the optional position input i and maps it into [0, n) (or [0, n] when `allow_end`); `def` when absent.
StatusOr<int64_t> Position(const KernelContext& ctx, int i, int64_t n, bool allow_end, int64_t def) {
  const Tensor* p = ctx.input(i);
  if (!p) {
    if (ctx.has_input(i)) return ctx.Error("position must be a tensor");
    return def;
  }
  if (p->dtype() != DataType::kInt32 && p->dtype() != DataType::kInt64) {
    return ctx.Error("position must be int32 or int64, got " + std::string(DataTypeName(p->dtype())));
  }
  if (p->numel() != 1) return ctx.Error("position must be a scalar");
  const int64_t pos = p->GetAsInt64(0);
  const int64_t hi = allow_end ? n : n - 1;
  if (pos < -n || pos > hi) {
    return ctx.Error("position " + std::to_string(pos) + " is out of range [" + std::to_string(-n) + ", " +
                     std::to_string(hi) + "] for a sequence of " + std::to_string(n));
  }
  return pos < 0 ? pos + n : pos;
}

Status RefSequenceConstruct(KernelContext& ctx) {
  std::vector<Tensor> items;
  for (int i = 0; i < ctx.num_inputs(); ++i) {
    const Tensor* t = ctx.input(i);
    if (!t) return ctx.Error("input " + std::to_string(i) + " must be a tensor");
    if (t->dtype() != ctx.input(0)->dtype()) return ctx.Error("all inputs must have one dtype");
    items.push_back(*t);
  }
  DataType dt = items[0].dtype();
  ctx.SetOutputValue(0, Value::Sequence(std::move(items), dt));
  return Status::Ok();
}

Status RefSequenceEmpty(KernelContext& ctx) {
  ctx.SetOutputValue(0, Value::Sequence({}, ctx.inferred[0].dtype));
  return Status::Ok();
}

Status RefSequenceAt(KernelContext& ctx) {
  GE_ASSIGN_OR_RETURN(const Value* s, SequenceInput(ctx, 0));
  const int64_t n = static_cast<int64_t>(s->sequence.size());
  if (!ctx.has_input(1)) return ctx.Error("position is missing");
  GE_ASSIGN_OR_RETURN(int64_t pos, Position(ctx, 1, n, false, 0));
  ctx.SetOutput(0, s->sequence[pos]);
  return Status::Ok();
}

Status RefSequenceInsert(KernelContext& ctx) {
  GE_ASSIGN_OR_RETURN(const Value* s, SequenceInput(ctx, 0));
  const Tensor* t = ctx.input(1);
  if (!t) return ctx.Error("input 1 must be a tensor");
  DataType dt = s->elem_dtype;
  if (dt == DataType::kUndefined) dt = t->dtype();
  if (t->dtype() != dt) {
    return ctx.Error("cannot insert a " + std::string(DataTypeName(t->dtype())) + " tensor into a sequence of " +
                     DataTypeName(dt));
  }
  const int64_t n = static_cast<int64_t>(s->sequence.size());
  GE_ASSIGN_OR_RETURN(int64_t pos, Position(ctx, 2, n, true, n));
  std::vector<Tensor> items = s->sequence;
  items.insert(items.begin() + pos, *t);
  ctx.SetOutputValue(0, Value::Sequence(std::move(items), dt));
  return Status::Ok();
}

Status RefSequenceErase(KernelContext& ctx) {
  GE_ASSIGN_OR_RETURN(const Value* s, SequenceInput(ctx, 0));
  const int64_t n = static_cast<int64_t>(s->sequence.size());
  if (n == 0) return ctx.Error("cannot erase from an empty sequence");
  GE_ASSIGN_OR_RETURN(int64_t pos, Position(ctx, 1, n, false, n - 1));
  std::vector<Tensor> items = s->sequence;
  items.erase(items.begin() + pos);
  ctx.SetOutputValue(0, Value::Sequence(std::move(items), s->elem_dtype));
  return Status::Ok();
}

Status RefSequenceLength(KernelContext& ctx) {
  GE_ASSIGN_OR_RETURN(const Value* s, SequenceInput(ctx, 0));
  ctx.SetOutput(0, Tensor::Scalar<int64_t>(static_cast<int64_t>(s->sequence.size())));
  return Status::Ok();
}

}  // namespace

void RegisterSequenceKernels(KernelRegistry* r) {
  r->Add(OpId::kSequenceConstruct, RefSequenceConstruct);
  r->Add(OpId::kSequenceEmpty, RefSequenceEmpty);
  r->Add(OpId::kSequenceAt, RefSequenceAt);
  r->Add(OpId::kSequenceInsert, RefSequenceInsert);
  r->Add(OpId::kSequenceErase, RefSequenceErase);
  r->Add(OpId::kSequenceLength, RefSequenceLength);
}

}  // namespace ge::ref::control
