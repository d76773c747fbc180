// InferShape: a compute node's output shapes from its inputs' run-time shapes (op table inference), re-run only
// when an input shape (or, for value-dependent nodes such as Reshape with a computed shape, an input value the
// inference reads) changed since the last run.
#include <cstring>

#include "runtime/v2/kernels/node_data.h"

namespace ge::runtime::v2 {
namespace {

bool FullyKnown(const TensorDesc& d) { return d.kind == ValueKind::kTensor && d.shape.IsFullyKnown(); }

bool ShapesUnchanged(const ComputeNode& n) {
  const ComputeNode::Run& r = n.run;
  if (r.versioned) {
    for (size_t i = 0; i < n.in.size(); ++i) {
      if (n.in[i] != nullptr && n.in[i]->t.version != r.in_versions[i]) return false;
    }
    return true;
  }
  for (size_t i = 0; i < n.in.size(); ++i) {
    if (n.in[i] != nullptr && n.in[i]->t.shape != r.in_shapes[i]) return false;
  }
  return true;
}

bool ValuesUnchanged(const ComputeNode& n) {
  const ComputeNode::Run& r = n.run;
  size_t off = 0;
  for (int i : r.value_inputs) {
    const RtTensor& t = n.in[i]->t;
    if (off + t.bytes > r.values.size()) return false;
    if (t.bytes != 0 && std::memcmp(r.values.data() + off, t.data, t.bytes) != 0) return false;
    off += t.bytes;
  }
  return off == r.values.size();
}

// Runs inference with the values of the inputs flagged in |with_value| (constants always).
Status RunInfer(const ComputeNode& n, const std::vector<TensorDesc>& descs, const std::vector<Tensor>& values,
                const std::vector<bool>& with_value, std::vector<TensorDesc>* out) {
  ops::InferContext ictx;
  ictx.node = n.node;
  ictx.attrs = &n.node->attrs();
  ictx.opset = n.opset;
  ictx.op_type = n.node->op_type();
  ictx.node_name = n.node->name();
  for (size_t i = 0; i < n.in.size(); ++i) {
    const ValueSlot* s = n.in[i];
    if (s == nullptr) {
      ictx.inputs.push_back(nullptr);
      ictx.input_values.push_back(nullptr);
      continue;
    }
    ictx.inputs.push_back(&descs[i]);
    const bool known = (s->constant && s->keep.valid()) || with_value[i];
    ictx.input_values.push_back(known && values[i].valid() ? &values[i] : nullptr);
  }
  ictx.outputs.resize(n.out.size());
  GE_RETURN_IF_ERROR(ops::RunInference(*n.schema, ictx));
  *out = std::move(ictx.outputs);
  return Status::Ok();
}

bool AllKnown(const ComputeNode& n, const std::vector<TensorDesc>& outs) {
  for (size_t i = 0; i < n.out.size(); ++i) {
    if (n.out[i] != nullptr && !FullyKnown(outs[i])) return false;
  }
  return true;
}

Status Reinfer(const ComputeNode& n) {
  ComputeNode::Run& r = n.run;
  std::vector<TensorDesc> descs(n.in.size());
  std::vector<Tensor> values(n.in.size());
  std::vector<bool> candidates(n.in.size(), false), none(n.in.size(), false);
  for (size_t i = 0; i < n.in.size(); ++i) {
    const ValueSlot* s = n.in[i];
    if (s == nullptr) continue;
    descs[i] = TensorDesc(s->t.dtype, Shape(s->t.shape.ToDims()));
    descs[i].format = n.in_format[i];
    if (s->constant && s->keep.valid()) {
      values[i] = s->keep;
    } else if (s->t.data != nullptr || s->t.shape.NumElements() == 0) {
      Value v = SlotValue(*s);
      values[i] = v.tensor;
      candidates[i] = true;
    }
  }
  std::vector<TensorDesc> outs;
  if (!r.value_dependent) {
    GE_RETURN_IF_ERROR(RunInfer(n, descs, values, none, &outs));
    if (!AllKnown(n, outs)) {
      // The output shapes depend on input values: find which inputs' values inference reads (once).
      r.value_dependent = true;
      r.value_inputs.clear();
      std::vector<TensorDesc> probe;
      GE_RETURN_IF_ERROR(RunInfer(n, descs, values, candidates, &probe));
      if (!AllKnown(n, probe)) {
        r.always_infer = true;
      } else {
        for (size_t i = 0; i < n.in.size(); ++i) {
          if (!candidates[i]) continue;
          std::vector<bool> without = candidates;
          without[i] = false;
          Status s = RunInfer(n, descs, values, without, &probe);
          if (!s.ok() || !AllKnown(n, probe)) r.value_inputs.push_back(static_cast<int>(i));
        }
      }
    }
  }
  if (r.value_dependent) GE_RETURN_IF_ERROR(RunInfer(n, descs, values, candidates, &outs));
  r.data_dependent = !AllKnown(n, outs);
  if (!r.data_dependent) {
    r.out_bytes.assign(n.out.size(), 0);
    for (size_t i = 0; i < n.out.size(); ++i) {
      ValueSlot* s = n.out[i];
      if (s == nullptr) continue;
      RtShape shape;
      if (!RtShape::FromDims(outs[i].shape.dims(), &shape)) {
        return Unimplemented("value '" + s->name + "' has rank " + std::to_string(outs[i].shape.rank()) +
                             "; runtime v2 holds tensors of rank at most " + std::to_string(kMaxRtRank));
      }
      s->t.SetDesc(outs[i].dtype != DataType::kUndefined ? outs[i].dtype : s->t.dtype, shape);
      GE_ASSIGN_OR_RETURN(int64_t count, StorageNumElements(outs[i].shape.dims(), n.out_format[i]));
      const uint64_t elem = DataTypeSize(s->t.dtype);
      if (count > 0 && elem > static_cast<uint64_t>(kMaxTensorBytes) / static_cast<uint64_t>(count)) {
        return ResourceExhausted("value '" + s->name + "' would be " + outs[i].ToString() +
                                 ", more than the per-tensor limit of " + std::to_string(kMaxTensorBytes) + " bytes");
      }
      r.out_bytes[i] = static_cast<size_t>(count) * elem;
    }
  }
  r.versioned = n.in.size() <= ComputeNode::kInlineInputs;
  if (r.versioned) {
    for (size_t i = 0; i < n.in.size(); ++i) r.in_versions[i] = n.in[i] != nullptr ? n.in[i]->t.version : 0;
  } else {
    r.in_shapes.resize(n.in.size());
    for (size_t i = 0; i < n.in.size(); ++i) {
      if (n.in[i] != nullptr) r.in_shapes[i] = n.in[i]->t.shape;
    }
  }
  r.values.clear();
  for (int i : r.value_inputs) r.values.append(static_cast<const char*>(n.in[i]->t.data), n.in[i]->t.bytes);
  r.inferred = true;
  r.current = nullptr;
  return Status::Ok();
}

}  // namespace

Status InferNode(const ComputeNode& n) {
  const ComputeNode::Run& r = n.run;
  if (r.inferred && !r.always_infer && ShapesUnchanged(n) && (!r.value_dependent || ValuesUnchanged(n))) {
    return Status::Ok();
  }
  return Reinfer(n);
}

KernelStatus InferShapeKernel(KernelContext* c) {
  const ComputeNode& n = c->data<ComputeNode>();
  Status s = InferNode(n);
  if (!s.ok()) return c->exec->SetError(std::move(s));
  return kStatusSuccess;
}

}  // namespace ge::runtime::v2
