// The dynamic form's cache: prepared ops by the key of their input descs, least recently used evicted first, never
// more than `capacity` held (an evicted op frees its graph, kernel and binding). Keys are byte strings built by
// AppendKey; a look-up with a reused key string allocates nothing. Not thread-safe (one per DynamicSingleOp).
#pragma once
#include <cstddef>
#include <cstdint>
#include <list>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "ge/single_op.h"
#include "single_op/prepared_op.h"

namespace ge::single_op {

// Key parts, one per op input: the input's kind (omitted, runtime, constant), dtype and dims, and for a constant
// its bytes (a shape operand's value decides the kernel as much as its dims do).
void AppendKey(const OpTensorDesc& d, std::string* key);
// A tensor as a runtime input; an invalid tensor is an omitted input.
void AppendKey(const Tensor& t, std::string* key);

class KernelCache {
 public:
  explicit KernelCache(size_t capacity) : capacity_(capacity < 1 ? 1 : capacity) {}
  KernelCache(const KernelCache&) = delete;
  KernelCache& operator=(const KernelCache&) = delete;

  // The op cached under `key`, now the most recently used; nullptr when absent. Counts a hit or a miss.
  PreparedOp* Find(std::string_view key);
  // Caches `op` under `key` (which must be absent), first evicting the least recently used op when full.
  PreparedOp* Insert(std::string_view key, std::unique_ptr<PreparedOp> op);

  size_t size() const { return lru_.size(); }
  size_t capacity() const { return capacity_; }
  uint64_t hits() const { return hits_; }
  uint64_t misses() const { return misses_; }
  uint64_t evictions() const { return evictions_; }

 private:
  struct Entry {
    std::string key;
    std::unique_ptr<PreparedOp> op;
  };
  size_t capacity_;
  std::list<Entry> lru_;  // front: most recently used; list nodes never move, so index_ may view their keys
  std::unordered_map<std::string_view, std::list<Entry>::iterator> index_;
  uint64_t hits_ = 0, misses_ = 0, evictions_ = 0;
};

}  // namespace ge::single_op
