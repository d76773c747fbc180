// Scan: opset 9+ (scan_input_axes / directions, scan_output_axes / directions) and opset 8's batched form
// (sequence_lens input, batch axis 0, sequence axis 1, outputs padded with zeros to the longest sequence).
#include <algorithm>
#include <string>

#include "ir/graph.h"
#include "kernels/ref/control/control_kernels.h"
#include "kernels/ref/ref_util.h"

namespace ge::ref::control {
namespace {

struct ScanRun {
  std::vector<Tensor> states;               // in: initial, out: final
  std::vector<std::vector<Tensor>> scans;   // per scan output, per iteration (in iteration order)
};

// Runs the body `len` times over the scan inputs (each sliced along axes[j], backwards where dirs[j] is 1).
Status RunBody(KernelContext& ctx, const ir::Graph& body, const std::vector<Tensor>& inputs,
               const std::vector<int>& axes, const std::vector<int64_t>& dirs, int64_t len, int n_scan_out,
               ScanRun* run) {
  const int n_state = static_cast<int>(run->states.size());
  const int n_in = static_cast<int>(inputs.size());
  run->scans.assign(n_scan_out, {});
  std::vector<Value> in(n_state + n_in), outs;
  for (int64_t t = 0; t < len; ++t) {
    for (int i = 0; i < n_state; ++i) in[i] = Value(std::move(run->states[i]));
    for (int j = 0; j < n_in; ++j) {
      auto s = TakeAxis(inputs[j], axes[j], dirs[j] ? len - 1 - t : t);
      if (!s.ok()) return ctx.Error("scan input " + std::to_string(j) + ": " + s.status().message());
      in[n_state + j] = Value(std::move(s).value());
    }
    outs.clear();
    GE_RETURN_IF_ERROR(ctx.runner->Run(body, in, &outs));
    if (static_cast<int>(outs.size()) != n_state + n_scan_out) {
      return ctx.Error("body produced " + std::to_string(outs.size()) + " outputs, expected " +
                       std::to_string(n_state + n_scan_out));
    }
    for (int i = 0; i < n_state + n_scan_out; ++i) {
      if (!outs[i].is_tensor()) return ctx.Error("body output " + std::to_string(i) + " must be a tensor");
    }
    for (int i = 0; i < n_state; ++i) run->states[i] = std::move(outs[i].tensor);
    for (int k = 0; k < n_scan_out; ++k) run->scans[k].push_back(std::move(outs[n_state + k].tensor));
  }
  return Status::Ok();
}

StatusOr<const ir::Graph*> ScanBody(const KernelContext& ctx) {
  if (!ctx.node || !ctx.node->subgraph("body")) return ctx.Error("subgraph 'body' is missing");
  if (!ctx.runner) return ctx.Unsupported("no subgraph runner is available");
  return ctx.node->subgraph("body");
}

// Output with no iterations: the inferred shape, unknown dims read as 0.
StatusOr<Tensor> EmptyScanOutput(const KernelContext& ctx, int out) {
  const TensorDesc& d = ctx.inferred[out];
  Dims dims;
  if (!d.shape.unknown_rank()) {
    for (int64_t v : d.shape.dims()) dims.push_back(std::max<int64_t>(0, v));
  }
  if (dims.empty()) dims.push_back(0);
  return Tensor::Create(d.dtype == DataType::kUndefined ? DataType::kFloat : d.dtype, dims);
}

Status RefScan9(KernelContext& ctx, const ir::Graph& body) {
  const int n_vars = ctx.num_inputs();
  const int64_t m = ctx.attr().GetInt("num_scan_inputs", -1);
  if (m < 1 || m > n_vars) return ctx.Error("num_scan_inputs must be in [1, " + std::to_string(n_vars) + "]");
  const int n_in = static_cast<int>(m), n_state = n_vars - n_in;
  const int n_out = ctx.num_outputs() - n_state;
  if (n_out < 0) return ctx.Error("has fewer outputs than state variables");
  std::vector<int64_t> in_axes = ctx.attr().GetInts("scan_input_axes", std::vector<int64_t>(n_in, 0));
  std::vector<int64_t> in_dirs = ctx.attr().GetInts("scan_input_directions", std::vector<int64_t>(n_in, 0));
  std::vector<int64_t> out_axes = ctx.attr().GetInts("scan_output_axes", std::vector<int64_t>(n_out, 0));
  std::vector<int64_t> out_dirs = ctx.attr().GetInts("scan_output_directions", std::vector<int64_t>(n_out, 0));
  if (static_cast<int>(in_axes.size()) != n_in || static_cast<int>(in_dirs.size()) != n_in ||
      static_cast<int>(out_axes.size()) != n_out || static_cast<int>(out_dirs.size()) != n_out) {
    return ctx.Error("scan axes / directions attributes have the wrong length");
  }
  ScanRun run;
  for (int i = 0; i < n_state; ++i) {
    const Tensor* t = ctx.input(i);
    if (!t) return ctx.Error("initial state " + std::to_string(i) + " must be a tensor");
    run.states.push_back(*t);
  }
  std::vector<Tensor> inputs;
  std::vector<int> axes;
  int64_t len = -1;
  for (int j = 0; j < n_in; ++j) {
    const Tensor* t = ctx.input(n_state + j);
    if (!t) return ctx.Error("scan input " + std::to_string(j) + " must be a tensor");
    auto a = NormalizeAxis(in_axes[j], t->rank());
    if (!a.ok()) return ctx.Error("scan_input_axes: " + a.status().message());
    if (len >= 0 && t->dim(*a) != len) return ctx.Error("scan inputs disagree on the sequence length");
    len = t->dim(*a);
    inputs.push_back(*t);
    axes.push_back(*a);
  }
  GE_RETURN_IF_ERROR(RunBody(ctx, body, inputs, axes, in_dirs, len, n_out, &run));
  for (int i = 0; i < n_state; ++i) ctx.SetOutput(i, std::move(run.states[i]));
  for (int k = 0; k < n_out; ++k) {
    std::vector<Tensor>& items = run.scans[k];
    if (items.empty()) {
      GE_ASSIGN_OR_RETURN(Tensor e, EmptyScanOutput(ctx, n_state + k));
      ctx.SetOutput(n_state + k, std::move(e));
      continue;
    }
    if (out_dirs[k]) std::reverse(items.begin(), items.end());
    auto a = NormalizeAxis(out_axes[k], items[0].rank() + 1);
    if (!a.ok()) return ctx.Error("scan_output_axes: " + a.status().message());
    auto t = ConcatTensors(items, *a, true);
    if (!t.ok()) return ctx.Error("scan output " + std::to_string(k) + ": " + t.status().message());
    ctx.SetOutput(n_state + k, std::move(t).value());
  }
  return Status::Ok();
}

Status RefScan8(KernelContext& ctx, const ir::Graph& body) {
  const int n_vars = ctx.num_inputs() - 1;
  const int64_t m = ctx.attr().GetInt("num_scan_inputs", -1);
  if (m < 1 || m > n_vars) return ctx.Error("num_scan_inputs must be in [1, " + std::to_string(n_vars) + "]");
  const int n_in = static_cast<int>(m), n_state = n_vars - n_in;
  const int n_out = ctx.num_outputs() - n_state;
  if (n_out < 0) return ctx.Error("has fewer outputs than state variables");
  std::vector<int64_t> dirs = ctx.attr().GetInts("directions", std::vector<int64_t>(n_in, 0));
  if (static_cast<int>(dirs.size()) != n_in) return ctx.Error("directions has the wrong length");
  int64_t batch = -1, max_len = -1;
  for (int i = 1; i <= n_vars; ++i) {
    const Tensor* t = ctx.input(i);
    if (!t) return ctx.Error("input " + std::to_string(i) + " must be a tensor");
    const bool is_scan = i > n_state;
    if (t->rank() < (is_scan ? 2 : 1)) return ctx.Error("input " + std::to_string(i) + " lacks the batch/sequence axes");
    if (batch >= 0 && t->dim(0) != batch) return ctx.Error("inputs disagree on the batch size");
    batch = t->dim(0);
    if (is_scan) {
      if (max_len >= 0 && t->dim(1) != max_len) return ctx.Error("scan inputs disagree on the sequence length");
      max_len = t->dim(1);
    }
  }
  std::vector<int64_t> lens(batch, max_len);
  if (const Tensor* sl = ctx.input(0)) {
    if (sl->numel() != batch) return ctx.Error("sequence_lens must have one entry per batch");
    for (int64_t b = 0; b < batch; ++b) {
      lens[b] = sl->GetAsInt64(b);
      if (lens[b] < 0 || lens[b] > max_len) {
        return ctx.Error("sequence_lens[" + std::to_string(b) + "] = " + std::to_string(lens[b]) + " is outside [0, " +
                         std::to_string(max_len) + "]");
      }
    }
  }
  std::vector<std::vector<Tensor>> final_states(n_state), scan_outs(n_out);
  const std::vector<int> axes(n_in, 0);
  for (int64_t b = 0; b < batch; ++b) {
    ScanRun run;
    for (int i = 0; i < n_state; ++i) {
      GE_ASSIGN_OR_RETURN(Tensor s, TakeAxis(*ctx.input(1 + i), 0, b));
      run.states.push_back(std::move(s));
    }
    std::vector<Tensor> inputs;
    for (int j = 0; j < n_in; ++j) {
      GE_ASSIGN_OR_RETURN(Tensor s, TakeAxis(*ctx.input(1 + n_state + j), 0, b));
      GE_ASSIGN_OR_RETURN(Tensor part, SliceAxis(s, 0, 0, lens[b]));
      inputs.push_back(std::move(part));
    }
    GE_RETURN_IF_ERROR(RunBody(ctx, body, inputs, axes, dirs, lens[b], n_out, &run));
    for (int i = 0; i < n_state; ++i) final_states[i].push_back(std::move(run.states[i]));
    for (int k = 0; k < n_out; ++k) {
      std::vector<Tensor>& items = run.scans[k];
      if (items.empty()) {
        scan_outs[k].push_back(Tensor());  // padded below once an element shape is known
        continue;
      }
      auto stacked = ConcatTensors(items, 0, true);
      if (!stacked.ok()) return ctx.Error("scan output " + std::to_string(k) + ": " + stacked.status().message());
      if (lens[b] < max_len) {
        Dims pad_dims = stacked->dims();
        pad_dims[0] = max_len - lens[b];
        GE_ASSIGN_OR_RETURN(Tensor pad, Tensor::Create(stacked->dtype(), pad_dims));
        stacked = ConcatTensors({*stacked, pad}, 0, false);
        if (!stacked.ok()) return ctx.Error(stacked.status().message());
      }
      scan_outs[k].push_back(std::move(stacked).value());
    }
  }
  for (int i = 0; i < n_state; ++i) {
    if (batch == 0) {
      GE_ASSIGN_OR_RETURN(Tensor e, EmptyScanOutput(ctx, i));
      ctx.SetOutput(i, std::move(e));
      continue;
    }
    auto t = ConcatTensors(final_states[i], 0, true);
    if (!t.ok()) return ctx.Error("state " + std::to_string(i) + ": " + t.status().message());
    ctx.SetOutput(i, std::move(t).value());
  }
  for (int k = 0; k < n_out; ++k) {
    std::vector<Tensor>& per_batch = scan_outs[k];
    const Tensor* proto = nullptr;
    for (const Tensor& t : per_batch) {
      if (t.valid()) proto = &t;
    }
    if (!proto) {
      GE_ASSIGN_OR_RETURN(Tensor e, EmptyScanOutput(ctx, n_state + k));
      ctx.SetOutput(n_state + k, std::move(e));
      continue;
    }
    const Tensor shape_of = *proto;
    for (Tensor& t : per_batch) {
      if (!t.valid()) {
        GE_ASSIGN_OR_RETURN(t, Tensor::Create(shape_of.dtype(), shape_of.dims()));
      }
    }
    auto t = ConcatTensors(per_batch, 0, true);
    if (!t.ok()) return ctx.Error("scan output " + std::to_string(k) + ": " + t.status().message());
    ctx.SetOutput(n_state + k, std::move(t).value());
  }
  return Status::Ok();
}

Status RefScan(KernelContext& ctx) {
  GE_ASSIGN_OR_RETURN(const ir::Graph* body, ScanBody(ctx));
  return ctx.opset < 9 ? RefScan8(ctx, *body) : RefScan9(ctx, *body);
}

}  // namespace

void RegisterScanKernels(KernelRegistry* r) { r->Add(OpId::kScan, RefScan); }

}  // namespace ge::ref::control
