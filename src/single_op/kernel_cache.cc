#include "single_op/kernel_cache.h"

#include <cstring>

namespace ge::single_op {
namespace {

enum class InputKind : char { kOmitted = 'o', kRuntime = 'r', kConstant = 'c' };

template <typename T>
void AppendPod(T v, std::string* key) {
  char buf[sizeof(T)];
  std::memcpy(buf, &v, sizeof(T));
  key->append(buf, sizeof(T));
}

void AppendShape(InputKind kind, DataType dt, const std::vector<int64_t>& dims, std::string* key) {
  key->push_back(static_cast<char>(kind));
  AppendPod(static_cast<int32_t>(dt), key);
  AppendPod(static_cast<uint32_t>(dims.size()), key);
  for (int64_t d : dims) AppendPod(d, key);
}

}  // namespace

void AppendKey(const OpTensorDesc& d, std::string* key) {
  if (d.is_omitted()) {
    key->push_back(static_cast<char>(InputKind::kOmitted));
  } else if (d.is_constant()) {
    // The desc's own dtype/dims too: a desc that contradicts its constant must not share a key with one that agrees.
    AppendShape(InputKind::kConstant, d.dtype, d.dims, key);
    AppendShape(InputKind::kConstant, d.value.dtype(), d.value.dims(), key);
    key->append(static_cast<const char*>(d.value.raw_data()), d.value.nbytes());
  } else {
    AppendShape(InputKind::kRuntime, d.dtype, d.dims, key);
  }
}

void AppendKey(const Tensor& t, std::string* key) {
  if (!t.valid()) {
    key->push_back(static_cast<char>(InputKind::kOmitted));
  } else {
    AppendShape(InputKind::kRuntime, t.dtype(), t.dims(), key);
  }
}

PreparedOp* KernelCache::Find(std::string_view key) {
  auto it = index_.find(key);
  if (it == index_.end()) {
    ++misses_;
    return nullptr;
  }
  ++hits_;
  if (it->second != lru_.begin()) lru_.splice(lru_.begin(), lru_, it->second);
  return it->second->op.get();
}

PreparedOp* KernelCache::Insert(std::string_view key, std::unique_ptr<PreparedOp> op) {
  while (lru_.size() >= capacity_) {
    index_.erase(std::string_view(lru_.back().key));
    lru_.pop_back();
    ++evictions_;
  }
  lru_.push_front(Entry{std::string(key), std::move(op)});
  index_.emplace(std::string_view(lru_.front().key), lru_.begin());
  return lru_.front().op.get();
}

}  // namespace ge::single_op
