// If, Loop and SequenceMap: each runs a body graph through ctx.runner (the interpreter, or a test runner).
#include <limits>
#include <string>

#include "ir/graph.h"
#include "kernels/ref/control/control_kernels.h"

namespace ge::ref::control {
namespace {

StatusOr<const ir::Graph*> GetBody(const KernelContext& ctx, const char* attr) {
  if (!ctx.node) return ctx.Error("needs its node to find subgraph '" + std::string(attr) + "'");
  const ir::Graph* g = ctx.node->subgraph(attr);
  if (!g) return ctx.Error("subgraph attribute '" + std::string(attr) + "' is missing");
  if (!ctx.runner) return ctx.Unsupported("no subgraph runner is available");
  return g;
}

// A one-element tensor read as bool or int64; `what` names it in errors.
StatusOr<int64_t> ScalarInput(const KernelContext& ctx, const Value& v, const char* what) {
  if (!v.is_tensor()) return ctx.Error(std::string(what) + " must be a tensor");
  if (v.tensor.numel() != 1) {
    return ctx.Error(std::string(what) + " must hold one element, got shape " + DimsToString(v.tensor.dims()));
  }
  if (v.tensor.dtype() != DataType::kBool && !IsInteger(v.tensor.dtype())) {
    return ctx.Error(std::string(what) + " must be bool or integer, got " + DataTypeName(v.tensor.dtype()));
  }
  return v.tensor.GetAsInt64(0);
}

Status RefIf(KernelContext& ctx) {
  if (!ctx.has_input(0)) return ctx.Error("cond is missing");
  GE_ASSIGN_OR_RETURN(int64_t cond, ScalarInput(ctx, *ctx.input_value(0), "cond"));
  GE_ASSIGN_OR_RETURN(const ir::Graph* branch, GetBody(ctx, cond ? "then_branch" : "else_branch"));
  std::vector<Value> outs;
  GE_RETURN_IF_ERROR(ctx.runner->Run(*branch, {}, &outs));
  if (static_cast<int>(outs.size()) != ctx.num_outputs()) {
    return ctx.Error(std::string(cond ? "then" : "else") + "_branch produced " + std::to_string(outs.size()) +
                     " outputs, the node has " + std::to_string(ctx.num_outputs()));
  }
  for (int i = 0; i < ctx.num_outputs(); ++i) ctx.SetOutputValue(i, std::move(outs[i]));
  return Status::Ok();
}

// Stacks the per-iteration scan values along a new axis 0. With no iterations the result has dim 0 first and
// the rest of the inferred shape (unknown dims read as 0).
StatusOr<Tensor> StackScan(const KernelContext& ctx, int out, const std::vector<Tensor>& items) {
  if (!items.empty()) {
    auto t = ConcatTensors(items, 0, true);
    if (!t.ok()) return ctx.Error("scan output " + std::to_string(out) + ": " + t.status().message());
    return t;
  }
  const TensorDesc& d = ctx.inferred[out];
  Dims dims{0};
  if (!d.shape.unknown_rank()) {
    for (int j = 1; j < d.shape.rank(); ++j) dims.push_back(std::max<int64_t>(0, d.shape.dim(j)));
  }
  DataType dt = d.dtype == DataType::kUndefined ? DataType::kFloat : d.dtype;
  return Tensor::Create(dt, dims);
}

Status RefLoop(KernelContext& ctx) {
  GE_ASSIGN_OR_RETURN(const ir::Graph* body, GetBody(ctx, "body"));
  int64_t max_trips = std::numeric_limits<int64_t>::max();
  if (ctx.has_input(0)) {
    GE_ASSIGN_OR_RETURN(max_trips, ScalarInput(ctx, *ctx.input_value(0), "M (max trip count)"));
  }
  const bool has_cond = ctx.has_input(1);
  bool cond = true;
  if (has_cond) {
    GE_ASSIGN_OR_RETURN(int64_t c, ScalarInput(ctx, *ctx.input_value(1), "cond"));
    cond = c != 0;
  }
  if (!ctx.has_input(0) && !has_cond) return ctx.Error("has neither M nor cond: the loop would never end");
  const int n_carried = std::max(0, ctx.num_inputs() - 2);
  const int n_scan = ctx.num_outputs() - n_carried;
  if (n_scan < 0) return ctx.Error("has more loop-carried inputs than outputs");
  std::vector<Value> carried(n_carried);
  for (int i = 0; i < n_carried; ++i) {
    const Value* v = ctx.input_value(2 + i);
    if (!v || v->kind == Value::Kind::kNone) return ctx.Error("loop-carried input " + std::to_string(2 + i) + " is missing");
    carried[i] = *v;
  }
  std::vector<std::vector<Tensor>> scans(n_scan);
  int64_t scan_bytes = 0;
  std::vector<Value> in(2 + n_carried), outs;
  for (int64_t it = 0; it < max_trips && cond; ++it) {
    in[0] = Value(Tensor::Scalar<int64_t>(it));
    in[1] = Value(Tensor::Scalar<bool>(cond));
    for (int i = 0; i < n_carried; ++i) in[2 + i] = std::move(carried[i]);
    outs.clear();
    GE_RETURN_IF_ERROR(ctx.runner->Run(*body, in, &outs));
    if (static_cast<int>(outs.size()) != 1 + ctx.num_outputs()) {
      return ctx.Error("body produced " + std::to_string(outs.size()) + " outputs, expected " +
                       std::to_string(1 + ctx.num_outputs()));
    }
    GE_ASSIGN_OR_RETURN(int64_t c, ScalarInput(ctx, outs[0], "body output cond"));
    // Without a cond input the body's cond is ignored (ONNX Loop: "input (\"\", \"\")" / "(trip_count, \"\")").
    if (has_cond) cond = c != 0;
    for (int i = 0; i < n_carried; ++i) {
      if (outs[1 + i].kind == Value::Kind::kNone) {
        return ctx.Error("body produced no value for loop-carried output " + std::to_string(i));
      }
      carried[i] = std::move(outs[1 + i]);
    }
    for (int k = 0; k < n_scan; ++k) {
      Value& v = outs[1 + n_carried + k];
      if (!v.is_tensor()) return ctx.Error("scan output " + std::to_string(k) + " of the body must be a tensor");
      scan_bytes += static_cast<int64_t>(v.tensor.nbytes());
      if (scan_bytes > kMaxTensorBytes) return ResourceExhausted("node '" + ctx.node_name + "' (Loop): scan outputs exceed the tensor size limit");
      scans[k].push_back(std::move(v.tensor));
    }
  }
  for (int i = 0; i < n_carried; ++i) ctx.SetOutputValue(i, std::move(carried[i]));
  for (int k = 0; k < n_scan; ++k) {
    GE_ASSIGN_OR_RETURN(Tensor t, StackScan(ctx, n_carried + k, scans[k]));
    ctx.SetOutput(n_carried + k, std::move(t));
  }
  return Status::Ok();
}

Status RefSequenceMap(KernelContext& ctx) {
  GE_ASSIGN_OR_RETURN(const ir::Graph* body, GetBody(ctx, "body"));
  const Value* s0 = ctx.input_value(0);
  if (!s0 || !s0->is_sequence()) return ctx.Error("input 0 must be a sequence");
  const size_t n = s0->sequence.size();
  for (int j = 1; j < ctx.num_inputs(); ++j) {
    const Value* v = ctx.input_value(j);
    if (!v || (!v->is_sequence() && !v->is_tensor())) {
      return ctx.Error("input " + std::to_string(j) + " must be a sequence or a tensor");
    }
    if (v->is_sequence() && v->sequence.size() != n) {
      return ctx.Error("input " + std::to_string(j) + " has " + std::to_string(v->sequence.size()) +
                       " elements, input 0 has " + std::to_string(n));
    }
  }
  const int k_out = ctx.num_outputs();
  std::vector<std::vector<Tensor>> results(k_out);
  std::vector<Value> in(ctx.num_inputs()), outs;
  for (size_t i = 0; i < n; ++i) {
    for (int j = 0; j < ctx.num_inputs(); ++j) {
      const Value* v = ctx.input_value(j);
      in[j] = v->is_sequence() ? Value(v->sequence[i]) : *v;
    }
    outs.clear();
    GE_RETURN_IF_ERROR(ctx.runner->Run(*body, in, &outs));
    if (static_cast<int>(outs.size()) != k_out) {
      return ctx.Error("body produced " + std::to_string(outs.size()) + " outputs, expected " + std::to_string(k_out));
    }
    for (int k = 0; k < k_out; ++k) {
      if (!outs[k].is_tensor()) return ctx.Error("body output " + std::to_string(k) + " must be a tensor");
      results[k].push_back(std::move(outs[k].tensor));
    }
  }
  for (int k = 0; k < k_out; ++k) {
    DataType dt = results[k].empty() ? ctx.inferred[k].dtype : results[k][0].dtype();
    if (dt == DataType::kUndefined) dt = s0->elem_dtype;
    ctx.SetOutputValue(k, Value::Sequence(std::move(results[k]), dt));
  }
  return Status::Ok();
}

}  // namespace

void RegisterSubgraphKernels(KernelRegistry* r) {
  r->Add(OpId::kIf, RefIf);
  r->Add(OpId::kLoop, RefLoop);
  r->Add(OpId::kSequenceMap, RefSequenceMap);
}

}  // namespace ge::ref::control
