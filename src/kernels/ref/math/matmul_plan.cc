#include "kernels/ref/math/matmul_plan.h"

#include "kernels/ref/ref_util.h"

namespace ge::ref::math {

StatusOr<MatMulPlan> PlanMatMul(const Dims& a, const Dims& b) {
  if (a.empty() || b.empty()) return InvalidArgument("matmul operands must have rank >= 1");
  Dims a2 = a, b2 = b;
  const bool vec_a = a.size() == 1, vec_b = b.size() == 1;
  if (vec_a) a2.insert(a2.begin(), 1);
  if (vec_b) b2.push_back(1);
  const size_t ra = a2.size(), rb = b2.size();
  MatMulPlan p;
  p.m = a2[ra - 2];
  p.k = a2[ra - 1];
  p.n = b2[rb - 1];
  p.rows = p.m;
  if (b2[rb - 2] != p.k) {
    return InvalidArgument("inner dimensions differ: " + DimsToString(a) + " @ " + DimsToString(b));
  }
  Dims batch_a(a2.begin(), a2.end() - 2), batch_b(b2.begin(), b2.end() - 2);
  auto batch = BroadcastDims(batch_a, batch_b);
  if (!batch.ok()) return InvalidArgument("batch dims: " + batch.status().message());
  p.out_dims = *batch;
  if (!vec_a) p.out_dims.push_back(p.m);
  if (!vec_b) p.out_dims.push_back(p.n);
  if (NumElements(p.out_dims) == 0) return p;

  const int64_t batches = NumElements(*batch);
  if (NumElements(batch_b) == 1) {
    p.m *= batches;
    p.a_offsets = {0};
    p.b_offsets = {0};
    return p;
  }
  p.a_offsets.reserve(batches);
  p.b_offsets.reserve(batches);
  const int64_t a_mat = p.m * p.k, b_mat = p.k * p.n;
  ForEachBroadcast(*batch, {batch_a, batch_b}, [&](int64_t, const int64_t* off) {
    p.a_offsets.push_back(off[0] * a_mat);
    p.b_offsets.push_back(off[1] * b_mat);
  });
  return p;
}

}  // namespace ge::ref::math
