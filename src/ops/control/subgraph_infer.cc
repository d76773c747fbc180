// Inference of the ops that own subgraphs: If, Loop, Scan, SequenceMap. Output descriptions come from the body's
// declared outputs; dims that vary by iteration or branch are left unknown.
#include <string>

#include "ir/graph.h"
#include "ops/control/control_ops.h"
#include "ops/infer_util.h"

namespace ge::ops::control {
namespace {

StatusOr<const ir::Graph*> Body(const InferContext& ctx, const char* attr) {
  if (!ctx.node) return static_cast<const ir::Graph*>(nullptr);
  const ir::Graph* g = ctx.node->subgraph(attr);
  if (!g) return ctx.Error(std::string("subgraph attribute '") + attr + "' is missing");
  return g;
}

Status CheckScalarLike(const InferContext& ctx, int i, DataType want, const char* what) {
  const TensorDesc* d = ctx.input(i);
  if (!d) return Status::Ok();
  if (d->kind != ValueKind::kTensor && d->kind != ValueKind::kUnknown) {
    return ctx.Error(std::string(what) + " must be a tensor");
  }
  if (d->dtype != DataType::kUndefined && d->dtype != want) {
    return ctx.Error(std::string(what) + " must be " + DataTypeName(want) + ", got " + DataTypeName(d->dtype));
  }
  if (!d->shape.unknown_rank()) {
    for (int64_t dim : d->shape.dims()) {
      if (dim != 1 && dim != kUnknownDim) return ctx.Error(std::string(what) + " must hold one element");
    }
  }
  return Status::Ok();
}

Status InferIf(InferContext& ctx) {
  GE_RETURN_IF_ERROR(CheckScalarLike(ctx, 0, DataType::kBool, "cond"));
  GE_ASSIGN_OR_RETURN(const ir::Graph* then_g, Body(ctx, "then_branch"));
  GE_ASSIGN_OR_RETURN(const ir::Graph* else_g, Body(ctx, "else_branch"));
  if (!then_g || !else_g) return Status::Ok();
  const int n = ctx.num_outputs();
  if (static_cast<int>(then_g->outputs().size()) != n || static_cast<int>(else_g->outputs().size()) != n) {
    return ctx.Error("then_branch has " + std::to_string(then_g->outputs().size()) + " outputs and else_branch " +
                     std::to_string(else_g->outputs().size()) + ", the node has " + std::to_string(n));
  }
  const Tensor* cond = ctx.input_value(0);
  for (int i = 0; i < n; ++i) {
    const TensorDesc& t = then_g->outputs()[i]->desc();
    const TensorDesc& e = else_g->outputs()[i]->desc();
    if (cond && cond->numel() == 1) {
      ctx.output(i) = cond->GetAsInt64(0) != 0 ? t : e;
    } else {
      if (t.dtype != DataType::kUndefined && e.dtype != DataType::kUndefined && t.dtype != e.dtype) {
        return ctx.Error("output " + std::to_string(i) + " is " + DataTypeName(t.dtype) + " in then_branch but " +
                         DataTypeName(e.dtype) + " in else_branch");
      }
      ctx.output(i) = MergeDescs(t, e);
    }
  }
  return Status::Ok();
}

// Loop(M?, cond?, v_initial...) -> (v_final..., scan_outputs...). Body: (iter, cond, v...) -> (cond, v..., scans...).
Status InferLoop(InferContext& ctx) {
  GE_RETURN_IF_ERROR(CheckScalarLike(ctx, 0, DataType::kInt64, "M (max trip count)"));
  GE_RETURN_IF_ERROR(CheckScalarLike(ctx, 1, DataType::kBool, "cond"));
  const int n_carried = ctx.num_inputs() > 2 ? ctx.num_inputs() - 2 : 0;
  const int n_out = ctx.num_outputs();
  if (n_out < n_carried) {
    return ctx.Error("has " + std::to_string(n_carried) + " loop-carried inputs but only " + std::to_string(n_out) +
                     " outputs");
  }
  for (int i = 0; i < n_carried; ++i) {
    if (!ctx.has_input(2 + i)) return ctx.Error("loop-carried input " + std::to_string(2 + i) + " is missing");
  }
  GE_ASSIGN_OR_RETURN(const ir::Graph* body, Body(ctx, "body"));
  if (!body) {
    for (int i = 0; i < n_carried; ++i) ctx.output(i) = *ctx.input(2 + i);
    return Status::Ok();
  }
  if (static_cast<int>(body->inputs().size()) != 2 + n_carried) {
    return ctx.Error("body has " + std::to_string(body->inputs().size()) + " inputs, expected " +
                     std::to_string(2 + n_carried) + " (iteration, cond, loop-carried values)");
  }
  if (static_cast<int>(body->outputs().size()) != 1 + n_out) {
    return ctx.Error("body has " + std::to_string(body->outputs().size()) + " outputs, expected " +
                     std::to_string(1 + n_out) + " (cond, loop-carried values, scan outputs)");
  }
  for (int i = 0; i < n_carried; ++i) {
    ctx.output(i) = MergeDescs(*ctx.input(2 + i), body->outputs()[1 + i]->desc());
    // An optional input may come back as the value it holds (and the other way round).
    if (ctx.input(2 + i)->kind == ValueKind::kOptional) ctx.output(i).kind = ValueKind::kOptional;
  }
  // The trip count is known only when M is known and there is no condition.
  int64_t trips = kUnknownDim;
  if (const Tensor* m = ctx.input_value(0); m && m->numel() == 1 && !ctx.has_input(1)) {
    trips = std::max<int64_t>(0, m->GetAsInt64(0));
  }
  for (int k = n_carried; k < n_out; ++k) {
    const TensorDesc& d = body->outputs()[1 + k]->desc();
    TensorDesc out(d.dtype, Shape::UnknownRank());
    if (!d.shape.unknown_rank()) {
      out.shape = Shape();
      out.shape.AddDim(trips);
      for (int j = 0; j < d.shape.rank(); ++j) out.shape.AddDim(d.shape.dim(j), d.shape.symbol(j));
    }
    ctx.output(k) = out;
  }
  return Status::Ok();
}

struct ScanLayout {
  int first_state = 0;  // opset 8 has sequence_lens first
  int n_state = 0;
  int n_scan_in = 0;
  int n_scan_out = 0;
  bool batched = false;  // opset 8
};

StatusOr<ScanLayout> GetScanLayout(const InferContext& ctx) {
  ScanLayout l;
  l.batched = ctx.opset < 9;
  l.first_state = l.batched ? 1 : 0;
  const int64_t m = ctx.attr().GetInt("num_scan_inputs", -1);
  const int n_vars = ctx.num_inputs() - l.first_state;
  if (m < 1 || m > n_vars) {
    return ctx.Error("num_scan_inputs must be in [1, " + std::to_string(n_vars) + "], got " + std::to_string(m));
  }
  l.n_scan_in = static_cast<int>(m);
  l.n_state = n_vars - l.n_scan_in;
  l.n_scan_out = ctx.num_outputs() - l.n_state;
  if (l.n_scan_out < 0) return ctx.Error("has fewer outputs than state variables");
  for (int i = l.first_state; i < ctx.num_inputs(); ++i) {
    if (!ctx.has_input(i)) return ctx.Error("input " + std::to_string(i) + " is missing");
    if (ctx.input(i)->kind != ValueKind::kTensor && ctx.input(i)->kind != ValueKind::kUnknown) {
      return ctx.Error("input " + std::to_string(i) + " must be a tensor");
    }
  }
  return l;
}

Status CheckDirections(const InferContext& ctx, const char* name, size_t count) {
  if (!ctx.attr().Has(name)) return Status::Ok();
  std::vector<int64_t> d = ctx.attr().GetInts(name);
  if (d.size() != count) {
    return ctx.Error(std::string(name) + " has " + std::to_string(d.size()) + " entries, expected " +
                     std::to_string(count));
  }
  for (int64_t v : d) {
    if (v != 0 && v != 1) return ctx.Error(std::string(name) + " entries must be 0 or 1");
  }
  return Status::Ok();
}

Status InferScan(InferContext& ctx) {
  GE_ASSIGN_OR_RETURN(ScanLayout l, GetScanLayout(ctx));
  const char* dir_attr = l.batched ? "directions" : "scan_input_directions";
  GE_RETURN_IF_ERROR(CheckDirections(ctx, dir_attr, l.n_scan_in));
  if (!l.batched) GE_RETURN_IF_ERROR(CheckDirections(ctx, "scan_output_directions", l.n_scan_out));
  if (l.batched && ctx.has_input(0)) {
    const TensorDesc* sl = ctx.input(0);
    if (sl->dtype != DataType::kUndefined && sl->dtype != DataType::kInt32) {
      return ctx.Error("sequence_lens must be int32");
    }
  }
  std::vector<int64_t> in_axes = ctx.attr().GetInts("scan_input_axes", std::vector<int64_t>(l.n_scan_in, 0));
  std::vector<int64_t> out_axes = ctx.attr().GetInts("scan_output_axes", std::vector<int64_t>(l.n_scan_out, 0));
  if (l.batched && (ctx.attr().Has("scan_input_axes") || ctx.attr().Has("scan_output_axes"))) {
    return ctx.Error("scan_input_axes / scan_output_axes need opset 9 or later");
  }
  if (static_cast<int>(in_axes.size()) != l.n_scan_in) return ctx.Error("scan_input_axes has the wrong length");
  if (static_cast<int>(out_axes.size()) != l.n_scan_out) return ctx.Error("scan_output_axes has the wrong length");

  // Sequence length (and batch size in the opset-8 form) from the scan inputs.
  int64_t seq_len = kUnknownDim, batch = kUnknownDim;
  for (int j = 0; j < l.n_scan_in; ++j) {
    const Shape& s = ctx.input(l.first_state + l.n_state + j)->shape;
    if (s.unknown_rank()) continue;
    int axis = 0;
    if (l.batched) {
      if (s.rank() < 2) return ctx.Error("scan inputs must have rank >= 2 (batch, sequence, ...)");
      axis = 1;
      if (s.dim(0) != kUnknownDim) {
        if (batch != kUnknownDim && batch != s.dim(0)) return ctx.Error("scan inputs disagree on the batch size");
        batch = s.dim(0);
      }
    } else {
      auto a = NormalizeAxis(in_axes[j], s.rank());
      if (!a.ok()) return ctx.Error("scan_input_axes: " + a.status().message());
      axis = *a;
    }
    if (s.dim(axis) != kUnknownDim) {
      if (seq_len != kUnknownDim && seq_len != s.dim(axis)) {
        return ctx.Error("scan inputs disagree on the sequence length");
      }
      seq_len = s.dim(axis);
    }
  }
  for (int i = 0; i < l.n_state; ++i) {
    const Shape& s = ctx.input(l.first_state + i)->shape;
    if (l.batched && !s.unknown_rank() && s.rank() >= 1 && s.dim(0) != kUnknownDim) {
      if (batch != kUnknownDim && batch != s.dim(0)) return ctx.Error("initial states disagree on the batch size");
      batch = s.dim(0);
    }
  }

  GE_ASSIGN_OR_RETURN(const ir::Graph* body, Body(ctx, "body"));
  if (body) {
    if (static_cast<int>(body->inputs().size()) != l.n_state + l.n_scan_in) {
      return ctx.Error("body has " + std::to_string(body->inputs().size()) + " inputs, expected " +
                       std::to_string(l.n_state + l.n_scan_in));
    }
    if (static_cast<int>(body->outputs().size()) != ctx.num_outputs()) {
      return ctx.Error("body has " + std::to_string(body->outputs().size()) + " outputs, expected " +
                       std::to_string(ctx.num_outputs()));
    }
  }
  for (int i = 0; i < l.n_state; ++i) {
    TensorDesc d = *ctx.input(l.first_state + i);
    if (body) {
      TensorDesc b = body->outputs()[i]->desc();
      if (l.batched && !b.shape.unknown_rank()) {
        Shape s;
        s.AddDim(batch);
        for (int j = 0; j < b.shape.rank(); ++j) s.AddDim(b.shape.dim(j), b.shape.symbol(j));
        b.shape = s;
      }
      d = MergeDescs(d, b);
    }
    d.kind = ValueKind::kTensor;
    ctx.output(i) = d;
  }
  for (int k = 0; k < l.n_scan_out; ++k) {
    TensorDesc out(DataType::kUndefined, Shape::UnknownRank());
    if (body) {
      const TensorDesc& b = body->outputs()[l.n_state + k]->desc();
      out.dtype = b.dtype;
      if (!b.shape.unknown_rank()) {
        Shape s;
        if (l.batched) {
          s.AddDim(batch);
          s.AddDim(seq_len);
          for (int j = 0; j < b.shape.rank(); ++j) s.AddDim(b.shape.dim(j), b.shape.symbol(j));
        } else {
          auto a = NormalizeAxis(out_axes[k], b.shape.rank() + 1);
          if (!a.ok()) return ctx.Error("scan_output_axes: " + a.status().message());
          for (int j = 0; j < b.shape.rank(); ++j) {
            if (j == *a) s.AddDim(seq_len);
            s.AddDim(b.shape.dim(j), b.shape.symbol(j));
          }
          if (*a == b.shape.rank()) s.AddDim(seq_len);
        }
        out.shape = s;
      }
    }
    ctx.output(l.n_state + k) = out;
  }
  return Status::Ok();
}

// SequenceMap(input_sequence, additional_inputs...) -> out_sequences: the body runs once per element.
Status InferSequenceMap(InferContext& ctx) {
  const TensorDesc* s = ctx.input(0);
  if (s->kind != ValueKind::kSequence && s->kind != ValueKind::kUnknown) {
    return ctx.Error("input 0 must be a sequence");
  }
  for (int i = 1; i < ctx.num_inputs(); ++i) {
    if (!ctx.has_input(i)) return ctx.Error("input " + std::to_string(i) + " is missing");
  }
  GE_ASSIGN_OR_RETURN(const ir::Graph* body, Body(ctx, "body"));
  if (body && static_cast<int>(body->inputs().size()) != ctx.num_inputs()) {
    return ctx.Error("body has " + std::to_string(body->inputs().size()) + " inputs, the node has " +
                     std::to_string(ctx.num_inputs()));
  }
  if (body && static_cast<int>(body->outputs().size()) != ctx.num_outputs()) {
    return ctx.Error("body has " + std::to_string(body->outputs().size()) + " outputs, the node has " +
                     std::to_string(ctx.num_outputs()));
  }
  for (int k = 0; k < ctx.num_outputs(); ++k) {
    TensorDesc d;
    d.kind = ValueKind::kSequence;
    if (body) {
      d.dtype = body->outputs()[k]->desc().dtype;
      d.shape = body->outputs()[k]->desc().shape;
    }
    ctx.output(k) = d;
  }
  return Status::Ok();
}

}  // namespace

void RegisterSubgraphOps(OpRegistry* r) {
  r->Add({OpId::kIf, 1, 1, 1, kVariadic, InferIf});
  r->Add({OpId::kLoop, 0, kVariadic, 1, kVariadic, InferLoop});
  r->Add({OpId::kScan, 0, kVariadic, 1, kVariadic, InferScan});  // opset 8 may omit input 0
  r->Add({OpId::kSequenceMap, 1, kVariadic, 1, kVariadic, InferSequenceMap});
}

}  // namespace ge::ops::control
