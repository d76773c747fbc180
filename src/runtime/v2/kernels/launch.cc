// AllocMemory and Launch of a compute node, and the per-node cache of prepared kernels (bounded, least recently
// used evicted; keyed by input and output shapes, plus the values a value-dependent node was prepared with).
// The fast path when shapes repeat: one allocator call per output and the kernel's task function, no look-up.
#include <algorithm>
#include <cstring>

#include "runtime/v2/allocator.h"
#include "runtime/v2/kernels/compute_record.h"
#include "runtime/v2/kernels/node_data.h"

namespace ge::runtime::v2 {
namespace {

// `shape` equals `key` except where `varying` has a bit set, where any positive dim is accepted.
bool MatchesPattern(const RtShape& shape, const RtShape& key, uint32_t varying) {
  if (shape.rank != key.rank) return false;
  for (int d = 0; d < shape.rank; ++d) {
    if ((varying >> d) & 1u) {
      if (shape.dims[d] <= 0) return false;
    } else if (shape.dims[d] != key.dims[d]) {
      return false;
    }
  }
  return true;
}

bool MatchesAgnostic(const ComputeNode& n, const PreparedEntry& e) {
  for (size_t i = 0; i < n.in.size(); ++i) {
    if (n.in[i] != nullptr && !MatchesPattern(n.in[i]->t.shape, e.in_shapes[i], e.in_varying[i])) return false;
  }
  return true;
}

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

// Bit d set where the IR desc's dim d is unknown (the graph's symbolic dims); every dim when the IR does not know
// the rank (a graph lowered without shape inference).
uint32_t VaryingDims(const TensorDesc& ir, const RtShape& run) {
  if (ir.shape.unknown_rank()) return (uint32_t{1} << run.rank) - 1;
  if (ir.shape.rank() != run.rank) return 0;
  uint32_t bits = 0;
  for (int d = 0; d < run.rank; ++d) {
    if (ir.shape.dims()[d] == kUnknownDim) bits |= 1u << d;
  }
  return bits;
}

std::vector<bool> ToMask(uint32_t bits, int rank) {
  std::vector<bool> mask(static_cast<size_t>(rank));
  for (int d = 0; d < rank; ++d) mask[d] = ((bits >> d) & 1u) != 0;
  return mask;
}

// allow_agnostic: the engines may answer with a shape-agnostic kernel (when the node asks for them at all).
StatusOr<std::unique_ptr<PreparedEntry>> Prepare(const ComputeNode& n, bool allow_agnostic) {
  const ComputeNode::Run& r = n.run;
  auto e = std::make_unique<PreparedEntry>();
  e->in_shapes.resize(n.in.size());
  e->out_shapes.resize(n.out.size());
  exec::PrepareRequest req = exec::MakeRequest(*n.node, n.settings);
  // Dims the graph leaves unknown may be served by one shape-agnostic kernel, which then reads the value inputs
  // of a value-dependent node from their slots (PrepareRequest::varying_values): its entry matches any values.
  if (n.shape_agnostic && allow_agnostic) {
    bool any_varying = false;
    req.varying_input_dims.resize(n.in.size());
    for (size_t i = 0; i < n.in.size(); ++i) {
      if (n.in[i] == nullptr) continue;
      // An empty value (a 0 dim) gets a kernel for its shape only: it must not serve later, non-empty shapes.
      if (n.in[i]->t.shape.NumElements() == 0) {
        any_varying = false;
        break;
      }
      // A constant's dims never vary (a value input's values do, and so may its dims).
      const bool constant = req.const_inputs[i] != nullptr &&
                            std::find(r.value_inputs.begin(), r.value_inputs.end(), static_cast<int>(i)) ==
                                r.value_inputs.end();
      const uint32_t bits = constant ? 0 : VaryingDims(req.input_descs[i], n.in[i]->t.shape);
      req.varying_input_dims[i] = ToMask(bits, n.in[i]->t.shape.rank);
      any_varying = any_varying || bits != 0;
    }
    if (!any_varying) {
      req.varying_input_dims.clear();
    } else if (!r.value_inputs.empty()) {
      req.varying_values.assign(n.in.size(), false);
      for (int i : r.value_inputs) req.varying_values[i] = true;
    }
  }
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
  if (e->kernel->shape_agnostic()) {
    const std::vector<std::vector<bool>>& runtime = e->kernel->runtime_input_dims();
    e->in_varying.assign(n.in.size(), 0);
    for (size_t i = 0; i < n.in.size() && i < runtime.size(); ++i) {
      for (size_t d = 0; d < runtime[i].size() && d < static_cast<size_t>(kMaxRtRank); ++d) {
        if (runtime[i][d]) e->in_varying[i] |= 1u << d;
      }
    }
    // The slots' shapes live in the node's value slots: the kernel reads them there on every run.
    exec::KernelIo& io = e->binding->io;
    for (size_t i = 0; i < n.in.size(); ++i) io.input_dims[i] = n.in[i] != nullptr ? n.in[i]->t.shape.dims : nullptr;
    for (size_t i = 0; i < n.out.size(); ++i) {
      io.output_dims[i] = n.out[i] != nullptr ? n.out[i]->t.shape.dims : nullptr;
    }
  }
  return e;
}

}  // namespace

namespace {

// Puts |e| in the node's cache (evicting the least recently used entry, a specialized one before a shape-agnostic
// one) and makes it current.
void Insert(const ComputeNode& n, std::unique_ptr<PreparedEntry> e) {
  ComputeNode::Run& r = n.run;
  e->last_use = r.tick;
  if (r.cache.size() < n.cache_capacity) {
    r.cache.push_back(std::move(e));
    r.current = r.cache.back().get();
    return;
  }
  size_t victim = r.cache.size();
  for (size_t i = 0; i < r.cache.size(); ++i) {
    const bool agnostic = !r.cache[i]->in_varying.empty();
    if (agnostic && r.cache.size() > 1) continue;
    if (victim == r.cache.size() || r.cache[i]->last_use < r.cache[victim]->last_use) victim = i;
  }
  if (victim == r.cache.size()) victim = 0;
  r.cache[victim] = std::move(e);
  r.current = r.cache[victim].get();
}

}  // namespace

Status SelectKernel(const ComputeNode& n) {
  ComputeNode::Run& r = n.run;
  ++r.tick;
  r.specialize_next = false;
  r.agnostic_runs = 0;
  // A kernel prepared for exactly these descs first, then a shape-agnostic one.
  PreparedEntry* agnostic = nullptr;
  for (auto& e : r.cache) {
    if (!e->in_varying.empty()) {
      if (agnostic == nullptr && MatchesAgnostic(n, *e)) agnostic = e.get();
      continue;
    }
    if (Matches(n, *e)) {
      e->last_use = r.tick;
      r.current = e.get();
      return Status::Ok();
    }
  }
  if (agnostic != nullptr) {
    agnostic->last_use = r.tick;
    r.current = agnostic;
    r.specialize_next = agnostic->kernel->prefers_specialized();
    return Status::Ok();
  }
  GE_ASSIGN_OR_RETURN(std::unique_ptr<PreparedEntry> e, Prepare(n, /*allow_agnostic=*/true));
  ++r.prepares;
  const bool prefers_specialized = e->kernel->shape_agnostic() && e->kernel->prefers_specialized();
  Insert(n, std::move(e));
  r.specialize_next = prefers_specialized;
  return Status::Ok();
}

namespace {

// The current kernel is a shape-agnostic one and the node's descs repeated: prepare one for exactly them.
Status Specialize(const ComputeNode& n) {
  ComputeNode::Run& r = n.run;
  r.specialize_next = false;
  ++r.tick;
  GE_ASSIGN_OR_RETURN(std::unique_ptr<PreparedEntry> e, Prepare(n, /*allow_agnostic=*/false));
  ++r.prepares;
  Insert(n, std::move(e));
  return Status::Ok();
}

}  // namespace

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
  } else if (r.specialize_next && ++r.agnostic_runs + 1 >= ComputeNode::kSpecializeAfterRuns) {
    Status s = Specialize(n);
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
  bool took_input = false;
  for (size_t i = 0; i < rec->num_out; ++i) {
    ValueSlot* s = out[i];
    if (s == nullptr) continue;
    if (s->t.block != nullptr || s->kept) ReleaseSlot(s, a, front);
    if (i == 0 && rec->inplace_in >= 0 && (rec->view || rec->inplace_kind != ComputeRecord::kTransposeView)) {
      // The dying input's block becomes the output's; its data pointer stays set for the kernel's read, and the
      // free below finds no block to free.
      ValueSlot* src = in[rec->inplace_in];
      if (src->t.block != nullptr && !src->kept && src->t.bytes == out_bytes[0]) {
        s->t.block = src->t.block;
        s->t.data = src->t.data;
        s->t.bytes = out_bytes[0];
        src->t.block = nullptr;
        rec->io_out[0] = s->t.data;
        took_input = true;
        ++c->exec->inplace_takes;
        continue;
      }
    }
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
  if (!(took_input && rec->view)) {  // a view that took its input's block has its bytes already
    rt::TaskContext tc;
    tc.pool = c->exec->pool;
    Status st = rec->fn(rec->binding, tc);
    if (!st.ok()) return c->exec->SetError(std::move(st));
  }
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
