// AllocMemory and Launch of a compute node, and the per-node cache of prepared kernels (bounded, least recently
// used evicted; keyed by input and output shapes, plus the values a value-dependent node was prepared with).
// The fast path when shapes repeat: one allocator call per output and the kernel's task function, no look-up.
#include <cstring>

#include "runtime/v2/allocator.h"
#include "runtime/v2/kernels/compute_record.h"
#include "runtime/v2/kernels/node_data.h"

namespace ge::runtime::v2 {
namespace {

bool Matches(const ComputeNode& n, const PreparedEntry& e) {
  const ComputeNode::Run& r = n.run;
  for (size_t i = 0; i < n.in.size(); ++i) {
    if (n.in[i] != nullptr && n.in[i]->t.shape != e.in_shapes[i]) return false;
  }
  for (size_t i = 0; i < n.out.size(); ++i) {
    if (n.out[i] != nullptr && n.out[i]->t.shape != e.out_shapes[i]) return false;
  }
  return e.values == r.values;
}

StatusOr<std::unique_ptr<PreparedEntry>> Prepare(const ComputeNode& n) {
  const ComputeNode::Run& r = n.run;
  auto e = std::make_unique<PreparedEntry>();
  e->in_shapes.resize(n.in.size());
  e->out_shapes.resize(n.out.size());
  exec::PrepareRequest req = exec::MakeRequest(*n.node, n.settings);
  for (size_t i = 0; i < n.in.size(); ++i) {
    const ValueSlot* s = n.in[i];
    if (s == nullptr) continue;
    e->in_shapes[i] = s->t.shape;
    TensorDesc d(s->t.dtype, Shape(s->t.shape.ToDims()));
    d.format = n.in_format[i];
    req.input_descs[i] = d;
  }
  e->values = r.values;
  e->value_tensors.reserve(r.value_inputs.size());
  for (int i : r.value_inputs) {
    const ValueSlot* s = n.in[i];
    GE_ASSIGN_OR_RETURN(Tensor t, Tensor::Create(s->t.dtype, s->t.shape.ToDims()));
    if (t.nbytes() != 0) std::memcpy(t.raw_data(), s->t.data, t.nbytes());
    e->value_tensors.push_back(std::move(t));
    req.const_inputs[i] = &e->value_tensors.back();
  }
  for (size_t i = 0; i < n.out.size(); ++i) {
    const ValueSlot* s = n.out[i];
    if (s == nullptr) continue;
    e->out_shapes[i] = s->t.shape;
    TensorDesc d(s->t.dtype, Shape(s->t.shape.ToDims()));
    d.format = n.out_format[i];
    req.output_descs[i] = d;
  }
  GE_ASSIGN_OR_RETURN(e->kernel, exec::PrepareKernel(req, *n.engines));
  GE_ASSIGN_OR_RETURN(e->binding, e->kernel->NewBinding());
  e->fn = e->kernel->fn();
  return e;
}

}  // namespace

Status SelectKernel(const ComputeNode& n) {
  ComputeNode::Run& r = n.run;
  ++r.tick;
  for (auto& e : r.cache) {
    if (Matches(n, *e)) {
      e->last_use = r.tick;
      r.current = e.get();
      return Status::Ok();
    }
  }
  GE_ASSIGN_OR_RETURN(std::unique_ptr<PreparedEntry> e, Prepare(n));
  ++r.prepares;
  e->last_use = r.tick;
  if (r.cache.size() >= n.cache_capacity) {
    size_t victim = 0;
    for (size_t i = 1; i < r.cache.size(); ++i) {
      if (r.cache[i]->last_use < r.cache[victim]->last_use) victim = i;
    }
    r.cache[victim] = std::move(e);
    r.current = r.cache[victim].get();
  } else {
    r.cache.push_back(std::move(e));
    r.current = r.cache.back().get();
  }
  return Status::Ok();
}

namespace {

KernelStatus AllocMemory(const ComputeNode& n, ExecutionState* exec) {
  const ComputeNode::Run& r = n.run;
  if (r.data_dependent) return kStatusSuccess;
  Allocator* a = exec->allocator;
  for (size_t i = 0; i < n.out.size(); ++i) {
    ValueSlot* s = n.out[i];
    if (s == nullptr) continue;
    if (s->t.block != nullptr || s->kept) ReleaseSlot(s, a);
    StatusOr<MemBlock*> b = a->Malloc(r.out_bytes[i]);
    if (!b.ok()) return exec->SetError(b.status().WithContext("value '" + s->name + "'"));
    s->t.block = *b;
    s->t.data = (*b)->addr;
    s->t.bytes = r.out_bytes[i];
  }
  return kStatusSuccess;
}

KernelStatus Launch(const ComputeNode& n, ExecutionState* exec) {
  ComputeNode::Run& r = n.run;
  if (r.data_dependent) {
    Status s = RunRefNode(n.ref);
    return s.ok() ? kStatusSuccess : exec->SetError(std::move(s));
  }
  if (r.current == nullptr) {
    Status s = SelectKernel(n);
    if (!s.ok()) return exec->SetError(std::move(s));
  }
  PreparedEntry& e = *r.current;
  exec::KernelBinding& b = *e.binding;
  for (size_t i = 0; i < n.in.size(); ++i) b.io.inputs[i] = n.in[i] != nullptr ? n.in[i]->t.data : nullptr;
  for (size_t i = 0; i < n.out.size(); ++i) b.io.outputs[i] = n.out[i] != nullptr ? n.out[i]->t.data : nullptr;
  rt::TaskContext tc;
  tc.pool = exec->pool;
  Status s = e.fn(&b, tc);
  if (!s.ok()) return exec->SetError(std::move(s));
  return kStatusSuccess;
}

}  // namespace

KernelStatus AllocMemoryKernel(KernelContext* c) { return AllocMemory(c->data<ComputeNode>(), c->exec); }

KernelStatus LaunchKernel(KernelContext* c) { return Launch(c->data<ComputeNode>(), c->exec); }

KernelStatus PrepareStaticKernel(KernelContext* c) {
  const ComputeNode& n = c->data<ComputeNode>();
  Status s = InferNode(n);
  if (s.ok() && !n.run.data_dependent) s = SelectKernel(n);
  return s.ok() ? kStatusSuccess : c->exec->SetError(std::move(s));
}

namespace {

KernelStatus ComputeSlow(KernelContext* c, ComputeRecord* rec) {
  const ComputeNode& n = *rec->node;
  rec->fn = nullptr;  // until SyncRecord: a failure leaves nothing for the fast path
  if (n.dynamic) {
    Status s = InferNode(n);
    if (!s.ok()) return c->exec->SetError(std::move(s));
  }
  if (AllocMemory(n, c->exec) != kStatusSuccess || Launch(n, c->exec) != kStatusSuccess) return kStatusFailed;
  for (ValueSlot* s : n.free_after) ReleaseSlot(s, c->exec->allocator);
  SyncRecord(rec);
  return kStatusSuccess;
}

}  // namespace

namespace {

KernelStatus ComputeBody(KernelContext* c, ComputeRecord* rec);

bool MemoInputsUnchanged(const ComputeNode& n) {
  const ComputeNode::Run& r = n.run;
  for (size_t i = 0; i < n.in.size(); ++i) {
    const ValueSlot* s = n.in[i];
    if (s == nullptr) continue;
    if (s->t.version != r.memo_versions[i]) return false;
    if (!n.shape_only && s->value_gen != r.memo_gens[i]) return false;
  }
  return true;
}

// A shape-derived node: skipped (only its dead inputs freed) while its inputs repeat, else computed and recorded.
KernelStatus ComputeMemo(KernelContext* c, ComputeRecord* rec) {
  const ComputeNode& n = *rec->node;
  ComputeNode::Run& r = n.run;
  if (r.memo_valid && MemoInputsUnchanged(n)) {
    ++r.memo_skips;
    for (ValueSlot* s : n.free_after) ReleaseSlot(s, c->exec->allocator);
    return kStatusSuccess;
  }
  r.memo_valid = false;
  const KernelStatus st = ComputeBody(c, rec);
  if (st != kStatusSuccess) return st;
  r.memo_versions.assign(n.in.size(), 0);
  r.memo_gens.assign(n.in.size(), 0);
  for (size_t i = 0; i < n.in.size(); ++i) {
    if (n.in[i] == nullptr) continue;
    r.memo_versions[i] = n.in[i]->t.version;
    r.memo_gens[i] = n.in[i]->value_gen;
  }
  for (ValueSlot* s : n.out) {
    if (s != nullptr) ++s->value_gen;
  }
  r.memo_valid = true;
  return kStatusSuccess;
}

}  // namespace

KernelStatus ComputeKernel(KernelContext* c) {
  // The record is this node's run state (see compute_record.h), not shared with any other kernel.
  auto* rec = static_cast<ComputeRecord*>(const_cast<void*>(c->node_data));
  if (rec->memo) return ComputeMemo(c, rec);
  return ComputeBody(c, rec);
}

namespace {

KernelStatus ComputeBody(KernelContext* c, ComputeRecord* rec) {
  if (rec->fn == nullptr) return ComputeSlow(c, rec);
  // What the kernel two Compute nodes ahead will touch beyond its record (the executor fetched the record).
  ComputeRecord* ahead = rec->next()->next();
  // (All read from its header line; its io arrays are written: fetched for ownership.)
  __builtin_prefetch(ahead->binding);
  __builtin_prefetch(ahead->kernel);
  __builtin_prefetch(ahead->io_in, 1);
  __builtin_prefetch(ahead->io_out, 1);
  ValueSlot** in = rec->in();
  const uint32_t* versions = rec->in_versions();
  for (size_t i = 0; i < rec->num_in; ++i) {
    if (in[i] != nullptr && in[i]->t.version != versions[i]) return ComputeSlow(c, rec);
  }
  Allocator* a = c->exec->allocator;
  AllocatorFront* front = c->exec->front;
  ValueSlot** out = rec->out();
  const size_t* out_bytes = rec->out_bytes();
  for (size_t i = 0; i < rec->num_out; ++i) {
    ValueSlot* s = out[i];
    if (s == nullptr) continue;
    if (s->t.block != nullptr || s->kept) ReleaseSlot(s, a, front);
    MemBlock* block = front != nullptr ? front->TryTake(out_bytes[i]) : nullptr;
    if (block == nullptr) {
      StatusOr<MemBlock*> b = a->Malloc(out_bytes[i]);
      if (!b.ok()) return c->exec->SetError(b.status().WithContext("value '" + s->name + "'"));
      block = *b;
    }
    s->t.block = block;
    s->t.data = block->addr;
    s->t.bytes = out_bytes[i];
    rec->io_out[i] = s->t.data;
  }
  for (size_t i = 0; i < rec->num_in; ++i) rec->io_in[i] = in[i] != nullptr ? in[i]->t.data : nullptr;
  rt::TaskContext tc;
  tc.pool = c->exec->pool;
  Status st = rec->fn(rec->binding, tc);
  if (!st.ok()) return c->exec->SetError(std::move(st));
  ValueSlot** frees = rec->frees();
  for (size_t i = 0; i < rec->num_free; ++i) ReleaseSlot(frees[i], a, front);
  return kStatusSuccess;
}

}  // namespace

KernelStatus FreeMemoryKernel(KernelContext* c) {
  const SlotList& l = c->data<SlotList>();
  for (ValueSlot* s : l.slots) ReleaseSlot(s, c->exec->allocator);
  return kStatusSuccess;
}

}  // namespace ge::runtime::v2
