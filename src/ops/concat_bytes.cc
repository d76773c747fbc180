#include "ops/concat_bytes.h"

#include "ops/infer_util.h"
#include "ops/op_id.h"

namespace ge::ops {
namespace {

bool KnownTensor(const ir::Value* v) {
  if (v == nullptr) return false;
  const TensorDesc& d = v->desc();
  return d.kind == ValueKind::kTensor && d.dtype != DataType::kUndefined && d.dtype != DataType::kString &&
         d.shape.IsFullyKnown();
}

}  // namespace

bool ConcatJoinsBytes(const ir::Node& node) {
  if (!IsOp(node, OpId::kConcat) || node.num_outputs() != 1 || node.num_inputs() < 1) return false;
  if (!node.attrs().Has("axis")) return false;
  const ir::Value* out = node.output(0);
  if (!KnownTensor(out)) return false;
  const TensorDesc& od = out->desc();
  const Dims& out_dims = od.shape.dims();
  auto axis_or = NormalizeAxis(node.attrs().GetInt("axis", 1), static_cast<int>(out_dims.size()));
  if (!axis_or.ok()) return false;
  const int axis = *axis_or;
  const Format format = od.format;
  const bool blocked = PrimaryFormat(format) == Format::kNC1HWC0;
  if (blocked) {
    if (axis != 1 || out_dims.size() < 3 || out_dims.size() > 5 || out_dims[0] != 1) return false;
  } else {
    if (IsNonPlainLayout(format)) return false;
    for (int k = 0; k < axis; ++k) {
      if (out_dims[k] != 1) return false;
    }
  }
  int64_t joined = 0;
  for (int i = 0; i < node.num_inputs(); ++i) {
    const ir::Value* in = node.input(i);
    if (!KnownTensor(in)) return false;
    const TensorDesc& d = in->desc();
    const Dims& dims = d.shape.dims();
    // Plain layouts (ND, NCHW) are all row-major over the logical dims; a blocked one must match exactly.
    const bool same_layout = blocked ? d.format == format : !IsNonPlainLayout(d.format);
    if (d.dtype != od.dtype || !same_layout || dims.size() != out_dims.size()) return false;
    for (size_t k = 0; k < dims.size(); ++k) {
      if (static_cast<int>(k) != axis && dims[k] != out_dims[k]) return false;
      if (dims[k] <= 0) return false;
    }
    if (blocked && dims[1] % FormatC0(format) != 0) return false;
    joined += dims[axis];
  }
  return joined == out_dims[axis];
}

}  // namespace ge::ops
