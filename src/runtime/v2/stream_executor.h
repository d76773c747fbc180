// StreamExecutor (seed 002 §4.5; ge_facts.md §8 "ModelV2Executor"): one executor instance of a model per caller
// stream, so executions on different streams run concurrently while each graph instance runs one execution at a
// time. An instance (its own ExecuteGraph, ExecutionState and Executor, plus whatever the model adds by deriving)
// is made on a stream's first use by the factory the model supplies.
// Threading: every method is thread-safe. Acquire(stream) returns a lease that holds the instance's lock, so
// executions on one stream are serialized and Erase waits for a running one; streams are opaque keys (an
// rt::Stream*, or null for the caller's thread) that are never dereferenced.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <unordered_map>

#include "base/status.h"
#include "runtime/v2/executor.h"

namespace ge::runtime::v2 {

// What one stream runs. Members are destroyed executor first, then state, then graph.
struct StreamInstance {
  virtual ~StreamInstance() = default;
  std::unique_ptr<ExecuteGraph> graph;
  std::unique_ptr<ExecutionState> exec;
  std::unique_ptr<Executor> executor;  // bound to graph and exec
};

using StreamInstanceFactory = std::function<StatusOr<std::unique_ptr<StreamInstance>>()>;

class StreamExecutor {
 private:
  struct Slot {
    std::mutex run_mu;  // held by the lease
    std::unique_ptr<StreamInstance> instance;
  };

 public:
  // At most |max_streams| (>= 1) instances are kept; a new stream beyond that drops the least recently acquired
  // one that is not leased (ResourceExhausted when every one is).
  StreamExecutor(StreamInstanceFactory factory, size_t max_streams);
  StreamExecutor(const StreamExecutor&) = delete;
  StreamExecutor& operator=(const StreamExecutor&) = delete;

  // Exclusive use of one stream's instance while it lives. Move-only.
  class Lease {
   public:
    StreamInstance* operator->() const { return slot_->instance.get(); }
    StreamInstance& operator*() const { return *slot_->instance; }

   private:
    friend class StreamExecutor;
    explicit Lease(std::shared_ptr<Slot> slot) : slot_(std::move(slot)), lock_(slot_->run_mu) {}
    // Shared with the map, which may drop the slot (Erase, eviction) while it is leased; the lock is released
    // before the slot can go (members are destroyed in reverse order).
    std::shared_ptr<Slot> slot_;
    std::unique_lock<std::mutex> lock_;
  };

  // The instance of |stream|, made by the factory on first use (the factory's error otherwise; InvalidArgument if
  // it returns an instance without an executor). Blocks while another lease of the same stream is alive.
  StatusOr<Lease> Acquire(const void* stream);
  // Drops the instance of |stream|, after waiting for its lease to end; false if it had none.
  bool Erase(const void* stream);
  size_t size() const;

 private:
  struct Entry {
    std::shared_ptr<Slot> slot;
    uint64_t last_use = 0;
  };
  // Removes the least recently used entry that nobody holds and returns its slot (null when every entry is held).
  std::shared_ptr<Slot> EvictOneLocked();

  const StreamInstanceFactory factory_;
  const size_t max_streams_;
  mutable std::mutex mu_;  // guards the fields below; never held while a factory runs or an instance dies
  std::unordered_map<const void*, Entry> instances_;
  uint64_t tick_ = 0;
};

}  // namespace ge::runtime::v2
