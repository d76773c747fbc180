#include "model_runner.h"

#include <cstdio>
#include <cstring>

#include "interpreter/interpreter.h"
#include "om/ir_om.h"
#include "om/om_reader.h"
#include "rt/cpu/cpu_device.h"
#include "runtime/v2/model_v2.h"
#include "base/trace_json.h"
#include "ge/model.h"

namespace ge::cli {

namespace {

std::vector<ModelIo> Describe(const std::vector<ir::Value*>& values) {
  std::vector<ModelIo> out;
  for (const ir::Value* v : values) out.push_back(ModelIo{v->name(), v->desc()});
  return out;
}

class InterpreterRunner final : public ModelRunner {
 public:
  static StatusOr<std::unique_ptr<ModelRunner>> Create(std::unique_ptr<ir::Model> model,
                                                       std::unique_ptr<om::OmReader> keep, uint64_t seed) {
    auto r = std::unique_ptr<InterpreterRunner>(new InterpreterRunner);
    r->om_ = std::move(keep);
    r->model_ = std::move(model);
    InterpreterOptions opts;
    opts.seed = seed;
    GE_ASSIGN_OR_RETURN(r->interp_, Interpreter::Create(r->model_.get(), opts));
    r->inputs_ = Describe(r->interp_->inputs());
    r->outputs_ = Describe(r->interp_->outputs());
    return std::unique_ptr<ModelRunner>(std::move(r));
  }
  const char* engine() const override { return "interpreter"; }
  int threads() const override { return 1; }
  const std::vector<ModelIo>& inputs() const override { return inputs_; }
  const std::vector<ModelIo>& outputs() const override { return outputs_; }
  Status Run(const std::vector<Value>& inputs, std::vector<Value>* outputs) override {
    return interp_->Run(inputs, outputs);
  }

 private:
  std::unique_ptr<om::OmReader> om_;  // constants may borrow its mapping
  std::unique_ptr<ir::Model> model_;
  std::unique_ptr<Interpreter> interp_;
  std::vector<ModelIo> inputs_, outputs_;
};

// An .om through the public offline-model API (include/ge/model.h), exactly as a library user runs it; its loader
// picks the runtime (sink, runtime v2, or the interpreter when asked). Static models: zero-copy IO into output
// tensors allocated once; dynamic ones: the tensor form of Execute, outputs at their run-time shapes.
class ApiRunner final : public ModelRunner {
 public:
  static StatusOr<std::unique_ptr<ModelRunner>> Create(std::unique_ptr<OfflineModel> model, int threads) {
    auto r = std::unique_ptr<ApiRunner>(new ApiRunner);
    r->threads_ = threads;
    r->model_ = std::move(model);
    r->dynamic_ = r->model_->dynamic();
    for (const ModelTensorDesc& d : r->model_->inputs()) r->inputs_.push_back(ModelIo{d.name, Describe(d)});
    for (const ModelTensorDesc& d : r->model_->outputs()) {
      r->outputs_.push_back(ModelIo{d.name, Describe(d)});
      if (r->dynamic_) continue;
      GE_ASSIGN_OR_RETURN(Tensor t, Tensor::Create(d.dtype, Dims(d.dims.begin(), d.dims.end())));
      if (t.nbytes() != d.bytes) return Internal("output '" + d.name + "': described size differs from its dims");
      r->out_buffers_.push_back(OutputBuffer{t.raw_data(), t.nbytes()});
      r->out_tensors_.push_back(std::move(t));
    }
    return std::unique_ptr<ModelRunner>(std::move(r));
  }
  const char* engine() const override { return model_->runtime().c_str(); }
  int threads() const override { return model_->runtime() == "interpreter" ? 1 : threads_; }
  std::map<std::string, int> impls() const override { return model_->kernel_impls(); }
  std::string target() const override { return model_->target(); }
  std::vector<KernelProfile> Profile() const override { return model_->Profile(); }
  Status WriteTrace(const std::string& path) const override { return model_->WriteTrace(path); }
  std::string MemoryJson() const override {
    ModelMemoryStats m;
    if (!model_->memory_stats(&m)) return "";
    auto mb = [](size_t b) { return std::to_string(static_cast<double>(b) / (1 << 20)); };
    return "\"allocator_cap_mb\":" + mb(m.allocator_cap) + ",\"allocator_cached_mb\":" + mb(m.allocator_cached) +
           ",\"allocator_in_use_mb\":" + mb(m.allocator_in_use) +
           ",\"allocator_peak_total_mb\":" + mb(m.allocator_peak_total) +
           ",\"allocator_front_mb\":" + mb(m.front_held) + ",\"arena_mb\":" + mb(m.arena) +
           ",\"arena_touched_mb\":" + mb(m.arena_touched) + ",\"arena_in_use_mb\":" + mb(m.arena_in_use) +
           ",\"arena_peak_in_use_mb\":" + mb(m.arena_peak_in_use) + ",\"arena_peak_mb\":" + mb(m.arena_peak) +
           ",\"arena_segments\":" + std::to_string(m.arena_segments) +
           ",\"cached_kernels\":" + std::to_string(m.cached_kernels);
  }
  const std::vector<ModelIo>& inputs() const override { return inputs_; }
  const std::vector<ModelIo>& outputs() const override { return outputs_; }
  Status Run(const std::vector<Value>& inputs, std::vector<Value>* outputs) override {
    if (inputs.size() != inputs_.size()) {
      return InvalidArgument("the model has " + std::to_string(inputs_.size()) + " inputs, got " +
                             std::to_string(inputs.size()));
    }
    for (size_t i = 0; i < inputs.size(); ++i) {
      GE_RETURN_IF_ERROR(CheckValueMatches(inputs[i], inputs_[i].desc, "input '" + inputs_[i].name + "'"));
    }
    outputs->clear();
    if (dynamic_) {
      std::vector<Tensor> in;
      for (const Value& v : inputs) in.push_back(v.tensor);
      std::vector<Tensor> out;
      GE_RETURN_IF_ERROR(model_->Execute(in, &out));
      for (Tensor& t : out) outputs->emplace_back(std::move(t));
      return Status::Ok();
    }
    in_buffers_.clear();
    for (const Value& v : inputs) in_buffers_.push_back(InputBuffer{v.tensor.raw_data(), v.tensor.nbytes()});
    GE_RETURN_IF_ERROR(model_->Execute(in_buffers_, out_buffers_));
    for (const Tensor& t : out_tensors_) outputs->emplace_back(t);
    return Status::Ok();
  }

 private:
  // The public description as a TensorDesc: -1 dims keep the symbol the model names them with.
  static TensorDesc Describe(const ModelTensorDesc& d) {
    Shape shape(Dims(d.dims.begin(), d.dims.end()));
    for (size_t i = 0; i < d.dim_names.size() && i < d.dims.size(); ++i) {
      if (!d.dim_names[i].empty()) shape.set_symbol(static_cast<int>(i), d.dim_names[i]);
    }
    return TensorDesc(d.dtype, shape);
  }
  int threads_ = 1;
  bool dynamic_ = false;
  std::unique_ptr<OfflineModel> model_;
  std::vector<ModelIo> inputs_, outputs_;
  std::vector<Tensor> out_tensors_;  // static models: written in place every run (zero-copy outputs)
  std::vector<InputBuffer> in_buffers_;
  std::vector<OutputBuffer> out_buffers_;
};

// An IR .om straight on runtime v2, for IO the offline-model API does not pass: sequences (`ge test-onnx
// --via_v2`). Every other .om goes through ApiRunner.
class V2Runner final : public ModelRunner {
 public:
  static StatusOr<std::unique_ptr<ModelRunner>> Create(std::shared_ptr<const om::OmReader> reader,
                                                       const OpenOptions& options) {
    auto r = std::unique_ptr<V2Runner>(new V2Runner);
    rt::DeviceOptions dev;
    dev.intra_op_threads = options.threads;
    dev.contention_policy = options.contention == ThreadContention::kFullThreads ? rt::ContentionPolicy::kFullThreads
                            : options.contention == ThreadContention::kOneThread ? rt::ContentionPolicy::kOneThread
                                                                                 : rt::ContentionPolicy::kAdaptive;
    GE_ASSIGN_OR_RETURN(r->device_, rt::CpuDevice::Create(dev));
    runtime::v2::ModelV2Options o;
    o.intra_op_threads = options.threads;
    o.seed = options.seed;
    o.device = r->device_.get();
    o.pool = options.threads > 1 ? &r->device_->thread_pool() : nullptr;
    o.profile = options.profile;
    if (options.trace) {
      r->trace_ =
          std::make_unique<trace::TraceRecorder>(trace::TraceRecorder::kDefaultCapacity, "ge: " + reader->path());
      r->trace_->NameTrack(trace::kHostTrack, "load");
      o.trace = r->trace_.get();
    }
    GE_RETURN_IF_ERROR(o.ApplyGeOptions(options.ge_options));
    r->threads_ = options.threads;
    GE_ASSIGN_OR_RETURN(r->model_, runtime::v2::ModelV2::Load(std::move(reader), o));
    r->inputs_ = Describe(r->model_->graph_inputs());
    r->outputs_ = Describe(r->model_->graph_outputs());
    return std::unique_ptr<ModelRunner>(std::move(r));
  }
  const char* engine() const override { return "v2"; }
  int threads() const override { return threads_; }
  const std::vector<ModelIo>& inputs() const override { return inputs_; }
  const std::vector<ModelIo>& outputs() const override { return outputs_; }
  Status Run(const std::vector<Value>& inputs, std::vector<Value>* outputs) override {
    return model_->Execute(inputs, outputs);
  }
  std::vector<KernelProfile> Profile() const override {
    std::vector<KernelProfile> out;
    for (const runtime::v2::ModelV2::NodeProfile& p : model_->Profile()) {
      out.push_back(KernelProfile{p.kernel, p.op_type, p.impl, p.seconds, p.runs});
    }
    return out;
  }
  Status WriteTrace(const std::string& path) const override {
    if (trace_ == nullptr) return ModelRunner::WriteTrace(path);
    return trace::WriteTraceFile(*trace_, path);
  }
  std::string MemoryJson() const override {
    const runtime::v2::ModelV2::MemoryStats m = model_->memory_stats();
    auto mb = [](size_t b) { return std::to_string(static_cast<double>(b) / (1 << 20)); };
    return "\"allocator_cap_mb\":" + mb(m.cap_bytes) + ",\"allocator_cached_mb\":" + mb(m.cached_bytes) +
           ",\"allocator_in_use_mb\":" + mb(m.in_use_bytes) + ",\"allocator_peak_total_mb\":" + mb(m.peak_total_bytes) +
           ",\"allocator_front_mb\":" + mb(m.front_held_bytes) + ",\"arena_mb\":" + mb(m.arena_bytes) +
           ",\"arena_touched_mb\":" + mb(m.arena_touched_bytes) + ",\"arena_in_use_mb\":" + mb(m.arena_in_use_bytes) +
           ",\"arena_peak_in_use_mb\":" + mb(m.arena_peak_in_use_bytes) +
           ",\"arena_peak_mb\":" + mb(m.arena_peak_bytes) + ",\"arena_segments\":" + std::to_string(m.arena_segments) +
           ",\"cached_kernels\":" + std::to_string(m.cached_kernels);
  }

 private:
  static std::vector<ModelIo> Describe(const std::vector<const ir::Value*>& values) {
    std::vector<ModelIo> out;
    for (const ir::Value* v : values) out.push_back(ModelIo{v->name(), v->desc()});
    return out;
  }
  int threads_ = 1;
  std::unique_ptr<trace::TraceRecorder> trace_;  // OpenOptions::trace; outlives model_ (which records into it)
  std::unique_ptr<rt::CpuDevice> device_;        // the model's memory and intra-op threads; outlives model_
  std::unique_ptr<runtime::v2::ModelV2> model_;
  std::vector<ModelIo> inputs_, outputs_;
};

}  // namespace

namespace {

OfflineModelOptions ApiOptions(const OpenOptions& options) {
  OfflineModelOptions o;
  o.intra_op_threads = options.threads;
  o.profile = options.profile;
  o.trace = options.trace;
  o.thread_contention = options.contention;
  o.interpreter = options.interpreter;
  o.seed = options.seed;
  o.runtime_options = options.ge_options;
  return o;
}

}  // namespace

StatusOr<std::unique_ptr<ModelRunner>> OpenIrModel(std::unique_ptr<ir::Model> model, const OpenOptions& options) {
  return InterpreterRunner::Create(std::move(model), nullptr, options.seed);
}

StatusOr<std::unique_ptr<ModelRunner>> OpenOmImage(std::vector<uint8_t> image, const OpenOptions& options) {
  auto owner = std::make_shared<std::vector<uint8_t>>(std::move(image));
  GE_ASSIGN_OR_RETURN(auto reader, om::OmReader::FromMemory(owner->data(), owner->size(), owner));
  if (reader->header().model_type == om::OmModelType::kStandard || options.interpreter) {
    reader.reset();
    GE_ASSIGN_OR_RETURN(std::unique_ptr<OfflineModel> model,
                        OfflineModel::LoadFromMemory(owner->data(), owner->size(), ApiOptions(options)));
    return ApiRunner::Create(std::move(model), options.threads);
  }
  auto runner = V2Runner::Create(std::shared_ptr<const om::OmReader>(std::move(reader)), options);
  if (!runner.ok()) return runner.status().WithContext("in-memory .om");
  return runner;
}

}  // namespace ge::cli
