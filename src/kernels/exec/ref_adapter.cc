#include "kernels/exec/ref_adapter.h"

#include <algorithm>
#include <cstring>

#include "kernels/exec/kernel_util.h"
#include "kernels/ref/kernel_registry.h"

namespace ge::exec {

// What one binding's runs change.
struct RefAdapter::State final : KernelState {
  ref::KernelContext kctx;       // a copy of the kernel's, with rng pointing at this state's generator
  std::vector<Value> borrowed;   // per input: a Tensor borrowing bound[i]
  std::vector<void*> bound;      // the slot address borrowed[i] wraps (re-wrapped when the slot changes)
  std::vector<void*> out_bound;  // the output slot kctx.preallocated[i] wraps (nullptr: none)
  // Shape-agnostic kernels: kctx.inferred holds the outputs' dims of the current run, in_dims the inputs'.
  std::vector<Dims> in_dims;
  std::mt19937_64 rng;
};

StatusOr<std::unique_ptr<KernelState>> RefAdapter::CreateState() const {
  auto st = std::make_unique<State>();
  st->kctx = kctx_;
  st->rng.seed(seed_);
  st->kctx.rng = &st->rng;
  st->borrowed.resize(in_descs_.size());
  st->bound.assign(in_descs_.size(), nullptr);
  st->in_dims.resize(in_descs_.size());
  for (size_t i = 0; i < in_descs_.size(); ++i) st->in_dims[i] = in_descs_[i].shape.dims();
  return std::unique_ptr<KernelState>(std::move(st));
}

StatusOr<std::unique_ptr<RefAdapter>> RefAdapter::Create(const PrepareRequest& request) {
  GE_RETURN_IF_ERROR(ValidateRequest(request));
  const ir::Node& node = *request.node;
  if (!CanPrepare(node)) {
    return Unimplemented(NodeLabel(node) +
                         ": cannot run as a prepared kernel (it owns subgraphs, uses strings, sequences or "
                         "optionals, or has no reference kernel)");
  }
  for (size_t i = 0; i < request.input_descs.size() + request.output_descs.size(); ++i) {
    const bool is_input = i < request.input_descs.size();
    const size_t j = is_input ? i : i - request.input_descs.size();
    const TensorDesc& d = is_input ? request.input_descs[j] : request.output_descs[j];
    if (d.dtype == DataType::kString) {
      return Unimplemented(NodeLabel(node) + ": string " + (is_input ? "input " : "output ") + std::to_string(j) +
                           " cannot run as a prepared kernel");
    }
  }
  std::unique_ptr<RefAdapter> k(new RefAdapter());
  k->ref_fn_ = ref::RefKernels().Find(node.domain(), node.op_type());
  k->label_ = NodeLabel(node);
  ref::KernelContext& c = k->kctx_;
  c.node = &node;
  c.attrs = &node.attrs();
  c.opset = request.opset;
  c.op_type = node.op_type();
  c.node_name = node.name();
  c.inferred = request.output_descs;
  c.inputs.assign(node.num_inputs(), nullptr);
  c.outputs.resize(node.num_outputs());
  k->seed_ = request.seed;
  k->in_descs_ = request.input_descs;
  k->const_values_.resize(node.num_inputs());
  const bool agnostic = HasVaryingDims(request);
  for (int i = 0; i < node.num_inputs(); ++i) {
    k->in_present_.push_back(InputPresent(request, i));
    const bool value_varies = agnostic && static_cast<size_t>(i) < request.varying_values.size() &&
                              request.varying_values[i];
    if (const Tensor* t = ConstInput(request, i); t != nullptr && !value_varies) k->const_values_[i] = Value(*t);
  }
  if (agnostic) {
    k->runtime_input_dims_ = request.varying_input_dims;
    k->runtime_input_dims_.resize(node.num_inputs());
  }
  for (int i = 0; i < node.num_outputs(); ++i) k->out_present_.push_back(OutputPresent(request, i));
  k->num_inputs_ = node.num_inputs();
  k->num_outputs_ = node.num_outputs();
  k->fn_ = &RefAdapter::Task;
  return k;
}

Status RefAdapter::Task(void* args, rt::TaskContext& /*ctx*/) {
  auto* b = static_cast<KernelBinding*>(args);
  return BoundKernel<RefAdapter>(*b).Run(b->io, *static_cast<State*>(b->state.get()));
}

Status RefAdapter::BindInputs(const KernelIo& io, State& st) const {
  for (size_t i = 0; i < in_descs_.size(); ++i) {
    if (!in_present_[i]) {
      st.kctx.inputs[i] = nullptr;
      continue;
    }
    if (const_values_[i].is_tensor()) {
      st.kctx.inputs[i] = &const_values_[i];
      continue;
    }
    void* slot = io.inputs[i];
    const TensorDesc& d = in_descs_[i];
    bool dims_changed = false;
    if (shape_agnostic()) {
      const int64_t* now = io.input_dims[i];
      if (now == nullptr) return Internal(label_ + ": shape-agnostic kernel run without the dims of input " + std::to_string(i));
      Dims& dims = st.in_dims[i];
      dims_changed = !std::equal(dims.begin(), dims.end(), now);
      if (dims_changed) dims.assign(now, now + dims.size());
    }
    if (slot == nullptr || slot != st.bound[i] || !st.borrowed[i].is_tensor() || dims_changed) {
      const Dims& dims = st.in_dims[i];
      const size_t nbytes = static_cast<size_t>(NumElements(dims)) * DataTypeSize(d.dtype);
      if (slot == nullptr && nbytes != 0) {
        return FailedPrecondition(label_ + ": input " + std::to_string(i) + " has no address bound");
      }
      st.borrowed[i] = Value(Tensor(d.dtype, dims, TensorStorage::Borrow(slot, nbytes, nullptr)));
      st.bound[i] = slot;
    }
    st.kctx.inputs[i] = &st.borrowed[i];
  }
  return Status::Ok();
}

Status RefAdapter::StoreOutput(const KernelIo& io, const State& st, int i) const {
  const Value& v = st.kctx.outputs[i];
  // Named only on failure (this runs once per output per run).
  auto which = [&] { return "output " + std::to_string(i) + " ('" + kctx_.node->output(i)->name() + "')"; };
  if (!v.is_tensor() || !v.tensor.valid()) {
    return Internal(label_ + ": the reference kernel produced no tensor for " + which());
  }
  const TensorDesc& want = st.kctx.inferred[i];
  const Tensor& t = v.tensor;
  if (t.dtype() != want.dtype || t.dims() != want.shape.dims()) {
    return FailedPrecondition(label_ + ": " + which() + " is " + DataTypeName(t.dtype()) + DimsToString(t.dims()) +
                              " but the plan expects " + want.ToString());
  }
  void* slot = io.outputs[i];
  const size_t nbytes = t.nbytes();
  if (slot == nullptr) {
    if (nbytes == 0) return Status::Ok();
    return FailedPrecondition(label_ + ": " + which() + " has no address bound");
  }
  if (t.raw_data() != slot && nbytes != 0) std::memmove(slot, t.raw_data(), nbytes);
  return Status::Ok();
}

// Lets the ref kernel write straight into the output slots (no allocation, no copy) when a slot shares no byte
// with any input: AllocateOutput zero-fills what it hands out, which would destroy an aliased input.
void RefAdapter::BindOutputs(const KernelIo& io, State& st) const {
  ref::KernelContext& kctx = st.kctx;
  if (kctx.preallocated.size() != out_present_.size()) kctx.preallocated.assign(out_present_.size(), Tensor());
  if (st.out_bound.size() != out_present_.size()) st.out_bound.assign(out_present_.size(), nullptr);
  for (size_t i = 0; i < out_present_.size(); ++i) {
    void* slot = out_present_[i] ? io.outputs[i] : nullptr;
    TensorDesc& d = kctx.inferred[i];
    if (shape_agnostic() && out_present_[i] && io.output_dims[i] != nullptr) {
      const int64_t* now = io.output_dims[i];
      const Dims& dims = d.shape.dims();
      if (!std::equal(dims.begin(), dims.end(), now)) {
        d.shape = Shape(Dims(now, now + dims.size()));
        st.out_bound[i] = nullptr;  // re-wrap at the new dims
      }
    }
    const size_t nbytes = slot ? static_cast<size_t>(NumElements(d.shape.dims())) * DataTypeSize(d.dtype) : 0;
    bool usable = slot != nullptr && nbytes != 0 && d.dtype != DataType::kString;
    const char* lo = static_cast<const char*>(slot);
    for (size_t k = 0; usable && k < kctx.inputs.size(); ++k) {
      const Value* in = kctx.inputs[k];
      if (in == nullptr || !in->is_tensor() || !in->tensor.valid()) continue;
      const char* ilo = static_cast<const char*>(in->tensor.raw_data());
      usable = ilo + in->tensor.nbytes() <= lo || lo + nbytes <= ilo;
    }
    if (!usable) {
      kctx.preallocated[i] = Tensor();
      st.out_bound[i] = nullptr;
    } else if (slot != st.out_bound[i]) {
      kctx.preallocated[i] = Tensor(d.dtype, d.shape.dims(), TensorStorage::Borrow(slot, nbytes, nullptr));
      st.out_bound[i] = slot;
    }
  }
}

Status RefAdapter::Run(const KernelIo& io, State& st) const {
  GE_RETURN_IF_ERROR(BindInputs(io, st));
  BindOutputs(io, st);
  for (Value& v : st.kctx.outputs) v = Value();
  Status s = ref_fn_(st.kctx);
  for (int i = 0; s.ok() && i < static_cast<int>(out_present_.size()); ++i) {
    if (out_present_[i]) s = StoreOutput(io, st, i);
  }
  for (Value& v : st.kctx.outputs) v = Value();  // release what the ref kernel allocated
  return s;
}

}  // namespace ge::exec
