#include "runtime/v2/execution_context.h"

#include <cstring>

#include "runtime/v2/arena_allocator.h"
#include "runtime/v2/lowering/value_slot.h"

namespace ge::runtime::v2 {

Status ExecutionContext::BindInputs(const std::vector<Value>& inputs) {
  const LoweredGraph& g = lowered->main;
  for (size_t i = 0; i < inputs.size(); ++i) {
    ValueSlot* s = g.inputs[i];
    if (s->boxed_kind) {
      s->boxed = inputs[i];
    } else {
      GE_RETURN_IF_ERROR(SetSlotTensor(s, inputs[i].tensor));
    }
  }
  return Status::Ok();
}

Status ExecutionContext::CollectOutputs(std::vector<Value>* outputs) {
  const LoweredGraph& g = lowered->main;
  outputs->resize(g.outputs.size());
  for (size_t i = 0; i < g.outputs.size(); ++i) {
    const ValueSlot& s = *g.outputs[i];
    Value& out = (*outputs)[i];
    if (s.boxed_kind || (s.keep.valid() && s.keep.raw_data() == s.t.data)) {
      out = SlotValue(s);
      continue;
    }
    Dims dims = s.t.shape.ToDims();
    // The caller's previous output, when nobody else holds it, is reused whenever its storage is large enough (as
    // a std::vector keeps its capacity): under shape churn outputs then stop allocating once the largest was seen.
    const bool reuse = out.is_tensor() && out.tensor.valid() && out.tensor.storage().use_count() == 1 &&
                       out.tensor.dtype() == s.t.dtype && s.t.dtype != DataType::kString &&
                       out.tensor.byte_offset() == 0 && out.tensor.storage()->nbytes() >= s.t.bytes;
    if (reuse) {
      if (out.tensor.dims() != dims) out.tensor = Tensor(s.t.dtype, std::move(dims), out.tensor.storage());
    } else {
      GE_ASSIGN_OR_RETURN(Tensor t, Tensor::Create(s.t.dtype, dims));
      out = Value(std::move(t));
    }
    if (s.t.bytes != 0) std::memcpy(out.tensor.raw_data(), s.t.data, s.t.bytes);
  }
  return Status::Ok();
}

void ExecutionContext::ReleaseRun(bool failed) {
  Allocator* a = allocator.get();
  // After a successful run FreeMemory released everything but the outputs; after a failure anything may be held.
  if (failed) {
    for (ValueSlot* s : lowered->main.run_owned) ReleaseSlot(s, a);
  } else {
    for (ValueSlot* s : lowered->main.outputs) {
      if (!s->persistent) ReleaseSlot(s, a);
    }
  }
  for (ValueSlot* s : lowered->main.inputs) ReleaseSlot(s, a);
  ReleaseLargeMemoValues(lowered.get());
  if (arena != nullptr) arena->EndRun();
}

void ContextPool::Add(std::unique_ptr<ExecutionContext> context) {
  std::lock_guard<std::mutex> lk(mu_);
  idle_.push_back(context.get());
  all_.push_back(std::move(context));
  cv_.notify_one();
}

ContextPool::Lease::~Lease() {
  if (context_ != nullptr) pool_->Return(context_);
}

void ContextPool::Return(ExecutionContext* context) {
  context->mu.unlock();
  std::lock_guard<std::mutex> lk(mu_);
  idle_.push_back(context);
  --leased_;
  cv_.notify_all();  // an Acquire waiting for a context, or Close waiting for the last lease
}

ExecutionContext* ContextPool::TakeIdleLocked(const void* affinity) {
  if (idle_.empty()) return nullptr;
  auto it = idle_.end() - 1;  // the most recently used: its caches and memory are warm
  if (affinity != nullptr) {
    for (auto i = idle_.begin(); i != idle_.end(); ++i) {
      if ((*i)->affinity == affinity) it = i;
    }
  }
  ExecutionContext* c = *it;
  idle_.erase(it);
  c->affinity = affinity;
  return c;
}

StatusOr<ContextPool::Lease> ContextPool::Acquire(const void* affinity) {
  std::unique_lock<std::mutex> lk(mu_);
  for (;;) {
    if (closed_) return FailedPrecondition("the model was unloaded");
    if (ExecutionContext* c = TakeIdleLocked(affinity)) {
      ++leased_;
      lk.unlock();
      c->mu.lock();  // contended only by a statistics reader
      return Lease(this, c);
    }
    if (all_.size() + making_ < max_) break;
    cv_.wait(lk);
  }
  ++making_;
  lk.unlock();
  StatusOr<std::unique_ptr<ExecutionContext>> made = factory_();
  lk.lock();
  --making_;
  if (!made.ok()) {
    cv_.notify_all();
    return made.status();
  }
  ExecutionContext* c = made->get();
  c->affinity = affinity;
  all_.push_back(std::move(*made));
  if (closed_) {
    // Unload started while this one was being made: hand it back unused.
    idle_.push_back(c);
    cv_.notify_all();
    return FailedPrecondition("the model was unloaded");
  }
  ++leased_;
  lk.unlock();
  c->mu.lock();
  return Lease(this, c);
}

void ContextPool::Close() {
  std::unique_lock<std::mutex> lk(mu_);
  closed_ = true;
  cv_.notify_all();  // waiting Acquires fail
  cv_.wait(lk, [this] { return leased_ == 0 && making_ == 0; });
}

void ContextPool::ForEach(const std::function<void(ExecutionContext&)>& fn) const {
  std::vector<ExecutionContext*> contexts;
  {
    std::lock_guard<std::mutex> lk(mu_);
    for (const auto& c : all_) contexts.push_back(c.get());
  }
  for (ExecutionContext* c : contexts) {
    std::lock_guard<std::mutex> lk(c->mu);
    fn(*c);
  }
}

size_t ContextPool::size() const {
  std::lock_guard<std::mutex> lk(mu_);
  return all_.size();
}

}  // namespace ge::runtime::v2
