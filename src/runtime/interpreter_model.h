// InterpreterModel: an IR .om (model type kIr, the compiler's output for graphs the sink cannot run: subgraphs,
// sequences, ops without a prepared kernel) behind the ExecutableModel interface, run node by node on the
// reference interpreter: the oracle a user asks for (OfflineModelOptions::interpreter) to check results. Graph inputs
// and outputs must be numeric tensors (unknown dims run through the tensor form of Execute). Also the reference run of
// an uncompiled ONNX or IR-text model (FromModel: ge::LoadOnInterpreter, `ge run M.onnx`).
// Threading: Execute may be called from any thread; executions are serialized.
#pragma once
#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "interpreter/interpreter.h"
#include "om/om_reader.h"
#include "runtime/executable_model.h"

namespace ge::runtime {

class InterpreterModel final : public ExecutableModel {
 public:
  // `om` must hold an IR model (om::OmModelType::kIr); its constants may borrow the reader's mapping, which the
  // model keeps alive. `seed` seeds random ops without a seed attribute.
  static StatusOr<std::unique_ptr<InterpreterModel>> Load(std::shared_ptr<const om::OmReader> om, uint64_t seed = 0);
  // A model parsed from its source (ONNX, IR text), uncompiled: the oracle of `ge run M.onnx`
  // (ge::LoadOnInterpreter).
  static StatusOr<std::unique_ptr<InterpreterModel>> FromModel(std::unique_ptr<ir::Model> model, uint64_t seed = 0);

  const std::string& name() const override { return name_; }
  const std::vector<IoDesc>& inputs() const override { return inputs_; }
  const std::vector<IoDesc>& outputs() const override { return outputs_; }
  Status Execute(const std::vector<DataBuffer>& inputs, const std::vector<DataBuffer>& outputs) override;
  // Any input sizes the model's unknown dims accept (the IR's inference decides the rest).
  Status ExecuteTensors(const std::vector<Tensor>& inputs, std::vector<Tensor>* outputs) override;
  Status ExecuteAsync(const std::vector<DataBuffer>& inputs, const std::vector<DataBuffer>& outputs,
                      rt::Stream& stream) override;
  // The interpreter cannot stop inside a run: an abort takes effect before the next one.
  void Abort() override { aborted_.store(true); }
  void ResetAbort() override { aborted_.store(false); }
  const char* runtime_name() const override { return "interpreter"; }

 private:
  InterpreterModel() = default;
  static StatusOr<std::unique_ptr<InterpreterModel>> Create(std::unique_ptr<ir::Model> model, const std::string& name,
                                                            uint64_t seed, std::shared_ptr<const om::OmReader> om);
  std::shared_ptr<const om::OmReader> om_;  // constants may borrow its mapping; declared before model_
  std::unique_ptr<ir::Model> model_;
  std::unique_ptr<Interpreter> interpreter_;
  std::string name_;
  std::vector<IoDesc> inputs_, outputs_;
  bool dynamic_ = false;  // an input or output has unknown dims: only ExecuteTensors runs it
  std::atomic<bool> aborted_{false};
  std::mutex run_mu_;  // serializes executions
};

}  // namespace ge::runtime
