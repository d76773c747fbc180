#include "rt/testing/recording_device.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace ge::rt::testing {
namespace {

class RecordingEvent final : public Event {
 public:
  Status Synchronize(Duration) override { return error_; }
  bool Query() const override { return true; }
  // Streams are synchronous: a record happens after everything before it has run.
  void Record(const Status& stream_error) { error_ = stream_error; }

 private:
  Status error_;
};

class RecordingStream final : public Stream {
 public:
  explicit RecordingStream(RecordingDevice* device) : device_(device) {}

  Status Enqueue(Task task) override {
    if (task.fn == nullptr) return InvalidArgument("stream task has no function");
    std::lock_guard<std::mutex> lk(mu_);
    TaskContext ctx;
    ctx.stream = this;
    ctx.imm = task.imm;
    if (!error_.ok()) {
      if (!task.always) return Status::Ok();  // skipped, as on every stream after a failure
      ctx.stream_error = &error_;
    }
    device_->CountStreamTask();
    Status s = task.fn(task.args, ctx);
    if (!s.ok() && error_.ok()) error_ = std::move(s);
    return Status::Ok();
  }
  Status EnqueueMemcpy(void* dst, const void* src, size_t bytes, MemcpyKind kind) override {
    std::lock_guard<std::mutex> lk(mu_);
    if (!error_.ok()) return Status::Ok();
    Status s = device_->Memcpy(dst, src, bytes, kind);
    if (!s.ok()) error_ = std::move(s);
    return Status::Ok();
  }
  Status RecordEvent(Event& event) override {
    std::lock_guard<std::mutex> lk(mu_);
    static_cast<RecordingEvent&>(event).Record(error_);
    return Status::Ok();
  }
  Status WaitEvent(Event&) override { return Status::Ok(); }  // the record already ran
  Status Synchronize(Duration) override { return error(); }
  bool Query() const override { return true; }
  Status error() const override {
    std::lock_guard<std::mutex> lk(mu_);
    return error_;
  }
  void ResetError() override {
    std::lock_guard<std::mutex> lk(mu_);
    error_ = Status::Ok();
  }

 private:
  RecordingDevice* const device_;
  mutable std::mutex mu_;  // held while a task runs: one at a time, in order
  Status error_;
};

class RecordingModel final : public Model {
 public:
  RecordingModel(RecordingDevice* device, std::string name, int num_streams)
      : device_(device), name_(std::move(name)), lists_(static_cast<size_t>(num_streams)) {}

  const std::string& name() const override { return name_; }
  int num_streams() const override { return static_cast<int>(lists_.size()); }

  StatusOr<int> AddEvent() override {
    if (finalized_) return FailedPrecondition("model " + name_ + ": finalized");
    return num_events_++;
  }
  Status AddKernel(int stream, TaskFn fn, void* args) override {
    if (fn == nullptr) return InvalidArgument("model " + name_ + ": kernel task has no function");
    return Add(stream, Item{Kind::kKernel, fn, args, nullptr, 0, -1});
  }
  Status AddMemcpy(int stream, void* dst, const void* src, size_t bytes) override {
    return Add(stream, Item{Kind::kMemcpy, nullptr, dst, src, bytes, -1});
  }
  Status AddEventRecord(int stream, int event) override {
    if (event < 0 || event >= num_events_) return OutOfRange("model " + name_ + ": no event " + std::to_string(event));
    return Add(stream, Item{Kind::kRecord, nullptr, nullptr, nullptr, 0, event});
  }
  Status AddEventWait(int stream, int event) override {
    if (event < 0 || event >= num_events_) return OutOfRange("model " + name_ + ": no event " + std::to_string(event));
    return Add(stream, Item{Kind::kWait, nullptr, nullptr, nullptr, 0, event});
  }
  Status AddEndGraph(int stream) override { return Add(stream, Item{Kind::kEnd, nullptr, nullptr, nullptr, 0, -1}); }
  Status Finalize() override {
    if (finalized_) return FailedPrecondition("model " + name_ + ": already finalized");
    finalized_ = true;
    // A dry run of the schedule: every wait must be satisfiable.
    std::vector<bool> recorded(static_cast<size_t>(num_events_), false);
    return Schedule(nullptr, &recorded);
  }
  bool finalized() const override { return finalized_; }

  Status Execute() override {
    if (!finalized_) return FailedPrecondition("model " + name_ + ": execute before Finalize");
    if (running_.exchange(true)) return FailedPrecondition("model " + name_ + " is already executing");
    Status s = aborted_.load() ? Aborted("model " + name_ + " aborted") : Status::Ok();
    if (s.ok()) {
      std::vector<bool> recorded(static_cast<size_t>(num_events_), false);
      s = Schedule(this, &recorded);
    }
    if (s.ok()) {
      ++executions_;
      device_->CountModelExecution();
    }
    running_.store(false);
    return s;
  }
  Status ExecuteAsync(Stream& stream) override {
    if (!finalized_) return FailedPrecondition("model " + name_ + ": execute before Finalize");
    return stream.Enqueue(Task{[](void* m, TaskContext&) { return static_cast<RecordingModel*>(m)->Execute(); }, this});
  }
  void Abort() override { aborted_.store(true); }
  void ResetAbort() override { aborted_.store(false); }
  uint64_t executions() const override { return executions_.load(); }

 private:
  enum class Kind { kKernel, kMemcpy, kRecord, kWait, kEnd };
  struct Item {
    Kind kind;
    TaskFn fn;
    void* args;  // kernel args, or the memcpy destination
    const void* src;
    size_t bytes;
    int event;
  };

  Status Add(int stream, Item item) {
    if (finalized_) return FailedPrecondition("model " + name_ + ": cannot add tasks after Finalize");
    if (stream < 0 || stream >= num_streams()) return OutOfRange("model " + name_ + ": no stream " + std::to_string(stream));
    lists_[static_cast<size_t>(stream)].push_back(item);
    return Status::Ok();
  }

  // Runs the lists on this thread: each list until it waits for an event not yet recorded, then the next; runs
  // nothing when |run| is null (Finalize's deadlock check).
  Status Schedule(RecordingModel* run, std::vector<bool>* recorded) {
    std::vector<size_t> pos(lists_.size(), 0);
    for (;;) {
      bool progress = false, done = true;
      for (size_t j = 0; j < lists_.size(); ++j) {
        while (pos[j] < lists_[j].size()) {
          const Item& it = lists_[j][pos[j]];
          if (it.kind == Kind::kWait && !(*recorded)[static_cast<size_t>(it.event)]) break;
          if (run != nullptr) {
            if (aborted_.load()) return Aborted("model " + name_ + " aborted");
            GE_RETURN_IF_ERROR(run->RunItem(it).WithContext("model " + name_ + " stream " + std::to_string(j)));
          }
          if (it.kind == Kind::kRecord) (*recorded)[static_cast<size_t>(it.event)] = true;
          ++pos[j];
          progress = true;
        }
        done = done && pos[j] == lists_[j].size();
      }
      if (done) return Status::Ok();
      if (!progress) return InvalidArgument("model " + name_ + ": an event wait can never be satisfied (deadlock)");
    }
  }

  Status RunItem(const Item& it) {
    switch (it.kind) {
      case Kind::kKernel: {
        device_->CountKernelTask();
        TaskContext ctx;  // no intra-op pool, no stream: kernels must not need either
        return it.fn(it.args, ctx);
      }
      case Kind::kMemcpy:
        return device_->Memcpy(it.args, it.src, it.bytes, MemcpyKind::kDeviceToDevice);
      default:
        return Status::Ok();
    }
  }

  RecordingDevice* const device_;
  const std::string name_;
  std::vector<std::vector<Item>> lists_;
  int num_events_ = 0;
  bool finalized_ = false;
  std::atomic<bool> running_{false}, aborted_{false};
  std::atomic<uint64_t> executions_{0};
};

}  // namespace

RecordingDevice::RecordingDevice(RecordingDeviceOptions options) : options_(options) {
  device_options_.intra_op_threads = options.intra_op_threads;
}

RecordingDevice::~RecordingDevice() {
  for (auto& [ptr, info] : blocks_) std::free(ptr);
}

StatusOr<void*> RecordingDevice::Malloc(MemType type, size_t bytes, size_t alignment) {
  if (alignment == 0 || (alignment & (alignment - 1)) != 0) return InvalidArgument("alignment must be a power of two");
  alignment = std::max(alignment, sizeof(void*));
  void* p = nullptr;
  if (posix_memalign(&p, alignment, std::max<size_t>(bytes, 1)) != 0) {
    return ResourceExhausted("recording device: cannot allocate " + std::to_string(bytes) + " bytes");
  }
  std::lock_guard<std::mutex> lk(mu_);
  const int t = static_cast<int>(type);
  blocks_[p] = {type, bytes};
  ++record_.mallocs[t];
  record_.live_bytes[t] += bytes;
  MemoryStats& st = stats_[t];
  st.in_use_bytes += bytes;
  st.peak_bytes = std::max(st.peak_bytes, st.in_use_bytes);
  ++st.live_blocks;
  ++st.alloc_count;
  return p;
}

Status RecordingDevice::Free(MemType type, void* ptr) {
  if (ptr == nullptr) return Status::Ok();
  std::lock_guard<std::mutex> lk(mu_);
  auto it = blocks_.find(ptr);
  if (it == blocks_.end() || it->second.first != type) {
    ++record_.bad_frees;
    return InvalidArgument(std::string("recording device: free of an unknown ") + MemTypeName(type) + " block");
  }
  const int t = static_cast<int>(type);
  ++record_.frees[t];
  record_.live_bytes[t] -= it->second.second;
  stats_[t].in_use_bytes -= it->second.second;
  --stats_[t].live_blocks;
  std::free(ptr);
  blocks_.erase(it);
  return Status::Ok();
}

MemoryStats RecordingDevice::memory_stats(MemType type) const {
  std::lock_guard<std::mutex> lk(mu_);
  return stats_[static_cast<int>(type)];
}

bool RecordingDevice::HostAccessible(MemType type) const {
  return type != MemType::kDevice || options_.device_memory_host_accessible;
}

Status RecordingDevice::Memcpy(void* dst, const void* src, size_t bytes, MemcpyKind kind) {
  if (bytes != 0 && (dst == nullptr || src == nullptr)) return InvalidArgument("recording device: memcpy of null");
  if (bytes != 0) std::memmove(dst, src, bytes);
  CountMemcpy(bytes, kind);
  return Status::Ok();
}

StatusOr<std::unique_ptr<Stream>> RecordingDevice::CreateStream() {
  {
    std::lock_guard<std::mutex> lk(mu_);
    ++record_.streams;
  }
  return std::unique_ptr<Stream>(new RecordingStream(this));
}

StatusOr<std::unique_ptr<Event>> RecordingDevice::CreateEvent() {
  {
    std::lock_guard<std::mutex> lk(mu_);
    ++record_.events;
  }
  return std::unique_ptr<Event>(new RecordingEvent());
}

StatusOr<std::unique_ptr<Model>> RecordingDevice::CreateModel(std::string name, int num_streams) {
  if (num_streams < 1) return InvalidArgument("model " + name + ": needs at least one stream");
  {
    std::lock_guard<std::mutex> lk(mu_);
    ++record_.models;
  }
  return std::unique_ptr<Model>(new RecordingModel(this, std::move(name), num_streams));
}

DeviceRecord RecordingDevice::record() const {
  std::lock_guard<std::mutex> lk(mu_);
  return record_;
}

void RecordingDevice::CountMemcpy(size_t bytes, MemcpyKind kind) {
  std::lock_guard<std::mutex> lk(mu_);
  ++record_.memcpys[static_cast<size_t>(kind)];
  record_.memcpy_bytes += bytes;
}

void RecordingDevice::CountStreamTask() {
  std::lock_guard<std::mutex> lk(mu_);
  ++record_.stream_tasks;
}

void RecordingDevice::CountKernelTask() {
  std::lock_guard<std::mutex> lk(mu_);
  ++record_.kernel_tasks;
}

void RecordingDevice::CountModelExecution() {
  std::lock_guard<std::mutex> lk(mu_);
  ++record_.model_executions;
}

}  // namespace ge::rt::testing
