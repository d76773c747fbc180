#include "kernels/exec/broadcast_plan.h"

#include <vector>

namespace ge::exec {

void BroadcastPlan::RowOffsets(int64_t row, int64_t* off_a, int64_t* off_b) const {
  int64_t oa = 0, ob = 0;
  for (int d = outer_rank - 1; d >= 0; --d) {
    const int64_t i = row % outer_dims[d];
    row /= outer_dims[d];
    oa += i * stride_a[d];
    ob += i * stride_b[d];
  }
  *off_a = oa;
  *off_b = ob;
}

StatusOr<BroadcastPlan> PlanBroadcast(const Dims& a, const Dims& b, const Dims& out) {
  const int rank = static_cast<int>(out.size());
  if (static_cast<int>(a.size()) > rank || static_cast<int>(b.size()) > rank) {
    return InvalidArgument("inputs " + DimsToString(a) + " and " + DimsToString(b) + " have a higher rank than " +
                           DimsToString(out));
  }
  // Per output dim (extent > 1): whether a / b has it (1) or broadcasts along it (0). Merge equal neighbours.
  std::vector<int64_t> mdims;
  std::vector<char> ma, mb;
  for (int d = 0; d < rank; ++d) {
    const int ia = d - (rank - static_cast<int>(a.size()));
    const int ib = d - (rank - static_cast<int>(b.size()));
    const int64_t ea = ia < 0 ? 1 : a[ia];
    const int64_t eb = ib < 0 ? 1 : b[ib];
    if ((ea != 1 && ea != out[d]) || (eb != 1 && eb != out[d]) || (ea == 1 && eb == 1 && out[d] != 1)) {
      return InvalidArgument("inputs " + DimsToString(a) + " and " + DimsToString(b) + " do not broadcast to " +
                             DimsToString(out));
    }
    if (out[d] == 1) continue;
    const char ha = ea != 1, hb = eb != 1;
    if (!mdims.empty() && ma.back() == ha && mb.back() == hb) {
      mdims.back() *= out[d];
    } else {
      mdims.push_back(out[d]);
      ma.push_back(ha);
      mb.push_back(hb);
    }
  }
  BroadcastPlan p;
  p.numel = NumElements(out);
  const int m = static_cast<int>(mdims.size());
  const bool a_full = m == 0 || (m == 1 && ma[0]);
  const bool b_full = m == 0 || (m == 1 && mb[0]);
  if (a_full && b_full) {
    p.kind = BroadcastPlan::Kind::kSame;
    return p;
  }
  if (m == 1) {
    p.kind = ma[0] ? BroadcastPlan::Kind::kScalarB : BroadcastPlan::Kind::kScalarA;
    return p;
  }
  if (m - 1 > BroadcastPlan::kMaxOuterRank) return Unimplemented("broadcast loop nest too deep");
  p.kind = BroadcastPlan::Kind::kGeneral;
  p.inner = mdims[m - 1];
  p.step_a = ma[m - 1];
  p.step_b = mb[m - 1];
  p.outer_rank = m - 1;
  p.rows = 1;
  int64_t sa = ma[m - 1] ? p.inner : 1, sb = mb[m - 1] ? p.inner : 1;
  for (int d = m - 2; d >= 0; --d) {
    p.outer_dims[d] = mdims[d];
    p.stride_a[d] = ma[d] ? sa : 0;
    p.stride_b[d] = mb[d] ? sb : 0;
    if (ma[d]) sa *= mdims[d];
    if (mb[d]) sb *= mdims[d];
    p.rows *= mdims[d];
  }
  return p;
}

}  // namespace ge::exec
