// Test fakes for runtime v1 (used only by *_test.cc): a FakeModel implementing ExecutableModel and a
// FakeLoader that makes them from a spec string, so the Run loop, ModelManager, ModelExecutor and OfflineModel
// can be tested without compiled models.
#pragma once
#include <atomic>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "rt/stream.h"
#include "runtime/executable_model.h"
#include "runtime/model_manager.h"

namespace ge::runtime::testing {

// One float32[n] input "x", one float32[n] output "y" = x + 1. The first input element steers a run:
//   kHang  - blocks until Abort() (then Aborted), like a run that never ends;
//   kGate  - blocks until OpenGate() (then computes normally) or Abort();
//   kFail  - returns Internal("fake failure").
// Executions are serialized as SinkModel's are; Abort refuses runs until ResetAbort.
class FakeModel final : public ExecutableModel {
 public:
  static constexpr float kHang = -1000.f;
  static constexpr float kGate = -2000.f;
  static constexpr float kFail = -3000.f;

  explicit FakeModel(std::string name = "fake", size_t n = 4) : name_(std::move(name)) {
    const Shape shape(Dims{static_cast<int64_t>(n)});
    inputs_.push_back(IoDesc{"x", TensorDesc(DataType::kFloat, shape), n * sizeof(float)});
    outputs_.push_back(IoDesc{"y", TensorDesc(DataType::kFloat, shape), n * sizeof(float)});
  }

  const std::string& name() const override { return name_; }
  const std::vector<IoDesc>& inputs() const override { return inputs_; }
  const std::vector<IoDesc>& outputs() const override { return outputs_; }

  Status Execute(const std::vector<DataBuffer>& in, const std::vector<DataBuffer>& out) override {
    GE_RETURN_IF_ERROR(CheckBuffers(inputs_, in, "input"));
    GE_RETURN_IF_ERROR(CheckBuffers(outputs_, out, "output"));
    std::lock_guard<std::mutex> serial(run_mu_);
    if (active_.fetch_add(1) != 0) overlapped_ = true;
    Status st = Run(static_cast<const float*>(in[0].data), static_cast<float*>(out[0].data));
    active_.fetch_sub(1);
    return st;
  }

  Status ExecuteAsync(const std::vector<DataBuffer>& in, const std::vector<DataBuffer>& out,
                      rt::Stream& stream) override {
    GE_RETURN_IF_ERROR(CheckBuffers(inputs_, in, "input"));
    GE_RETURN_IF_ERROR(CheckBuffers(outputs_, out, "output"));
    auto* args = new AsyncArgs{this, in, out};  // freed by the task (tests keep streams error-free)
    return stream.Enqueue({&AsyncTask, args});
  }

  void Abort() override {
    std::lock_guard<std::mutex> lk(state_mu_);
    aborted_ = true;
    ++abort_calls_;
    cv_.notify_all();
  }
  void ResetAbort() override {
    std::lock_guard<std::mutex> lk(state_mu_);
    aborted_ = false;
  }

  void OpenGate() {
    std::lock_guard<std::mutex> lk(state_mu_);
    gate_open_ = true;
    cv_.notify_all();
  }
  // Blocks until a run is waiting at the gate or hanging.
  void WaitUntilBlocked() {
    std::unique_lock<std::mutex> lk(state_mu_);
    cv_.wait(lk, [this] { return blocked_ > 0; });
  }

  uint64_t executions() const { return executions_.load(); }
  int abort_calls() const {
    std::lock_guard<std::mutex> lk(state_mu_);
    return abort_calls_;
  }
  bool overlapped() const { return overlapped_.load(); }

 private:
  struct AsyncArgs {
    FakeModel* model;
    std::vector<DataBuffer> in, out;
  };
  static Status AsyncTask(void* p, rt::TaskContext&) {
    std::unique_ptr<AsyncArgs> a(static_cast<AsyncArgs*>(p));
    return a->model->Execute(a->in, a->out);
  }

  Status Run(const float* x, float* y) {
    const size_t n = inputs_[0].size_bytes / sizeof(float);
    {
      std::unique_lock<std::mutex> lk(state_mu_);
      if (aborted_) return Aborted("fake model '" + name_ + "' is aborted");
      if (x[0] == kHang || x[0] == kGate) {
        const bool gate = x[0] == kGate;
        ++blocked_;
        cv_.notify_all();
        cv_.wait(lk, [&] { return aborted_ || (gate && gate_open_); });
        --blocked_;
        if (aborted_) return Aborted("fake model '" + name_ + "' stopped by Abort");
      }
    }
    if (x[0] == kFail) return Internal("fake failure");
    for (size_t i = 0; i < n; ++i) y[i] = x[i] + 1.f;
    executions_.fetch_add(1);
    return Status::Ok();
  }

  std::string name_;
  std::vector<IoDesc> inputs_, outputs_;
  std::mutex run_mu_;  // serializes executions
  std::atomic<int> active_{0};
  std::atomic<bool> overlapped_{false};
  std::atomic<uint64_t> executions_{0};
  mutable std::mutex state_mu_;
  std::condition_variable cv_;
  bool aborted_ = false;    // guarded by state_mu_
  bool gate_open_ = false;  // guarded by state_mu_
  int blocked_ = 0;         // guarded by state_mu_
  int abort_calls_ = 0;     // guarded by state_mu_
};

// Spec "name:feature_map_bytes[:collective]" (the path, or the bytes of a memory source). "missing:..." fails
// with NotFound. Each load makes a new FakeModel with n = 4.
struct FakeLoaderState {
  std::atomic<int> loads{0};
  std::atomic<int> failures{0};
};

inline ModelLoader FakeLoader(std::shared_ptr<FakeLoaderState> state = nullptr) {
  return [state](const ModelSource& source, const ModelLoadOptions& options, rt::Device&) -> StatusOr<LoadedModel> {
    std::string spec =
        source.path.empty() ? std::string(static_cast<const char*>(source.data), source.size) : source.path;
    const size_t c1 = spec.find(':');
    if (c1 == std::string::npos) return InvalidArgument("bad fake spec '" + spec + "'");
    std::string name = spec.substr(0, c1);
    if (name == "missing") {
      if (state) state->failures++;
      return NotFound("no such model '" + spec + "'");
    }
    const size_t c2 = spec.find(':', c1 + 1);
    LoadedModel lm;
    lm.feature_map_bytes = options.feature_map != nullptr ? 0 : std::strtoull(spec.c_str() + c1 + 1, nullptr, 10);
    lm.weights_bytes = 64;
    lm.has_collective_tasks = c2 != std::string::npos && spec.substr(c2 + 1) == "collective";
    lm.model = std::make_unique<FakeModel>(name);
    if (state) state->loads++;
    return lm;
  };
}

inline std::vector<DataBuffer> Buffers(std::vector<float>& v) {
  return {DataBuffer{v.data(), v.size() * sizeof(float)}};
}

}  // namespace ge::runtime::testing
