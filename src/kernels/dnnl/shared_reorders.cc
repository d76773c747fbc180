#include "kernels/dnnl/shared_reorders.h"

#include <cstdlib>
#include <iterator>
#include <mutex>
#include <new>
#include <unordered_map>
#include <vector>

namespace ge::dnnl_kernels {

namespace {

struct Buffer {
  void* data = nullptr;
  std::shared_ptr<TensorStorage> source;  // pins the source address
  ~Buffer() { std::free(data); }
};

struct Entry {
  size_t source_bytes;
  dnnl::memory::desc from, to;
  std::weak_ptr<Buffer> buffer;
};

struct Registry {
  std::mutex mu;
  std::unordered_map<const void*, std::vector<Entry>> by_source;  // guarded by mu
  size_t inserts = 0;                                               // guarded by mu
};

Registry& Global() {
  static Registry* r = new Registry();  // never destroyed: kernels may outlive static teardown
  return *r;
}

}  // namespace

std::shared_ptr<void> SharedReorderedWeights(const Tensor& source, const dnnl::memory::desc& from,
                                             const dnnl::memory::desc& to, const std::function<void(void*)>& reorder) {
  Registry& r = Global();
  const void* key = source.raw_data();
  std::lock_guard<std::mutex> lk(r.mu);
  std::vector<Entry>& entries = r.by_source[key];
  for (auto it = entries.begin(); it != entries.end();) {
    std::shared_ptr<Buffer> live = it->buffer.lock();
    if (live == nullptr) {
      it = entries.erase(it);
      continue;
    }
    if (it->source_bytes == source.nbytes() && it->from == from && it->to == to) {
      return std::shared_ptr<void>(live, live->data);
    }
    ++it;
  }
  auto buffer = std::make_shared<Buffer>();
  const size_t bytes = (to.get_size() + 63) / 64 * 64;
  buffer->data = std::aligned_alloc(64, bytes == 0 ? 64 : bytes);
  if (buffer->data == nullptr) throw std::bad_alloc();
  buffer->source = source.storage();
  reorder(buffer->data);
  entries.push_back(Entry{source.nbytes(), from, to, buffer});
  if (++r.inserts % 256 == 0) {  // forget sources no kernel uses any more
    for (auto it = r.by_source.begin(); it != r.by_source.end();) {
      bool live = false;
      for (const Entry& e : it->second) live = live || !e.buffer.expired();
      it = live ? std::next(it) : r.by_source.erase(it);
    }
  }
  return std::shared_ptr<void>(buffer, buffer->data);
}

size_t SharedReorderedWeightsLive() {
  Registry& r = Global();
  std::lock_guard<std::mutex> lk(r.mu);
  size_t n = 0;
  for (const auto& [key, entries] : r.by_source) {
    for (const Entry& e : entries) n += e.buffer.expired() ? 0 : 1;
  }
  return n;
}

}  // namespace ge::dnnl_kernels
