#include "ops/control/control_ops.h"
#include "ops/families.h"

namespace ge::ops {

namespace control {

Shape MergeShapes(const Shape& a, const Shape& b) {
  if (a.unknown_rank() || b.unknown_rank() || a.rank() != b.rank()) return Shape::UnknownRank();
  Shape out;
  for (int i = 0; i < a.rank(); ++i) {
    if (a.dim(i) == b.dim(i) && a.symbol(i) == b.symbol(i)) {
      out.AddDim(a.dim(i), a.symbol(i));
    } else {
      out.AddDim(kUnknownDim);
    }
  }
  return out;
}

TensorDesc MergeDescs(const TensorDesc& a, const TensorDesc& b) {
  if (a.kind == ValueKind::kUnknown) return b;
  if (b.kind == ValueKind::kUnknown) return a;
  TensorDesc out = a;
  if (out.dtype == DataType::kUndefined) out.dtype = b.dtype;
  out.shape = MergeShapes(a.shape, b.shape);
  return out;
}

}  // namespace control

void RegisterControlOps(OpRegistry* r) {
  control::RegisterSubgraphOps(r);
  control::RegisterSequenceOps(r);
  control::RegisterOptionalOps(r);
}

}  // namespace ge::ops
