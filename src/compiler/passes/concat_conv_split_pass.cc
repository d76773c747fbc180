// ConcatConvSplit: a 1x1 convolution whose input is a channel Concat read by nothing else is the sum of one 1x1
// convolution per concatenated input, each over its slice of the weights' input channels:
//   act(Conv(Concat(a, b), W) + B)  =  act(Conv(b, W[:, Ca:]) + (Conv(a, W[:, :Ca]) + B))
// The partial sums chain through ge::FusedConv's residual Sum, so the concatenated tensor is never written (the
// concat copy costs about as much as a 1x1 convolution's output on squeezenet's fire modules). The split pays only
// while the partial sums move less memory than the concat would: each partial output is written and read back once
// (2 * M * HW floats per extra part) against the concat's copy (2 * C * HW), so the convolution is split only when
// (parts - 1) * M < C; squeezenet's classifier (M = 1000 over C = 512) keeps its concat and one K = 512 GEMM. Runs
// after ActivationFusion on Conv / ge::FusedConv with constant weights, group 1, unit kernel, strides and dilations, no
// pads and no residual Sum of their own.
#include <algorithm>
#include <string>
#include <vector>

#include "compiler/passes/fusion_util.h"
#include "compiler/passes/passes.h"

namespace ge::compiler {
namespace {

bool AllOnes(const std::vector<int64_t>& v) {
  return std::all_of(v.begin(), v.end(), [](int64_t x) { return x == 1; });
}

bool AllZeros(const std::vector<int64_t>& v) {
  return std::all_of(v.begin(), v.end(), [](int64_t x) { return x == 0; });
}

bool PointwiseConv(const ir::Node& n) {
  if (!IsOp(n, OpId::kGeFusedConv) && !IsOp(n, OpId::kConv)) return false;
  if (n.num_inputs() > 3 && n.input(3) != nullptr) return false;
  const ir::AttrMap& a = n.attrs();
  if (a.GetInt("group", 1) != 1 || a.GetString("auto_pad", "NOTSET") != "NOTSET") return false;
  if (!AllOnes(a.GetInts("strides")) || !AllOnes(a.GetInts("dilations")) || !AllZeros(a.GetInts("pads"))) return false;
  const Tensor* w = ConstTensor(n.input(1));
  if (w == nullptr || w->rank() != 4 || w->dtype() != DataType::kFloat || w->dim(2) != 1 || w->dim(3) != 1) {
    return false;
  }
  return n.input(0) != nullptr && n.output(0) != nullptr && n.num_outputs() == 1;
}

// Channel counts of the concat's inputs when it joins 4-D float tensors of known dims along axis 1.
bool ChannelConcat(const ir::Node& c, std::vector<int64_t>* channels) {
  if (!IsOp(&c, OpId::kConcat) || c.num_inputs() < 2) return false;
  const int64_t axis = c.attrs().GetInt("axis", 0);
  if (axis != 1 && axis != -3) return false;
  for (const ir::Value* v : c.inputs()) {
    if (v == nullptr || v->is_constant() || !v->desc().shape.IsFullyKnown() || v->desc().shape.rank() != 4 ||
        v->desc().dtype != DataType::kFloat) {
      return false;
    }
    channels->push_back(v->desc().shape.dim(1));
  }
  return true;
}

// W[:, begin:begin+count] of an [M, C, 1, 1] weight.
Tensor WeightSlice(const Tensor& w, int64_t begin, int64_t count) {
  const int64_t m = w.dim(0), c = w.dim(1);
  Tensor out = Tensor::Create(DataType::kFloat, {m, count, 1, 1}).value();
  const float* src = w.data<float>();
  float* dst = out.data<float>();
  for (int64_t o = 0; o < m; ++o) std::copy(src + o * c + begin, src + o * c + begin + count, dst + o * count);
  return out;
}

class ConcatConvSplitPass : public FusionPass {
 public:
  const char* name() const override { return "ConcatConvSplit"; }

 protected:
  StatusOr<bool> FuseGraph(ir::Graph& g, const PassContext&) override {
    FusionScope scope(g);
    GE_ASSIGN_OR_RETURN(std::vector<ir::Node*> order, g.TopologicalOrder());
    bool changed = false;
    for (ir::Node* conv : order) {
      if (!PointwiseConv(*conv) || !scope.Removable(conv)) continue;
      ir::Value* joined = conv->input(0);
      ir::Node* concat = joined->producer();
      std::vector<int64_t> channels;
      if (concat == nullptr || !scope.Internal(joined) || !scope.Removable(concat) ||
          !ChannelConcat(*concat, &channels)) {
        continue;
      }
      const Tensor& w = *ConstTensor(conv->input(1));
      int64_t total = 0;
      for (int64_t c : channels) total += c;
      if (total != w.dim(1)) continue;
      const int64_t out_channels = w.dim(0);
      if (static_cast<int64_t>(channels.size() - 1) * out_channels >= total) continue;

      ir::AttrMap partial_attrs = conv->attrs();
      partial_attrs.Erase("activation");
      partial_attrs.Erase("activation_params");
      const std::vector<ir::Value*> parts = concat->inputs();
      ir::Value* bias = conv->num_inputs() > 2 ? conv->input(2) : nullptr;
      ir::Value* y = conv->output(0);
      const ir::AttrMap last_attrs = conv->attrs();
      const std::string name = conv->name();
      g.RemoveNode(conv);
      g.RemoveNode(concat);
      ir::Value* sum = nullptr;
      int64_t begin = 0;
      for (size_t i = 0; i < parts.size(); ++i) {
        const bool last = i + 1 == parts.size();
        ir::Value* wi =
            g.AddConstant(g.UniqueValueName(name + "_w" + std::to_string(i)), WeightSlice(w, begin, channels[i]));
        begin += channels[i];
        ir::Value* out = y;
        if (!last) {
          TensorDesc d = y->desc();
          out = g.AddValue(g.UniqueValueName(name + "_part" + std::to_string(i)), d);
        }
        std::vector<ir::Value*> inputs = {parts[i], wi, i == 0 ? bias : nullptr};
        if (sum != nullptr) inputs.push_back(sum);
        while (inputs.back() == nullptr) inputs.pop_back();
        ir::Node* n = g.AddNode(ops::OpName(OpId::kGeFusedConv), last ? name : name + "_part" + std::to_string(i),
                                inputs, {out}, ops::OpDomain(OpId::kGeFusedConv));
        n->attrs() = last ? last_attrs : partial_attrs;
        sum = out;
      }
      changed = true;
    }
    return changed;
  }
};

}  // namespace

std::unique_ptr<GraphPass> CreateConcatConvSplitPass() { return std::make_unique<ConcatConvSplitPass>(); }

}  // namespace ge::compiler
