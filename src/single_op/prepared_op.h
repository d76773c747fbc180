// One op prepared for fixed input descs (XNNPACK's create + reshape; Run is the setup + run): the minimal graph
// Data → op → NetOutput that the kernel's node lives in, the constants it reads, the kernel and the one binding
// every Run reuses. Run binds the caller's buffers into the binding's slots and calls the kernel's task function
// on the calling thread (an rt::TaskContext with no stream), as a loaded model's task would run.
//
// Ownership: the graph owns the node and the constant tensors the kernel points at; members are ordered so that
// the binding goes first, then the kernel, then the graph. Not thread-safe: one Run at a time (the binding's slots
// and kernel state are the object's).
#pragma once
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "base/status.h"
#include "base/tensor_desc.h"
#include "ge/single_op.h"
#include "ir/graph.h"
#include "kernels/exec/prepared_kernel.h"
#include "rt/task.h"
#include "single_op/op_def.h"

namespace ge::single_op {

class PreparedOp {
 public:
  // `inputs`: one desc per op input (constants copied into the graph; trailing omitted inputs dropped). Infers the
  // outputs (they must be static tensors), assigns the engine as the compiler would, prepares the kernel.
  static StatusOr<std::unique_ptr<PreparedOp>> Create(const OpDef& def, const std::vector<OpTensorDesc>& inputs);
  ~PreparedOp();
  PreparedOp(const PreparedOp&) = delete;
  PreparedOp& operator=(const PreparedOp&) = delete;

  // The runtime inputs (neither constant nor omitted), in order, and the outputs.
  const std::vector<OpTensorDesc>& inputs() const { return inputs_; }
  const std::vector<OpTensorDesc>& outputs() const { return outputs_; }
  size_t input_bytes(size_t i) const { return i < in_bytes_.size() ? in_bytes_[i] : 0; }
  size_t output_bytes(size_t i) const { return i < out_bytes_.size() ? out_bytes_[i] : 0; }
  const std::string& engine() const { return engine_; }
  const std::string& kernel_impl() const { return impl_; }

  // One buffer per runtime input and output, each non-null (unless the tensor is empty) and large enough.
  Status Run(const InputBuffer* inputs, size_t num_inputs, const OutputBuffer* outputs, size_t num_outputs,
             rt::IntraOpPool* pool) {
    if (num_inputs != in_bytes_.size() || num_outputs != out_bytes_.size() ||
        (num_inputs != 0 && inputs == nullptr) || (num_outputs != 0 && outputs == nullptr)) {
      return CountError(inputs, num_inputs, outputs, num_outputs);
    }
    exec::KernelBinding& b = *binding_;
    for (size_t i = 0; i < num_inputs; ++i) {
      if (inputs[i].size < in_bytes_[i] || (inputs[i].data == nullptr && in_bytes_[i] != 0)) {
        return BufferError("input", i, inputs[i].data, inputs[i].size, in_bytes_[i]);
      }
      b.io.inputs[in_slots_[i]] = const_cast<void*>(inputs[i].data);
    }
    for (size_t i = 0; i < num_outputs; ++i) {
      if (outputs[i].size < out_bytes_[i] || (outputs[i].data == nullptr && out_bytes_[i] != 0)) {
        return BufferError("output", i, outputs[i].data, outputs[i].size, out_bytes_[i]);
      }
      b.io.outputs[i] = outputs[i].data;
    }
    rt::TaskContext ctx;
    ctx.pool = pool;
    return fn_(&b, ctx);
  }

  // Tensors: `inputs` holds the runtime inputs, or with `all_op_inputs` one tensor per op input where an invalid
  // tensor is an omitted one (the dynamic form, which has no constants). Each must have the described dtype and
  // dims. *outputs is resized; outputs of another dtype or dims are replaced by new tensors.
  Status Run(const std::vector<Tensor>& inputs, bool all_op_inputs, std::vector<Tensor>* outputs,
             rt::IntraOpPool* pool);

 private:
  PreparedOp() = default;
  Status Build(const OpDef& def, const std::vector<OpTensorDesc>& inputs);
  Status InferOutputs(const OpDef& def);
  Status CountError(const InputBuffer* inputs, size_t num_inputs, const OutputBuffer* outputs,
                    size_t num_outputs) const;
  Status BufferError(const char* what, size_t i, const void* data, size_t size, size_t need) const;

  std::string label_;
  std::unique_ptr<ir::Graph> graph_;  // before kernel_ and binding_: outlives both
  ir::Node* node_ = nullptr;
  std::unique_ptr<exec::PreparedKernel> kernel_;
  std::unique_ptr<exec::KernelBinding> binding_;
  rt::TaskFn fn_ = nullptr;
  std::vector<OpTensorDesc> inputs_, outputs_;
  std::vector<int> in_slots_;  // node input index of each runtime input
  std::vector<size_t> in_bytes_, out_bytes_;
  std::string engine_, impl_;
  std::vector<InputBuffer> in_scratch_;  // the Tensor form's buffers, kept to avoid allocating per call
  std::vector<OutputBuffer> out_scratch_;
};

}  // namespace ge::single_op
