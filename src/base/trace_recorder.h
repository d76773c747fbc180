// TraceRecorder: a timeline of slices (a name, a track, a start and a duration) for `--trace=FILE.json`, written
// by trace_json.h as Chrome / Perfetto trace-event JSON. Tracks are small integers the recording code chooses (a
// stream, an executor worker, the loading thread) and names with NameTrack.
//
// Two kinds of slice:
//   - kernel slices (AddKernelSlice): a TraceLabel made once, before the runs (node, op, implementation, shapes and
//     bytes as JSON args), referenced by pointer; the hot path stores 32 bytes and takes no lock;
//   - phase slices (AddSlice, TraceScope): a name and args copied, under a mutex (load and compile phases: few).
// Both are bounded: past `capacity` slices of a kind further ones are dropped and counted (dropped()).
//
// Threading: Add*/NameTrack may be called from any thread at once. Reading (Snapshot) must not overlap recording:
// call it after the traced executions returned. Labels must outlive the recorder's last Snapshot.
// Times are nanoseconds since the recorder was created (steady clock).
#pragma once
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace ge::trace {

// Well-known tracks. Streams of the sink runtime and workers of runtime v2 get their own ranges so that a trace of
// a session holding both stays readable.
inline constexpr int kHostTrack = 0;  // the thread loading or compiling
inline int StreamTrack(int stream) { return 100 + stream; }
inline int WorkerTrack(int worker) { return 200 + worker; }
inline int LoadTrack(int thread) { return 300 + thread; }  // a thread preparing kernels at load

// What a kernel slice shows: fixed per kernel, made when the kernel is prepared.
struct TraceLabel {
  std::string name;       // the node's name
  std::string category;   // "kernel", "runtime", ...
  std::string args_json;  // a JSON object ("{...}") or empty
};

struct TraceSlice {
  int track = kHostTrack;
  int64_t start_ns = 0, duration_ns = 0;
  const TraceLabel* label = nullptr;      // kernel slices
  std::string name, category, args_json;  // phase slices (label == nullptr)
};

class TraceRecorder {
 public:
  static constexpr size_t kDefaultCapacity = 1 << 20;
  explicit TraceRecorder(size_t capacity = kDefaultCapacity, std::string process_name = "ge");
  TraceRecorder(const TraceRecorder&) = delete;
  TraceRecorder& operator=(const TraceRecorder&) = delete;
  ~TraceRecorder();

  int64_t NowNs() const { return Since(std::chrono::steady_clock::now()); }
  // |t| as nanoseconds since the recorder's origin (for callers that already read the steady clock).
  int64_t Since(std::chrono::steady_clock::time_point t) const {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(t - origin_).count();
  }
  void AddKernelSlice(int track, const TraceLabel* label, int64_t start_ns, int64_t duration_ns);
  void AddSlice(int track, std::string name, std::string category, int64_t start_ns, int64_t duration_ns,
                std::string args_json = "");
  // The name a track shows ("stream 0", "executor worker 1"); the last name given wins.
  void NameTrack(int track, std::string name);

  // Every slice recorded so far (kernel slices first, in recording order per track) and the track names.
  std::vector<TraceSlice> Snapshot() const;
  std::map<int, std::string> track_names() const;
  const std::string& process_name() const { return process_name_; }
  uint64_t dropped() const { return dropped_.load(std::memory_order_relaxed); }
  size_t capacity() const { return capacity_; }

 private:
  struct KernelRecord {
    const TraceLabel* label;
    int64_t start_ns, duration_ns;
    int32_t track;
  };
  static constexpr size_t kChunk = 4096;  // kernel records per lazily allocated chunk
  KernelRecord* ChunkFor(size_t index);

  const std::chrono::steady_clock::time_point origin_;
  const size_t capacity_;
  const std::string process_name_;
  std::atomic<size_t> next_kernel_{0};                    // slots handed out (may pass capacity_)
  std::unique_ptr<std::atomic<KernelRecord*>[]> chunks_;  // capacity_ / kChunk + 1 entries, null until used
  std::atomic<uint64_t> dropped_{0};
  mutable std::mutex mu_;
  std::vector<TraceSlice> phases_;     // guarded by mu_
  std::map<int, std::string> tracks_;  // guarded by mu_
};

// A phase slice from construction to destruction on |track|; does nothing with a null recorder.
class TraceScope {
 public:
  TraceScope(TraceRecorder* recorder, std::string name, std::string category = "load", int track = kHostTrack)
      : recorder_(recorder), track_(track) {
    if (recorder_ == nullptr) return;
    name_ = std::move(name);
    category_ = std::move(category);
    start_ns_ = recorder_->NowNs();
  }
  ~TraceScope() {
    if (recorder_ != nullptr) {
      recorder_->AddSlice(track_, std::move(name_), std::move(category_), start_ns_, recorder_->NowNs() - start_ns_);
    }
  }
  TraceScope(const TraceScope&) = delete;
  TraceScope& operator=(const TraceScope&) = delete;

 private:
  TraceRecorder* recorder_;
  int track_;
  std::string name_, category_;
  int64_t start_ns_ = 0;
};

}  // namespace ge::trace
