#include "runtime/v2/stream_executor.h"

#include <algorithm>
#include <string>
#include <utility>

namespace ge::runtime::v2 {

StreamExecutor::StreamExecutor(StreamInstanceFactory factory, size_t max_streams)
    : factory_(std::move(factory)), max_streams_(std::max<size_t>(max_streams, 1)) {}

StatusOr<StreamExecutor::Lease> StreamExecutor::Acquire(const void* stream) {
  std::shared_ptr<Slot> slot;
  {
    std::lock_guard<std::mutex> lk(mu_);
    auto it = instances_.find(stream);
    if (it != instances_.end()) {
      it->second.last_use = ++tick_;
      slot = it->second.slot;
    }
  }
  if (slot == nullptr) {
    // Made outside mu_ (a factory may take a while); a thread that raced us to the same stream wins and this
    // instance is dropped. |fresh| and |evicted| die after mu_ is released.
    if (!factory_) return FailedPrecondition("stream executor has no instance factory");
    GE_ASSIGN_OR_RETURN(std::unique_ptr<StreamInstance> instance, factory_());
    if (instance == nullptr || instance->executor == nullptr) {
      return InvalidArgument("stream executor factory returned an instance without an executor");
    }
    auto fresh = std::make_shared<Slot>();
    fresh->instance = std::move(instance);
    std::shared_ptr<Slot> evicted;
    {
      std::lock_guard<std::mutex> lk(mu_);
      auto it = instances_.find(stream);
      if (it != instances_.end()) {
        it->second.last_use = ++tick_;
        slot = it->second.slot;
      } else {
        if (instances_.size() >= max_streams_) {
          evicted = EvictOneLocked();
          if (evicted == nullptr) {
            return ResourceExhausted("stream executor keeps at most " + std::to_string(max_streams_) +
                                     " streams and all are in use");
          }
        }
        instances_.emplace(stream, Entry{fresh, ++tick_});
        slot = fresh;
      }
    }
  }
  return Lease(std::move(slot));
}

std::shared_ptr<StreamExecutor::Slot> StreamExecutor::EvictOneLocked() {
  auto victim = instances_.end();
  for (auto it = instances_.begin(); it != instances_.end(); ++it) {
    // use_count 1: only the map holds it, and nobody can take it without mu_.
    if (it->second.slot.use_count() != 1) continue;
    if (victim == instances_.end() || it->second.last_use < victim->second.last_use) victim = it;
  }
  if (victim == instances_.end()) return nullptr;
  std::shared_ptr<Slot> slot = std::move(victim->second.slot);
  instances_.erase(victim);
  return slot;
}

bool StreamExecutor::Erase(const void* stream) {
  std::shared_ptr<Slot> slot;
  {
    std::lock_guard<std::mutex> lk(mu_);
    auto it = instances_.find(stream);
    if (it == instances_.end()) return false;
    slot = std::move(it->second.slot);
    instances_.erase(it);
  }
  // Wait for a lease taken before the erase; the instance dies with the last holder (normally here).
  std::lock_guard<std::mutex> wait(slot->run_mu);
  return true;
}

size_t StreamExecutor::size() const {
  std::lock_guard<std::mutex> lk(mu_);
  return instances_.size();
}

}  // namespace ge::runtime::v2
