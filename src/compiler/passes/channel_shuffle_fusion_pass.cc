// ChannelShuffleFusion: ShuffleNet's channel shuffle as torch exports it — Reshape [N, C, ...] -> [N, g, C/g, ...],
// Transpose swapping axes 1 and 2, Reshape back to [N, C, ...] — becomes one ge::ChannelShuffle, taking in the
// channel Concat that feeds it (when nothing else reads the concat) and the Slices that split its result into equal
// channel ranges (when they are its only readers and cover it). ShuffleNet's blocks then run as one gather instead
// of a concat, a 5-D transpose and two slices, and stay in the NHWC layout of their convolutions (format
// selection), where the shuffle is a per-pixel channel permutation.
#include <algorithm>
#include <vector>

#include "compiler/passes/fusion_util.h"
#include "compiler/passes/passes.h"

namespace ge::compiler {
namespace {

bool KnownDims(const ir::Value* v, Dims* dims) {
  if (v == nullptr || v->desc().kind != ValueKind::kTensor || !v->desc().shape.IsFullyKnown()) return false;
  *dims = v->desc().shape.dims();
  return true;
}

// The one-element int64 constant input i of n.
bool ConstInt(const ir::Node& n, int i, int64_t* out) {
  if (i >= n.num_inputs() || n.input(i) == nullptr) return false;
  const Tensor* t = ConstTensor(n.input(i));
  if (t == nullptr || t->numel() != 1 || (t->dtype() != DataType::kInt64 && t->dtype() != DataType::kInt32)) {
    return false;
  }
  *out = t->GetAsInt64(0);
  return true;
}

// A Slice (opset >= 10) of one channel range [begin, end) of a rank-`rank` tensor with `c` channels.
bool ChannelSlice(const ir::Node& s, int rank, int64_t c, int64_t* begin, int64_t* end) {
  if (!IsOp(&s, OpId::kSlice) || s.num_inputs() < 3 || s.num_outputs() != 1) return false;
  int64_t axis = 0, step = 1;
  if (!ConstInt(s, 1, begin) || !ConstInt(s, 2, end)) return false;
  if (!ConstInt(s, 3, &axis) || (axis != 1 && axis != 1 - rank)) return false;
  if (s.num_inputs() > 4 && s.input(4) != nullptr && (!ConstInt(s, 4, &step) || step != 1)) return false;
  if (*begin < 0) *begin += c;
  if (*end < 0) *end += c;
  *begin = std::clamp<int64_t>(*begin, 0, c);
  *end = std::clamp<int64_t>(*end, 0, c);
  return *begin < *end;
}

class ChannelShuffleFusionPass : public FusionPass {
 public:
  const char* name() const override { return "ChannelShuffleFusion"; }

 protected:
  StatusOr<bool> FuseGraph(ir::Graph& g, const PassContext&) override {
    FusionScope scope(g);
    GE_ASSIGN_OR_RETURN(std::vector<ir::Node*> order, g.TopologicalOrder());
    std::vector<const ir::Node*> removed;
    bool changed = false;
    for (ir::Node* t : order) {
      if (std::find(removed.begin(), removed.end(), t) != removed.end()) continue;
      Match m;
      if (!MatchShuffle(scope, t, &m)) continue;
      removed.insert(removed.end(), m.nodes.begin(), m.nodes.end());
      ir::AttrMap attrs;
      attrs.Set("groups", ir::AttrValue::Int(m.groups));
      const std::string name = t->name();
      for (ir::Node* n : m.nodes) g.RemoveNode(n);
      g.AddNode(ops::OpName(OpId::kGeChannelShuffle), name, m.inputs, m.outputs, ops::OpDomain(OpId::kGeChannelShuffle))
          ->attrs() = attrs;
      changed = true;
    }
    return changed;
  }

 private:
  struct Match {
    int64_t groups = 0;
    std::vector<ir::Node*> nodes;  // to remove
    std::vector<ir::Value*> inputs, outputs;
  };

  static bool MatchShuffle(const FusionScope& scope, ir::Node* t, Match* m) {
    if (!IsOp(t, OpId::kTranspose) || !scope.Removable(t) || t->input(0) == nullptr || t->output(0) == nullptr) {
      return false;
    }
    Dims mid;
    if (!KnownDims(t->input(0), &mid) || mid.size() < 3) return false;
    std::vector<int64_t> perm(mid.size());
    for (size_t i = 0; i < perm.size(); ++i) perm[i] = static_cast<int64_t>(i);
    std::swap(perm[1], perm[2]);
    if (t->attrs().GetInts("perm", {}) != perm) return false;
    ir::Node* r1 = t->input(0)->producer();
    if (r1 == nullptr || !IsOp(r1, OpId::kReshape) || !scope.Removable(r1) || !scope.Internal(t->input(0))) {
      return false;
    }
    ir::Value* x = r1->input(0);
    Dims xd;
    if (!KnownDims(x, &xd) || xd.size() + 1 != mid.size() || xd[0] != mid[0] || xd[1] != mid[1] * mid[2]) return false;
    for (size_t i = 2; i < xd.size(); ++i) {
      if (xd[i] != mid[i + 1]) return false;
    }
    if (!scope.Internal(t->output(0)) || t->output(0)->uses().size() != 1) return false;
    ir::Node* r2 = t->output(0)->uses()[0].node;
    Dims yd;
    if (!IsOp(r2, OpId::kReshape) || !scope.Removable(r2) || !KnownDims(r2->output(0), &yd) || yd != xd) return false;
    if (!IsFloatingPoint(x->desc().dtype)) return false;
    m->groups = mid[1];
    m->nodes = {r1, t, r2};
    // The channel concat that feeds the shuffle, when only the shuffle reads it.
    ir::Node* cat = x->producer();
    const int rank = static_cast<int>(xd.size());
    if (cat != nullptr && IsOp(cat, OpId::kConcat) && scope.Removable(cat) && scope.Internal(x) &&
        (cat->attrs().GetInt("axis", 0) == 1 || cat->attrs().GetInt("axis", 0) == 1 - rank)) {
      bool ok = cat->num_inputs() >= 1;
      for (ir::Value* in : cat->inputs()) ok = ok && in != nullptr && in->desc().dtype == x->desc().dtype;
      if (ok) {
        m->inputs = cat->inputs();
        m->nodes.push_back(cat);
      }
    }
    if (m->inputs.empty()) m->inputs = {x};
    // The equal channel slices that split its result, when they are its only readers and cover it.
    ir::Value* y = r2->output(0);
    m->outputs = {y};
    const int64_t c = xd[1];
    const size_t parts = y->uses().size();
    if (parts < 2 || !scope.Internal(y, parts) || c % static_cast<int64_t>(parts) != 0) return true;
    const int64_t width = c / static_cast<int64_t>(parts);
    std::vector<ir::Value*> slices(parts, nullptr);
    std::vector<ir::Node*> slice_nodes;
    for (const ir::Use& u : y->uses()) {
      int64_t begin = 0, end = 0;
      if (u.input_index != 0 || !scope.Removable(u.node) || !ChannelSlice(*u.node, rank, c, &begin, &end)) return true;
      if (end - begin != width || begin % width != 0 || slices[begin / width] != nullptr) return true;
      slices[begin / width] = u.node->output(0);
      slice_nodes.push_back(u.node);
    }
    m->outputs = slices;
    m->nodes.insert(m->nodes.end(), slice_nodes.begin(), slice_nodes.end());
    return true;
  }
};

}  // namespace

std::unique_ptr<GraphPass> CreateChannelShuffleFusionPass() { return std::make_unique<ChannelShuffleFusionPass>(); }

}  // namespace ge::compiler
