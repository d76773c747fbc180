#include "model_runner.h"

#include <sys/stat.h>

#include <cstdio>
#include <cstring>

#include "interpreter/interpreter.h"
#include "om/ir_om.h"
#include "om/om_reader.h"
#include "parser/onnx/onnx_parser.h"
#include "runtime/v1/sink_model.h"

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

class SinkRunner final : public ModelRunner {
 public:
  static StatusOr<std::unique_ptr<ModelRunner>> Create(std::shared_ptr<const om::OmReader> om, int threads,
                                                       bool profile) {
    auto r = std::unique_ptr<SinkRunner>(new SinkRunner);
    rt::DeviceOptions dopts;
    dopts.intra_op_threads = threads;
    r->threads_ = threads;
    GE_ASSIGN_OR_RETURN(r->device_, rt::Device::Create(dopts));
    runtime::SinkModelOptions mopts;
    mopts.profile = profile;
    GE_ASSIGN_OR_RETURN(r->model_, runtime::SinkModel::Load(std::move(om), r->device_.get(), mopts));
    for (const runtime::IoDesc& d : r->model_->inputs()) r->inputs_.push_back(ModelIo{d.name, d.desc});
    for (const runtime::IoDesc& d : r->model_->outputs()) {
      r->outputs_.push_back(ModelIo{d.name, d.desc});
      GE_ASSIGN_OR_RETURN(Tensor t, Tensor::Create(d.desc.dtype, d.desc.shape.dims()));
      r->out_buffers_.push_back(runtime::DataBuffer{t.raw_data(), t.nbytes()});
      r->out_tensors_.push_back(std::move(t));
    }
    return std::unique_ptr<ModelRunner>(std::move(r));
  }
  const char* engine() const override { return "sink"; }
  int threads() const override { return threads_; }
  std::map<std::string, int> impls() const override { return model_->stats().impls; }
  std::string target() const override { return model_->stats().target; }
  std::vector<runtime::NodeProfile> Profile() const override { return model_->profile(); }
  const std::vector<ModelIo>& inputs() const override { return inputs_; }
  const std::vector<ModelIo>& outputs() const override { return outputs_; }
  Status Run(const std::vector<Value>& inputs, std::vector<Value>* outputs) override {
    if (inputs.size() != inputs_.size()) {
      return InvalidArgument("the model has " + std::to_string(inputs_.size()) + " inputs, got " +
                             std::to_string(inputs.size()));
    }
    in_buffers_.clear();
    for (size_t i = 0; i < inputs.size(); ++i) {
      GE_RETURN_IF_ERROR(CheckValueMatches(inputs[i], inputs_[i].desc, "input '" + inputs_[i].name + "'"));
      const Tensor& t = inputs[i].tensor;
      in_buffers_.push_back(runtime::DataBuffer{const_cast<void*>(t.raw_data()), t.nbytes()});
    }
    GE_RETURN_IF_ERROR(model_->Execute(in_buffers_, out_buffers_));
    outputs->clear();
    for (const Tensor& t : out_tensors_) outputs->emplace_back(t);
    return Status::Ok();
  }

 private:
  int threads_ = 1;
  std::unique_ptr<rt::Device> device_;
  std::unique_ptr<runtime::SinkModel> model_;
  std::vector<ModelIo> inputs_, outputs_;
  std::vector<Tensor> out_tensors_;  // written in place every run (zero-copy outputs)
  std::vector<runtime::DataBuffer> in_buffers_, out_buffers_;
};

bool HasOmMagic(const std::string& path) {
  FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) return false;
  char magic[4] = {};
  const bool ok = std::fread(magic, 1, 4, f) == 4 && std::memcmp(magic, "GEOM", 4) == 0;
  std::fclose(f);
  return ok;
}

}  // namespace

namespace {

StatusOr<std::unique_ptr<ModelRunner>> OpenOm(std::unique_ptr<om::OmReader> reader, const OpenOptions& options,
                                              const std::string& what) {
  if (reader->header().model_type == om::OmModelType::kStandard) {
    return SinkRunner::Create(std::shared_ptr<const om::OmReader>(std::move(reader)), options.threads,
                              options.profile);
  }
  auto model = om::ReadIrOm(*reader);
  if (!model.ok()) return model.status().WithContext(what);
  return InterpreterRunner::Create(std::move(*model), std::move(reader), options.seed);
}

}  // namespace

StatusOr<std::unique_ptr<ModelRunner>> OpenModel(const std::string& path, const OpenOptions& options) {
  if (HasOmMagic(path)) {
    GE_ASSIGN_OR_RETURN(std::unique_ptr<om::OmReader> reader, om::OmReader::Open(path));
    return OpenOm(std::move(reader), options, path);
  }
  struct stat st;
  if (::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && st.st_size == 0) {
    return DataLoss(path + ": the file is empty");
  }
  GE_ASSIGN_OR_RETURN(std::unique_ptr<ir::Model> model, onnx_parser::ParseModelFile(path));
  return InterpreterRunner::Create(std::move(model), nullptr, options.seed);
}

StatusOr<std::unique_ptr<ModelRunner>> OpenIrModel(std::unique_ptr<ir::Model> model, const OpenOptions& options) {
  return InterpreterRunner::Create(std::move(model), nullptr, options.seed);
}

StatusOr<std::unique_ptr<ModelRunner>> OpenOmImage(std::vector<uint8_t> image, const OpenOptions& options) {
  auto owner = std::make_shared<std::vector<uint8_t>>(std::move(image));
  GE_ASSIGN_OR_RETURN(auto reader, om::OmReader::FromMemory(owner->data(), owner->size(), owner));
  return OpenOm(std::move(reader), options, "in-memory .om");
}

}  // namespace ge::cli
