// FormatSelection (DESIGN.md §3): one activation layout — NHWC (oneDNN nhwc, what its brgconv kernels run on) or
// NC1HWC0 (nChw16c; nChw8c below x86-64-v4) — kept through chains of an engine's convolutions, pools, channel concats,
// per-channel binaries and constant batch norms (the first engine of PassContext::engines with a blocked
// layout at the target; the dnnl engine today) — and, in NHWC, ge::ChannelShuffle, ge::SqueezeExcite and
// ge::ConcatScaleShift, whose own kernels read that layout — with a ge::TransData
// back to the plain layout only where a value leaves the chain (a consumer that reads plain tensors, or a graph
// output). Plain values entering a chain need no node: the convolution kernels read plain sources (the first
// layer's few channels are read plain by oneDNN's own kernels). No TransData is ever inserted into a chain, so no
// inverse pair can arise.
//
// Runs on static root graphs after engine assignment; the model builder sizes NC1HWC0 buffers with C padded to 16.
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "compiler/passes/passes.h"
#include "ops/op_id.h"

namespace ge::compiler {
namespace {

using ops::IsOp;
using ops::OpId;

enum class Role { kNone, kConv, kPool, kConcat, kBinary, kChannelwise, kShuffle, kSqueezeExcite, kConcatScaleShift };

bool PlainFloat4d(const ir::Value* v) {
  if (v == nullptr || v->is_constant()) return false;
  const TensorDesc& d = v->desc();
  return d.kind == ValueKind::kTensor && d.dtype == DataType::kFloat && d.shape.IsFullyKnown() &&
         d.shape.rank() == 4 && (d.format == Format::kND || d.format == Format::kNCHW);
}

bool OnEngine(const ir::Node& n, const kernels::Engine& e) { return n.engine() == e.name(); }

bool SingleOutput(const ir::Node& n) {
  for (int i = 1; i < n.num_outputs(); ++i) {
    if (n.output(i) != nullptr) return false;
  }
  return n.num_outputs() >= 1 && n.output(0) != nullptr;
}

// A channel concat whose every input is a 4-D float activation with whole channel blocks (oneDNN concatenates
// NC1HWC0 tensors only at block boundaries).
bool BlockableConcat(const ir::Node& n, Format layout, const kernels::Engine& e) {
  if (!IsOp(n, OpId::kConcat) || !SingleOutput(n) || n.num_inputs() < 1) return false;
  const int64_t axis = n.attrs().GetInt("axis", 0);
  if (axis != 1 && axis != -3) return false;
  for (const ir::Value* v : n.inputs()) {
    if (!PlainFloat4d(v) && !(v != nullptr && v->desc().format == layout)) return false;
    if (PrimaryFormat(layout) == Format::kNC1HWC0 && v->desc().shape.dim(1) % FormatC0(layout) != 0) return false;
  }
  return e.Supports(n);
}

// An engine-capable Add or Mul of a 4-D float activation and an operand of the same dims or broadcast over the
// spatial dims ([N or 1, C, 1, 1], e.g. squeeze-and-excitation scales).
bool LayoutBinary(const ir::Node& n, const kernels::Engine& e) {
  if (!(IsOp(n, OpId::kAdd) || IsOp(n, OpId::kMul)) || !SingleOutput(n) || n.num_inputs() != 2) return false;
  const ir::Value* y = n.output(0);
  if (y == nullptr || y->desc().dtype != DataType::kFloat || !y->desc().shape.IsFullyKnown() ||
      y->desc().shape.rank() != 4) {
    return false;
  }
  return e.Supports(n);
}

// Inputs of a binary node with the output's dims (the operands that set its layout).
bool MainOperand(const ir::Node& n, int i) {
  const ir::Value* x = n.input(i);
  return x != nullptr && x->desc().shape.IsFullyKnown() && x->desc().shape.dims() == n.output(0)->desc().shape.dims();
}

// An engine BatchNormalization (plain or fused with an activation) with constant parameters: a per-channel
// multiply-add that runs in the layout. In NC1HWC0 only without channel padding, which an activation with
// f(0) != 0 would fill.
bool ChannelwiseNorm(const ir::Node& n, Format layout, const kernels::Engine& e) {
  const bool bn = IsOp(n, OpId::kBatchNormalization) || IsOp(n, OpId::kGeFusedBatchNormalization);
  if (!bn || !OnEngine(n, e) || n.num_inputs() != 5) return false;
  for (int i = 1; i < 5; ++i) {
    if (n.input(i) == nullptr || !n.input(i)->is_constant()) return false;
  }
  const ir::Value* x = n.input(0);
  if (x == nullptr || !x->desc().shape.IsFullyKnown() || x->desc().shape.rank() != 4) return false;
  return PrimaryFormat(layout) != Format::kNC1HWC0 || x->desc().shape.dim(1) % FormatC0(layout) == 0;
}

Role RoleOf(const ir::Node& n, Format layout, const kernels::Engine& e) {
  // ge::ChannelShuffle (several outputs) runs on ge's own kernel, which gathers NHWC pixels (not NC1HWC0 blocks).
  if (IsOp(n, OpId::kGeChannelShuffle)) {
    return layout == Format::kNHWC ? Role::kShuffle : Role::kNone;
  }
  // ge::SqueezeExcite runs on ge's own kernel too, which reads and writes NHWC pixels.
  if (IsOp(n, OpId::kGeSqueezeExcite)) {
    return layout == Format::kNHWC && SingleOutput(n) ? Role::kSqueezeExcite : Role::kNone;
  }
  // ge::ConcatScaleShift: the same, for its inputs X1..Xk (2 and on).
  if (IsOp(n, OpId::kGeConcatScaleShift)) {
    return layout == Format::kNHWC && SingleOutput(n) ? Role::kConcatScaleShift : Role::kNone;
  }
  if (!SingleOutput(n)) return Role::kNone;
  const bool conv = IsOp(n, OpId::kConv) || IsOp(n, OpId::kGeFusedConv);
  if (conv && OnEngine(n, e)) return Role::kConv;
  for (OpId op : {OpId::kMaxPool, OpId::kAveragePool, OpId::kGlobalAveragePool, OpId::kGlobalMaxPool}) {
    if (IsOp(n, op) && OnEngine(n, e)) return Role::kPool;
  }
  if (BlockableConcat(n, layout, e)) return Role::kConcat;
  if (LayoutBinary(n, e)) return Role::kBinary;
  if (ChannelwiseNorm(n, layout, e)) return Role::kChannelwise;
  return Role::kNone;
}

class FormatSelectionPass : public GraphLevelPass {
 public:
  explicit FormatSelectionPass(Format layout) : layout_(layout) {}
  const char* name() const override { return "FormatSelection"; }

  StatusOr<bool> RunOnGraph(ir::Graph& g, const PassContext& ctx) override {
    if (g.parent_node() != nullptr) return false;  // static models have no subgraphs; leave any alone
    engine_ = BlockedLayoutEngine(ctx);
    if (engine_ == nullptr) return false;
    GE_ASSIGN_OR_RETURN(std::vector<ir::Node*> order, g.TopologicalOrder());
    std::vector<ir::Value*> blocked;
    is_blocked_.clear();
    plain_format_.clear();
    shuffle_blocked_.clear();
    for (ir::Node* n : order) {
      const Role role = RoleOf(*n, layout_, *engine_);
      if (role == Role::kShuffle) {
        DecideShuffle(n, &blocked);
        continue;
      }
      ir::Value* y = n->output(0);
      if (role == Role::kNone || !PlainFloat4d(y)) continue;
      bool want = false;
      switch (role) {
        case Role::kConv:
          for (const ir::Use& u : y->uses()) want = want || ReadsBlocked(*u.node, u.input_index);
          break;
        case Role::kPool:
        case Role::kChannelwise:
        case Role::kSqueezeExcite: want = InputBlocked(*n, 0); break;
        case Role::kConcat:
          want = true;
          for (int i = 0; i < n->num_inputs(); ++i) want = want && InputBlocked(*n, i);
          break;
        case Role::kConcatScaleShift:
          want = n->num_inputs() > 2;
          for (int i = 2; i < n->num_inputs(); ++i) want = want && InputBlocked(*n, i);
          break;
        case Role::kBinary:
          want = true;
          for (int i = 0; i < n->num_inputs(); ++i) want = want && (!MainOperand(*n, i) || InputBlocked(*n, i));
          break;
        case Role::kShuffle:
        case Role::kNone: break;
      }
      // A node reading any input in the layout must run on the engine that understands it.
      for (int i = 0; i < n->num_inputs(); ++i) {
        if (InputBlocked(*n, i)) n->set_engine(engine_->name());
      }
      if (!want) continue;
      plain_format_[y] = y->desc().format;
      y->desc().format = layout_;
      blocked.push_back(y);
      is_blocked_.insert(y);
    }
    for (ir::Value* v : blocked) AddPlainCopy(g, v);
    return !blocked.empty();
  }

 private:
  bool InputBlocked(const ir::Node& n, int i) const { return is_blocked_.count(n.input(i)) != 0; }

  // Whether node `n` reads its input `i` in the layout when that value is stored so. Nodes before `n` in the
  // topological order have been decided.
  bool ReadsBlocked(const ir::Node& n, int i) const {
    switch (RoleOf(n, layout_, *engine_)) {
      case Role::kConv: return i == 0 || i == 3;  // X and the residual Sum
      case Role::kPool:
      case Role::kChannelwise:
      case Role::kSqueezeExcite: return i == 0;
      case Role::kConcat: return true;
      case Role::kConcatScaleShift: return i >= 2;
      case Role::kShuffle: {  // optimistic until the shuffle is decided (all of its inputs in the layout)
        auto it = shuffle_blocked_.find(&n);
        return it == shuffle_blocked_.end() || it->second;
      }
      case Role::kBinary: {
        if (MainOperand(n, i)) return true;
        // A broadcast operand is read in the layout when the binary's full-size operands are in it.
        for (int j = 0; j < n.num_inputs(); ++j) {
          if (j != i && MainOperand(n, j) && !InputBlocked(n, j)) return false;
        }
        return true;
      }
      case Role::kNone: return false;
    }
    return false;
  }

  // A channel shuffle takes the layout when every input has it: then all its outputs have it too.
  void DecideShuffle(ir::Node* n, std::vector<ir::Value*>* blocked) {
    bool want = n->num_inputs() > 0;
    for (int i = 0; i < n->num_inputs(); ++i) want = want && InputBlocked(*n, i);
    for (const ir::Value* y : n->outputs()) want = want && PlainFloat4d(y);
    shuffle_blocked_[n] = want;
    if (!want) return;
    for (ir::Value* y : n->outputs()) {
      plain_format_[y] = y->desc().format;
      y->desc().format = layout_;
      blocked->push_back(y);
      is_blocked_.insert(y);
    }
  }

  // Gives v's plain readers (and the graph output, when v is one) a TransData'd plain copy of v. The copy takes
  // v's name when v is a graph output, so outputs keep their names.
  void AddPlainCopy(ir::Graph& g, ir::Value* v) const {
    std::vector<ir::Use> plain_uses;
    for (const ir::Use& u : v->uses()) {
      if (!ReadsBlocked(*u.node, u.input_index)) plain_uses.push_back(u);
    }
    const bool output = g.IsGraphOutput(v);
    if (plain_uses.empty() && !output) return;
    TensorDesc plain = v->desc();
    plain.format = plain_format_.at(v);  // what the value's readers were compiled against
    ir::Value* copy = g.AddValue(g.UniqueValueName(v->name() + "_nchw"), plain);
    ir::Node* t = g.AddNode(ops::OpName(OpId::kGeTransData), "TransData_" + v->name(), {v}, {copy},
                            ops::OpDomain(OpId::kGeTransData));
    t->attrs().Set("src_format", ir::AttrValue::String(FormatName(layout_)));
    t->attrs().Set("dst_format", ir::AttrValue::String(FormatName(plain.format)));
    t->set_engine(engine_->name());
    for (const ir::Use& u : plain_uses) u.node->SetInput(u.input_index, copy);
    if (!output) return;
    for (int i = 0; i < static_cast<int>(g.outputs().size()); ++i) {
      if (g.outputs()[i] == v) g.SetOutput(i, copy);
    }
    const std::string name = v->name();
    g.RenameValue(v, g.UniqueValueName(name + "_" + FormatName(layout_)));
    g.RenameValue(copy, name);
  }

  Format layout_;
  const kernels::Engine* engine_ = nullptr;  // of the chains, from the PassContext of the current run
  std::unordered_set<const ir::Value*> is_blocked_;
  std::unordered_map<const ir::Value*, Format> plain_format_;  // blocked value -> its format before the pass
  std::unordered_map<const ir::Node*, bool> shuffle_blocked_;   // decided channel shuffles
};

}  // namespace

const kernels::Engine* BlockedLayoutEngine(const PassContext& ctx) {
  for (const auto& e : ctx.engines) {
    if (ctx.Option(std::string("ge.engine.") + e->name(), "1") == "1" && e->BlockedChannels(ctx.target) > 0) {
      return e.get();
    }
  }
  return nullptr;
}

std::unique_ptr<GraphPass> CreateFormatSelectionPass(Format layout) {
  return std::make_unique<FormatSelectionPass>(layout);
}

}  // namespace ge::compiler
