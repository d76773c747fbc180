#include "base/trace_recorder.h"

#include <algorithm>

namespace ge::trace {

TraceRecorder::TraceRecorder(size_t capacity, std::string process_name)
    : origin_(std::chrono::steady_clock::now()),
      capacity_(capacity),
      process_name_(std::move(process_name)),
      chunks_(new std::atomic<KernelRecord*>[capacity / kChunk + 1]) {
  for (size_t i = 0; i < capacity_ / kChunk + 1; ++i) chunks_[i].store(nullptr, std::memory_order_relaxed);
}

TraceRecorder::~TraceRecorder() {
  for (size_t i = 0; i < capacity_ / kChunk + 1; ++i) delete[] chunks_[i].load(std::memory_order_relaxed);
}

// The chunk holding slot |index| (< capacity_), allocated by the first thread that needs it; a thread that loses
// the race frees its own allocation.
TraceRecorder::KernelRecord* TraceRecorder::ChunkFor(size_t index) {
  std::atomic<KernelRecord*>& slot = chunks_[index / kChunk];
  KernelRecord* chunk = slot.load(std::memory_order_acquire);
  if (chunk != nullptr) return chunk;
  auto* fresh = new KernelRecord[kChunk];
  if (slot.compare_exchange_strong(chunk, fresh, std::memory_order_acq_rel)) return fresh;
  delete[] fresh;
  return chunk;
}

void TraceRecorder::AddKernelSlice(int track, const TraceLabel* label, int64_t start_ns, int64_t duration_ns) {
  const size_t index = next_kernel_.fetch_add(1, std::memory_order_relaxed);
  if (index >= capacity_) {
    dropped_.fetch_add(1, std::memory_order_relaxed);
    return;
  }
  ChunkFor(index)[index % kChunk] = KernelRecord{label, start_ns, duration_ns, static_cast<int32_t>(track)};
}

void TraceRecorder::AddSlice(int track, std::string name, std::string category, int64_t start_ns, int64_t duration_ns,
                             std::string args_json) {
  std::lock_guard<std::mutex> lk(mu_);
  if (phases_.size() >= capacity_) {
    dropped_.fetch_add(1, std::memory_order_relaxed);
    return;
  }
  TraceSlice s;
  s.track = track;
  s.start_ns = start_ns;
  s.duration_ns = duration_ns;
  s.name = std::move(name);
  s.category = std::move(category);
  s.args_json = std::move(args_json);
  phases_.push_back(std::move(s));
}

void TraceRecorder::NameTrack(int track, std::string name) {
  std::lock_guard<std::mutex> lk(mu_);
  tracks_[track] = std::move(name);
}

std::vector<TraceSlice> TraceRecorder::Snapshot() const {
  const size_t kernels = std::min(next_kernel_.load(std::memory_order_acquire), capacity_);
  std::vector<TraceSlice> out;
  out.reserve(kernels);
  for (size_t i = 0; i < kernels; ++i) {
    const KernelRecord* chunk = chunks_[i / kChunk].load(std::memory_order_acquire);
    if (chunk == nullptr) continue;
    const KernelRecord& r = chunk[i % kChunk];
    TraceSlice s;
    s.track = r.track;
    s.start_ns = r.start_ns;
    s.duration_ns = r.duration_ns;
    s.label = r.label;
    out.push_back(std::move(s));
  }
  std::lock_guard<std::mutex> lk(mu_);
  out.insert(out.end(), phases_.begin(), phases_.end());
  return out;
}

std::map<int, std::string> TraceRecorder::track_names() const {
  std::lock_guard<std::mutex> lk(mu_);
  return tracks_;
}

}  // namespace ge::trace
