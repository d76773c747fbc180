#include "runtime/v2/lowering/value_slot.h"

#include <cstring>

namespace ge::runtime::v2 {

Status SetSlotTensor(ValueSlot* s, Tensor t) {
  RtShape shape;
  if (!RtShape::FromDims(t.dims(), &shape)) {
    return Unimplemented("value '" + s->name + "' has rank " + std::to_string(t.rank()) +
                         "; runtime v2 holds tensors of rank at most " + std::to_string(kMaxRtRank));
  }
  s->t.SetDesc(t.dtype(), shape);
  s->t.data = t.raw_data();
  s->t.bytes = t.nbytes();
  s->t.block = nullptr;
  s->keep = std::move(t);
  s->kept = s->keep.valid();
  return Status::Ok();
}

Value SlotValue(const ValueSlot& s) {
  if (s.boxed_kind) return s.boxed;
  if (s.keep.valid() && s.keep.raw_data() == s.t.data && s.keep.dtype() == s.t.dtype &&
      s.keep.dims() == s.t.shape.ToDims()) {
    return Value(s.keep);
  }
  auto storage = TensorStorage::Borrow(s.t.data, s.t.bytes, nullptr);
  return Value(Tensor(s.t.dtype, s.t.shape.ToDims(), std::move(storage)));
}

StatusOr<Value> SlotValueCopy(const ValueSlot& s) {
  if (s.boxed_kind) return s.boxed;
  if (s.keep.valid() && s.keep.raw_data() == s.t.data && s.keep.dtype() == s.t.dtype &&
      s.keep.dims() == s.t.shape.ToDims()) {
    return Value(s.keep);
  }
  GE_ASSIGN_OR_RETURN(Tensor t, Tensor::Create(s.t.dtype, s.t.shape.ToDims()));
  if (t.nbytes() != 0) std::memcpy(t.raw_data(), s.t.data, t.nbytes());
  return Value(std::move(t));
}

}  // namespace ge::runtime::v2
