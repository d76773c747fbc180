// What a runtime kernel of an execute graph sees (GE's KernelRunContext): its input chains (the producers'
// outputs), its own output chains, the immutable data lowering prepared for it, and the running execution.
// Runtime kernels are plain functions: KernelStatus fn(KernelContext*); kStatusSuccess or stop (after
// ExecutionState::SetError).
#pragma once
#include <atomic>
#include <cstdint>
#include <mutex>

#include "base/status.h"
#include "runtime/v2/chain.h"

namespace ge::rt {
class IntraOpPool;
}  // namespace ge::rt

namespace ge::runtime::v2 {

class Allocator;
class AllocatorFront;

using KernelStatus = uint32_t;
inline constexpr KernelStatus kStatusSuccess = 0;
inline constexpr KernelStatus kStatusFailed = 1;

// One execution of a graph: what its kernels share. Owned by the executor instance running it.
class ExecutionState {
 public:
  Allocator* allocator = nullptr;         // memory for values whose size is known only at run time
  // |allocator| itself when it is an AllocatorFront (single-thread executors): kernels on the hot path take and
  // return small blocks through its inline fast paths, without a virtual call. null: none.
  AllocatorFront* front = nullptr;
  const std::atomic<bool>* stop = nullptr;  // set: stop between nodes (abort)
  rt::IntraOpPool* pool = nullptr;         // intra-op threads for Launch kernels; null: each runs serially
  // Outputs that took over a dying input's block (fused Compute kernels, single-thread executors only): for
  // statistics and tests.
  uint64_t inplace_takes = 0;
  // Records the first error (thread-safe: multi-thread executors run kernels concurrently); returns kStatusFailed.
  KernelStatus SetError(Status s) {
    std::lock_guard<std::mutex> lk(mu_);
    if (error_.ok()) error_ = std::move(s);
    return kStatusFailed;
  }
  Status TakeError() {
    std::lock_guard<std::mutex> lk(mu_);
    Status s = std::move(error_);
    error_ = Status::Ok();
    return s;
  }

 private:
  std::mutex mu_;
  Status error_;
};

struct KernelContext {
  uint32_t num_inputs = 0;
  uint32_t num_outputs = 0;
  Chain* const* inputs = nullptr;  // num_inputs pointers to producers' output chains
  Chain* outputs = nullptr;        // num_outputs chains owned by the graph
  const void* node_data = nullptr; // lowering's immutable data for this node (owned by the graph)
  ExecutionState* exec = nullptr;  // the running execution

  Chain& input(uint32_t i) const { return *inputs[i]; }
  Chain& output(uint32_t i) const { return outputs[i]; }
  template <typename T>
  const T& data() const { return *static_cast<const T*>(node_data); }
};

using KernelFn = KernelStatus (*)(KernelContext*);

}  // namespace ge::runtime::v2
