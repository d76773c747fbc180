// Single-op execution (DESIGN.md §9; GE's aclopCreateHandle / aclopExecWithHandle and aclopExecuteV2, GeExecutor's
// SingleOp and DynamicSingleOp): run one op of ge's op table on the caller's buffers, without building a model.
//
// Static form, SingleOp: created once for an op, its attributes and fixed input descs. The output descs come from
// the op's shape inference; the kernel is chosen as the compiler would choose it (an engine that claims the op,
// else ge's own fast kernels, else the reference kernel) and prepared once. Each Run then only binds the caller's
// buffers and runs the kernel on the calling thread: no allocation, no lock, no look-up.
//
//   auto add = ge::SingleOp::Create("Add", {{ge::DataType::kFloat, {16}}, {ge::DataType::kFloat, {16}}});
//   std::vector<float> a(16, 1.f), b(16, 2.f), c(16);
//   std::vector<ge::InputBuffer> in = {{a.data(), 64}, {b.data(), 64}};
//   std::vector<ge::OutputBuffer> out = {{c.data(), 64}};
//   ge::Status s = (*add)->Run(in, out);  // as often as needed
//
// Dynamic form, DynamicSingleOp: created for an op and its attributes only; every Run gives the input descs. The
// kernel prepared for each distinct set of input descs is kept in a least-recently-used cache owned by the object,
// bounded by SingleOpOptions::cache_capacity, so shape churn cannot grow memory without bound.
//
// Inputs are given in the op's order. An input desc may instead carry a constant (OpTensorDesc::Constant), for
// the shape operands whose values determine the output shape (Reshape's shape, Slice's starts, TopK's k, ...):
// such an input is fixed when the kernel is prepared and is not passed to Run. An input desc with no dtype and no
// value (OpTensorDesc{}) is an omitted optional input. Run takes buffers for the remaining ("runtime") inputs
// only, in order. Outputs are the op's required outputs unless SingleOpOptions::num_outputs asks for more.
//
// Errors are Status values, never exceptions or aborts: unknown op (kNotFound), an op that needs a model
// (subgraphs, sequences; kUnimplemented), wrong input count, dtype or shape mismatch, an attribute the op does not
// accept or of the wrong type, a buffer too small or null (kInvalidArgument). Attributes are checked against the
// op's ONNX schema at the requested opset; ge's own ops ("ge" domain) and ops the ONNX library does not know are
// checked by their kernels only. An int attribute is accepted where the schema wants a float, and a single value
// where it wants a list.
//
// Threading: Create is thread-safe. One object runs one call at a time (Run keeps the kernel's binding, and the
// dynamic form its cache, in the object): use one object per thread. Distinct objects are independent.
// Self-contained: needs only include/ on the path.
#pragma once
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "ge/api.h"
#include "ge/graph.h"
#include "ge/model.h"
#include "ge/status.h"
#include "ge/tensor.h"
#include "ge/types.h"

namespace ge {

// One input or output of a single op: element type and dims (all known, >= 0).
struct OpTensorDesc {
  DataType dtype = DataType::kUndefined;
  std::vector<int64_t> dims;
  // Inputs only. When valid(): a constant input with this value (copied when the kernel is prepared); dtype and
  // dims may be left default, and when set they must agree with it.
  Tensor value;

  OpTensorDesc() = default;
  OpTensorDesc(DataType dt, std::vector<int64_t> d) : dtype(dt), dims(std::move(d)) {}
  static OpTensorDesc Constant(Tensor t) {
    OpTensorDesc d(t.dtype(), t.dims());
    d.value = std::move(t);
    return d;
  }
  bool is_constant() const { return value.valid(); }
  bool is_omitted() const { return dtype == DataType::kUndefined && !value.valid(); }
};

struct SingleOpOptions {
  // The op's domain: "" (or "ai.onnx") for ONNX ops, "ge" for ge's own.
  std::string domain;
  // The ONNX opset the op follows (defaults and semantics that changed between versions, e.g. Softmax's axis).
  int64_t opset = 17;
  // Outputs to produce; 0: the op's required outputs (at least one).
  int num_outputs = 0;
  // Threads one kernel may use, the calling thread included; 0: one per core. With more than one, the object owns
  // a thread pool for ge's kernels (oneDNN's run on OpenMP).
  int intra_op_threads = 1;
  // DynamicSingleOp: prepared kernels kept, least recently used evicted first; at least 1.
  size_t cache_capacity = 64;
  // GE option keys: ge.engine.<name> (1|0: let an engine such as "dnnl" run the op), ge.exec.precision_mode
  // (fp32|allow_bf16). Unknown keys are an error.
  std::map<std::string, std::string> options;
};

class GE_API SingleOp {
 public:
  static StatusOr<std::unique_ptr<SingleOp>> Create(const std::string& op_type, const std::vector<OpTensorDesc>& inputs,
                                                    const Attrs& attrs = {}, const SingleOpOptions& options = {});
  ~SingleOp();
  SingleOp(const SingleOp&) = delete;
  SingleOp& operator=(const SingleOp&) = delete;

  const std::string& op_type() const;
  // The inputs Run takes (constant and omitted inputs left out), in order, and the inferred outputs.
  const std::vector<OpTensorDesc>& inputs() const;
  const std::vector<OpTensorDesc>& outputs() const;
  // Output names from the op's ONNX schema ("C" for Add, "Values"/"Indices" for TopK), else "output0", ...
  const std::vector<std::string>& output_names() const;
  // Bytes of runtime input i / output i: the least a buffer must hold.
  size_t input_bytes(size_t i) const;
  size_t output_bytes(size_t i) const;
  // How the op runs, for inspection: the engine ("dnnl", or "ref" for ge's own kernels) and the kernel
  // implementation ("exec.binary_f32", "dnnl.conv(jit:avx512_core)", "ref" for the reference kernel).
  const std::string& engine() const;
  const std::string& kernel_impl() const;

  // One buffer per runtime input and per output, each at least the described size. No allocation.
  Status Run(const InputBuffer* inputs, size_t num_inputs, const OutputBuffer* outputs, size_t num_outputs);
  Status Run(const std::vector<InputBuffer>& inputs, const std::vector<OutputBuffer>& outputs) {
    return Run(inputs.data(), inputs.size(), outputs.data(), outputs.size());
  }
  // Tensors: each input must have exactly the described dtype and dims. *outputs is resized to the output count;
  // an output that already has the described dtype and dims is written in place, any other is replaced by a new
  // tensor (so passing the same vector again allocates nothing).
  Status Run(const std::vector<Tensor>& inputs, std::vector<Tensor>* outputs);

 private:
  struct Impl;
  explicit SingleOp(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

class GE_API DynamicSingleOp {
 public:
  // Checks the op and its attributes now; input descs are checked by each call.
  static StatusOr<std::unique_ptr<DynamicSingleOp>> Create(const std::string& op_type, const Attrs& attrs = {},
                                                           const SingleOpOptions& options = {});
  ~DynamicSingleOp();
  DynamicSingleOp(const DynamicSingleOp&) = delete;
  DynamicSingleOp& operator=(const DynamicSingleOp&) = delete;

  const std::string& op_type() const;
  // The output descs for these input descs (one per op input, as for SingleOp::Create); prepares and caches the
  // kernel as Run would.
  StatusOr<std::vector<OpTensorDesc>> InferOutputs(const std::vector<OpTensorDesc>& input_descs);

  // `input_descs`: one per op input (constants and omitted inputs included); `inputs`: one buffer per runtime
  // input; `outputs`: one per output, each at least the size InferOutputs gives. No allocation once the descs'
  // kernel is cached.
  Status Run(const std::vector<OpTensorDesc>& input_descs, const std::vector<InputBuffer>& inputs,
             const std::vector<OutputBuffer>& outputs);
  // Every input is a runtime input (an invalid Tensor: an omitted optional input); outputs as SingleOp::Run.
  Status Run(const std::vector<Tensor>& inputs, std::vector<Tensor>* outputs);

  // The cache: kernels held now, the bound, and counts since creation.
  size_t cache_size() const;
  size_t cache_capacity() const;
  uint64_t cache_hits() const;
  uint64_t cache_misses() const;

 private:
  struct Impl;
  explicit DynamicSingleOp(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace ge
