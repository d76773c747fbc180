// Inference of Einsum (opset 12).
#include "ops/infer_util.h"
#include "ops/reduce/einsum_equation.h"
#include "ops/reduce/reduce_ops_internal.h"

namespace ge::ops {
namespace {

Status InferEinsum(InferContext& ctx) {
  if (!ctx.attr().Has("equation")) return ctx.Error("attribute 'equation' is required");
  const std::string equation = ctx.attr().GetString("equation", "");
  DataType dt = DataType::kUndefined;
  std::vector<int> ranks;
  bool ranks_known = true;
  for (int i = 0; i < ctx.num_inputs(); ++i) {
    if (!ctx.has_input(i)) return ctx.Error("input " + std::to_string(i) + " is missing");
    const TensorDesc& d = *ctx.input(i);
    if (d.dtype != DataType::kUndefined) {
      if (!IsRealNumeric(d.dtype)) return ctx.Error("unsupported data type " + std::string(DataTypeName(d.dtype)));
      if (dt != DataType::kUndefined && d.dtype != dt) return ctx.Error("all inputs must have the same data type");
      dt = d.dtype;
    }
    if (d.shape.unknown_rank()) ranks_known = false;
    ranks.push_back(d.shape.rank());
  }
  if (!ranks_known) {
    ctx.output(0) = TensorDesc(dt, Shape::UnknownRank());
    return Status::Ok();
  }
  reduce::EinsumPlan plan;
  Status st = reduce::ParseEinsum(equation, ranks, &plan);
  if (!st.ok()) return ctx.Error(st.message());
  // A label's size: its known size other than 1 when there is one (1 broadcasts), else unknown if any is unknown.
  std::vector<int64_t> size(plan.num_labels, 1);
  std::vector<bool> unknown(plan.num_labels, false);
  for (int i = 0; i < ctx.num_inputs(); ++i) {
    const Shape& s = ctx.input(i)->shape;
    for (int d = 0; d < s.rank(); ++d) {
      const int l = plan.in_labels[i][d];
      const int64_t v = s.dim(d);
      if (v == kUnknownDim) {
        unknown[l] = true;
      } else if (v != 1) {
        if (size[l] != 1 && size[l] != v) {
          return ctx.Error("einsum dimension mismatch for a label of '" + equation + "': " + std::to_string(size[l]) +
                           " vs " + std::to_string(v));
        }
        size[l] = v;
      }
    }
  }
  Shape out;
  for (int l : plan.out_labels) out.AddDim(size[l] != 1 || !unknown[l] ? size[l] : kUnknownDim);
  ctx.output(0) = TensorDesc(dt, out);
  return Status::Ok();
}

}  // namespace

void RegisterEinsumOps(OpRegistry* r) { r->Add({OpId::kEinsum, 1, kVariadic, 1, 1, InferEinsum}); }

}  // namespace ge::ops
