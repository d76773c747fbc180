#include "kernels/ref/elementwise/elementwise_util.h"

namespace ge::ref::elementwise {

StatusOr<Dims> BroadcastAll(const KernelContext& ctx, int first, int last) {
  Dims out;
  bool have = false;
  for (int i = first; i <= last && i < ctx.num_inputs(); ++i) {
    if (!ctx.has_input(i)) continue;
    GE_ASSIGN_OR_RETURN(const Tensor* t, TensorInput(ctx, i));
    if (!have) {
      out = t->dims();
      have = true;
      continue;
    }
    auto b = BroadcastDims(out, t->dims());
    if (!b.ok()) return ctx.Error(b.status().message());
    out = *b;
  }
  if (!have) return ctx.Error("no input");
  return out;
}

}  // namespace ge::ref::elementwise
