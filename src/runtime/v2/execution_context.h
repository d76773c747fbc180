// ExecutionContext: everything one execution of a ModelV2 writes (seed 002 §4.3, as the sink runtime's execution
// contexts): its own lowering of the model (value slots, per-node prepared-kernel caches and memoized values,
// ExecutionState), its own allocator stack (the single-thread front and the arena assume one execution at a time)
// and its own Main executor. What contexts share is immutable while they run: the IR, the static islands (each a
// thread-safe SinkModel), the engines, the variable store (thread-safe, seed 000: the variables' bytes are not
// guarded, as in GE).
//
// ContextPool: the contexts of one model, at most |max| of them. The first is made at load; another is made by the
// factory when an execution finds every existing one in use (executions first overlap), so a model never run from
// two threads pays for one context only.
// Threading: ContextPool's methods are thread-safe. A Lease gives its holder exclusive use of one context and holds
// that context's |mu|; ForEach takes each context's |mu| in turn, so statistics never read a context while an
// execution writes it. The pool's own mutex is never held while a context runs or is made.
#pragma once
#include <condition_variable>
#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

#include "base/status.h"
#include "base/value.h"
#include "runtime/v2/allocator.h"
#include "runtime/v2/executor.h"
#include "runtime/v2/lowering/lowering.h"

namespace ge::runtime::v2 {

class ArenaAllocator;

struct ExecutionContext {
  std::mutex mu;  // held by the execution using the context and by readers of its statistics
  // Members are destroyed executor first, then the lowered graphs (their slots hold allocator memory), then the
  // allocator.
  std::unique_ptr<Allocator> allocator;
  ArenaAllocator* arena = nullptr;  // in allocator's chain; null without a device
  std::unique_ptr<LoweredModel> lowered;
  std::unique_ptr<Executor> executor;  // Main, bound to lowered->main.graph and lowered->state
  // The affinity key (a caller's stream) of the last lease; guarded by the pool's mutex.
  const void* affinity = nullptr;

  // Puts |inputs| (already checked against the model's declarations) into Main's input slots.
  Status BindInputs(const std::vector<Value>& inputs);
  // The graph outputs at their run-time shapes (a tensor already in *outputs is reused when nobody else holds it,
  // its dtype repeats and its storage is large enough).
  Status CollectOutputs(std::vector<Value>* outputs);
  // Returns what the run held to the allocator (after a failure: everything the graph's nodes filled).
  void ReleaseRun(bool failed);
};

class ContextPool {
 public:
  using Factory = std::function<StatusOr<std::unique_ptr<ExecutionContext>>()>;
  // |max| >= 1 contexts at most; |factory| makes the second and later ones.
  ContextPool(size_t max, Factory factory) : max_(max < 1 ? 1 : max), factory_(std::move(factory)) {}
  ContextPool(const ContextPool&) = delete;
  ContextPool& operator=(const ContextPool&) = delete;

  // Adds a context made by the owner (the first, at load).
  void Add(std::unique_ptr<ExecutionContext> context);

  class Lease {
   public:
    Lease(Lease&& other) noexcept : pool_(other.pool_), context_(other.context_) { other.context_ = nullptr; }
    Lease& operator=(Lease&&) = delete;
    ~Lease();
    ExecutionContext& operator*() const { return *context_; }
    ExecutionContext* operator->() const { return context_; }

   private:
    friend class ContextPool;
    Lease(ContextPool* pool, ExecutionContext* context) : pool_(pool), context_(context) {}
    ContextPool* pool_;
    ExecutionContext* context_;  // locked (its mu) while leased
  };

  // An idle context (with a non-null |affinity|, e.g. an rt::Stream*, the one that key leased last if it is idle,
  // so that a stream's executions keep their warm caches; otherwise the most recently returned one); else a new one
  // from the factory while fewer than max exist; else waits for one to come back. FailedPrecondition once closed;
  // the factory's error when it fails (the pool is unchanged then).
  StatusOr<Lease> Acquire(const void* affinity = nullptr);
  // Refuses later Acquires and waits for every lease to end (and every context being made). Idempotent.
  void Close();
  // Calls |fn| on every context, holding that context's mu (waiting for an execution running on it).
  void ForEach(const std::function<void(ExecutionContext&)>& fn) const;
  size_t size() const;

 private:
  void Return(ExecutionContext* context);
  // Takes an idle context (the one |affinity| leased last, if idle) under mu_; null when none is idle.
  ExecutionContext* TakeIdleLocked(const void* affinity);

  const size_t max_;
  const Factory factory_;
  mutable std::mutex mu_;  // guards the fields below
  std::condition_variable cv_;
  std::vector<std::unique_ptr<ExecutionContext>> all_;  // only grows; pointers stay valid
  std::vector<ExecutionContext*> idle_;
  size_t making_ = 0;  // contexts the factory is making (counted against max_)
  size_t leased_ = 0;
  bool closed_ = false;
};

}  // namespace ge::runtime::v2
