// ValueSlot: where one value of a lowered graph lives while a graph instance runs. Lowering makes one slot per IR
// value (stable address, owned by the LoweredModel); the chains of the execute graphs carry slot addresses set at
// lowering, so runtime kernels read and write slots in place and nothing is copied between them.
//
// A tensor value is `t` (shape inline, data in an allocator block, a constant, a caller's tensor, or a ge::Tensor
// a reference kernel produced, held by `keep`). Sequences, optionals and strings (decided at lowering from the
// IR desc) live in `boxed`.
// Threading: a slot is written by its producer's kernels and read by its consumers' (the executor orders them).
#pragma once
#include <string>

#include "base/value.h"
#include "runtime/v2/allocator.h"
#include "runtime/v2/allocator_front.h"
#include "runtime/v2/tensor_value.h"

namespace ge::runtime::v2 {

struct alignas(64) ValueSlot {
  // Flags first, then t: both share the slot's first cache line with t's hot fields (ReleaseSlot reads only it
  // when neither keep nor boxed holds anything).
  bool boxed_kind = false;  // fixed at lowering: not a plain tensor
  // Fixed at lowering: set once outside Main (constants, Init outputs) or by the caller (inputs); Main never frees it.
  bool persistent = false;
  // Fixed at lowering: a constant (its value is known once Init has run; shape inference may read it).
  bool constant = false;
  bool kept = false;  // keep is valid (set by SetSlotTensor, cleared by ReleaseSlot: the only writers of keep)
  // Bumped each time a memoized (shape-derived) node recomputes this value: with t.version, what its memoized
  // consumers compare to skip themselves (compute_record.h).
  uint32_t value_gen = 0;
  RtTensor t;
  Tensor keep;   // owner of t.data when it is not an allocator block (else invalid)
  Value boxed;   // boxed_kind values
  std::string name;  // the IR value's, for errors
};

// Drops what the slot holds (returns its block to |front|'s inline cache when given and it takes it, else to
// |allocator|). Idempotent.
inline void ReleaseSlot(ValueSlot* s, Allocator* allocator, AllocatorFront* front = nullptr) {
  if (s->t.block != nullptr) {
    if (front == nullptr || !front->TryKeep(s->t.block)) allocator->Free(s->t.block);
    s->t.block = nullptr;
  }
  s->t.data = nullptr;
  s->t.bytes = 0;
  if (s->kept) {
    s->keep = Tensor();
    s->kept = false;
  }
  if (s->boxed_kind && s->boxed.kind != Value::Kind::kNone) s->boxed = Value();
}

// Points a tensor slot at |t| (shared, kept alive by the slot). InvalidArgument when its rank exceeds kMaxRtRank.
Status SetSlotTensor(ValueSlot* s, Tensor t);
// The slot's value as a ge::Value: boxed values as they are; tensors sharing the slot's bytes when a Tensor owns
// them, else borrowing them (valid only while the slot holds them).
Value SlotValue(const ValueSlot& s);
// The same, but never borrowing: allocator-backed bytes are copied into a new Tensor (for values that outlive the run).
StatusOr<Value> SlotValueCopy(const ValueSlot& s);

}  // namespace ge::runtime::v2
