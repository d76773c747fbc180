// An IR .om on runtime v2's pipeline of partitioned stages (v2/pipeline_model.h) behind the ExecutableModel
// interface, for OfflineModelOptions::pipeline_stages (`ge run --pipeline_stages`): ExecuteBatch streams a batch
// of requests through the stages; a single execution runs them one after another.
// Threading: executions and batches are serialized (the pipeline takes one batch at a time).
#pragma once
#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "om/om_reader.h"
#include "runtime/executable_model.h"
#include "runtime/v2/pipeline_model.h"

namespace ge::runtime {

class PipelineExecutableModel final : public ExecutableModel {
 public:
  // `om` holds an IR or lowered model; the stages' constants may borrow its mapping, which the model keeps alive.
  static StatusOr<std::unique_ptr<PipelineExecutableModel>> Load(std::shared_ptr<const om::OmReader> om,
                                                                 const v2::PipelineOptions& options);

  const std::string& name() const override { return name_; }
  const std::vector<IoDesc>& inputs() const override { return inputs_; }
  const std::vector<IoDesc>& outputs() const override { return outputs_; }
  Status Execute(const std::vector<DataBuffer>& inputs, const std::vector<DataBuffer>& outputs) override;
  Status ExecuteTensors(const std::vector<Tensor>& inputs, std::vector<Tensor>* outputs) override;
  Status ExecuteBatchTensors(const std::vector<std::vector<Tensor>>& requests,
                             std::vector<std::vector<Tensor>>* outputs) override;
  Status ExecuteAsync(const std::vector<DataBuffer>& inputs, const std::vector<DataBuffer>& outputs,
                      rt::Stream& stream) override;
  // The pipeline cannot stop inside a batch: an abort takes effect before the next one.
  void Abort() override { aborted_.store(true); }
  void ResetAbort() override { aborted_.store(false); }
  const char* runtime_name() const override { return "v2"; }
  size_t pipeline_stages() const override { return pipeline_->stages().size(); }

 private:
  PipelineExecutableModel() = default;
  Status CheckInputs(const std::vector<Tensor>& inputs) const;
  std::unique_ptr<v2::PipelineModel> pipeline_;
  std::string name_;
  std::vector<IoDesc> inputs_, outputs_;
  std::atomic<bool> aborted_{false};
};

}  // namespace ge::runtime
