#include "runtime/v2/lowering/static_island.h"

namespace ge::runtime::v2 {

KernelStatus StaticIslandKernel(KernelContext* c) {
  const StaticIslandNode& n = c->data<StaticIslandNode>();
  Allocator* a = c->exec->allocator;
  for (size_t i = 0; i < n.out.size(); ++i) {
    ValueSlot* s = n.out[i];
    if (s->t.block != nullptr || s->keep.valid()) ReleaseSlot(s, a);
    StatusOr<MemBlock*> b = a->Malloc(n.out_bytes[i]);
    if (!b.ok()) return c->exec->SetError(b.status().WithContext("value '" + s->name + "'"));
    s->t.block = *b;
    s->t.data = (*b)->addr;
    s->t.bytes = n.out_bytes[i];
    n.out_buffers[i] = DataBuffer{s->t.data, s->t.bytes};
  }
  for (size_t i = 0; i < n.in.size(); ++i) n.in_buffers[i] = DataBuffer{n.in[i]->t.data, n.in[i]->t.bytes};
  Status s = n.island->model->Execute(n.in_buffers, n.out_buffers);
  return s.ok() ? kStatusSuccess : c->exec->SetError(std::move(s));
}

}  // namespace ge::runtime::v2
