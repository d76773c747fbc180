// EinsumLowering: a float Einsum of static shapes that is a (batched) matrix product — every label either shared by
// both inputs (a batch label when the output keeps it, contracted when it does not) or kept from one input (a free
// label) — becomes Transpose -> Reshape -> MatMul -> Reshape -> Transpose, each step dropped where it changes
// nothing; a one-input Einsum that only permutes becomes a Transpose. MatMul then runs on the engines (MaxViT's
// attention is "bghid,bghjd->bghij"), where the reference Einsum took most of such a model's time. Diagonals
// (a label repeated in one term), labels summed out of a single input, pure element-wise products and unknown dims
// are left to the Einsum kernel.
#include <algorithm>
#include <string>
#include <vector>

#include "compiler/passes/fusion_util.h"
#include "compiler/passes/passes.h"
#include "ops/reduce/einsum_equation.h"

namespace ge::compiler {
namespace {

// Positions of `labels` within `term`, in the order of `labels`.
std::vector<int64_t> PositionsOf(const std::vector<int>& labels, const std::vector<int>& term) {
  std::vector<int64_t> out;
  for (int l : labels) out.push_back(std::find(term.begin(), term.end(), l) - term.begin());
  return out;
}

bool IsIdentity(const std::vector<int64_t>& perm) {
  for (size_t i = 0; i < perm.size(); ++i) {
    if (perm[i] != static_cast<int64_t>(i)) return false;
  }
  return true;
}

bool Contains(const std::vector<int>& v, int x) { return std::find(v.begin(), v.end(), x) != v.end(); }

bool HasRepeats(std::vector<int> v) {
  std::sort(v.begin(), v.end());
  return std::adjacent_find(v.begin(), v.end()) != v.end();
}

// Adds the nodes of one lowering, naming them after the Einsum.
class Builder {
 public:
  Builder(ir::Graph& g, std::string base) : g_(g), base_(std::move(base)) {}

  StatusOr<ir::Value*> Transpose(ir::Value* x, const Dims& x_dims, const std::vector<int64_t>& perm, Dims* out_dims,
                                 ir::Value* out = nullptr) {
    out_dims->clear();
    for (int64_t p : perm) out_dims->push_back(x_dims[p]);
    if (IsIdentity(perm) && out == nullptr) return x;
    ir::Value* y = out != nullptr ? out : NewValue("transposed", *out_dims);
    ir::Node* n = g_.AddNode(ops::OpName(OpId::kTranspose), NodeName("transpose"), {x}, {y});
    n->attrs().Set("perm", ir::AttrValue::Ints(perm));
    return y;
  }

  StatusOr<ir::Value*> Reshape(ir::Value* x, const Dims& x_dims, const Dims& to, ir::Value* out = nullptr) {
    if (x_dims == to && out == nullptr) return x;
    GE_ASSIGN_OR_RETURN(Tensor shape, Tensor::Create(DataType::kInt64, {static_cast<int64_t>(to.size())}));
    std::copy(to.begin(), to.end(), shape.data<int64_t>());
    ir::Value* s = g_.AddConstant(g_.UniqueValueName(base_ + "/shape"), std::move(shape));
    ir::Value* y = out != nullptr ? out : NewValue("reshaped", to);
    g_.AddNode(ops::OpName(OpId::kReshape), NodeName("reshape"), {x, s}, {y});
    return y;
  }

  ir::Value* MatMul(ir::Value* a, ir::Value* b, const Dims& out_dims) {
    ir::Value* y = NewValue("product", out_dims);
    g_.AddNode(ops::OpName(OpId::kMatMul), NodeName("matmul"), {a, b}, {y});
    return y;
  }

 private:
  ir::Value* NewValue(const std::string& what, const Dims& dims) {
    return g_.AddValue(g_.UniqueValueName(base_ + "/" + what), TensorDesc(DataType::kFloat, Shape(dims)));
  }
  std::string NodeName(const std::string& what) { return base_ + "/" + what + std::to_string(++nodes_); }

  ir::Graph& g_;
  std::string base_;
  int nodes_ = 0;
};

int64_t Product(const Dims& d, const std::vector<int64_t>& positions) {
  int64_t p = 1;
  for (int64_t i : positions) p *= d[i];
  return p;
}

Dims Pick(const Dims& d, const std::vector<int64_t>& positions) {
  Dims out;
  for (int64_t i : positions) out.push_back(d[i]);
  return out;
}

class EinsumLoweringPass : public FusionPass {
 public:
  const char* name() const override { return "EinsumLowering"; }

 protected:
  StatusOr<bool> FuseGraph(ir::Graph& g, const PassContext&) override {
    FusionScope scope(g);
    GE_ASSIGN_OR_RETURN(std::vector<ir::Node*> order, g.TopologicalOrder());
    bool changed = false;
    for (ir::Node* n : order) {
      if (!IsOp(n, OpId::kEinsum) || !scope.Removable(n) || n->num_outputs() != 1 || n->output(0) == nullptr) {
        continue;
      }
      GE_ASSIGN_OR_RETURN(bool lowered, Lower(g, n));
      changed |= lowered;
    }
    if (changed) g.RemoveDeadValues();
    return changed;
  }

 private:
  static bool StaticFloat(const ir::Value* v) {
    if (v == nullptr) return false;
    const TensorDesc& d = v->desc();
    if (d.kind != ValueKind::kTensor || d.dtype != DataType::kFloat || d.shape.unknown_rank()) return false;
    for (int64_t x : d.shape.dims()) {
      if (x <= 0) return false;  // unknown (negative) or empty
    }
    return true;
  }

  StatusOr<bool> Lower(ir::Graph& g, ir::Node* n) {
    const int num_in = n->num_inputs();
    if (num_in < 1 || num_in > 2) return false;
    for (int i = 0; i < num_in; ++i) {
      if (!StaticFloat(n->input(i))) return false;
    }
    std::vector<int> ranks;
    for (int i = 0; i < num_in; ++i) ranks.push_back(n->input(i)->desc().shape.rank());
    ops::reduce::EinsumPlan plan;
    if (!ops::reduce::ParseEinsum(n->attrs().GetString("equation", ""), ranks, &plan).ok()) return false;
    for (const auto& term : plan.in_labels) {
      if (HasRepeats(term)) return false;  // a diagonal
    }
    const std::vector<int>& out = plan.out_labels;
    ir::Value* y = n->output(0);
    Builder b(g, n->name());
    if (num_in == 1) {
      const std::vector<int>& a = plan.in_labels[0];
      if (a.size() != out.size()) return false;  // something is summed out
      ir::Value* x = n->input(0);
      const Dims x_dims = x->desc().shape.dims();
      g.RemoveNode(n);
      Dims t;
      GE_RETURN_IF_ERROR(b.Transpose(x, x_dims, PositionsOf(out, a), &t, y).status());
      return true;
    }
    const std::vector<int>& la = plan.in_labels[0];
    const std::vector<int>& lb = plan.in_labels[1];
    std::vector<int> batch, free_a, free_b, contract;
    for (int l : out) {
      const bool in_a = Contains(la, l), in_b = Contains(lb, l);
      if (in_a && in_b) {
        batch.push_back(l);
      } else if (in_a) {
        free_a.push_back(l);
      } else {
        free_b.push_back(l);
      }
    }
    for (int l : la) {
      if (Contains(out, l)) continue;
      if (!Contains(lb, l)) return false;  // summed out of A alone
      contract.push_back(l);
    }
    for (int l : lb) {
      if (!Contains(out, l) && !Contains(la, l)) return false;  // summed out of B alone
    }
    if (contract.empty() && free_a.empty() && free_b.empty()) return false;  // element-wise: not a product
    ir::Value* a = n->input(0);
    ir::Value* bv = n->input(1);
    const Dims a_dims = a->desc().shape.dims(), b_dims = bv->desc().shape.dims();
    for (int l : contract) {
      if (a_dims[PositionsOf({l}, la)[0]] != b_dims[PositionsOf({l}, lb)[0]]) return false;
    }
    std::vector<int> a_order = batch, b_order = batch;
    a_order.insert(a_order.end(), free_a.begin(), free_a.end());
    a_order.insert(a_order.end(), contract.begin(), contract.end());
    b_order.insert(b_order.end(), contract.begin(), contract.end());
    b_order.insert(b_order.end(), free_b.begin(), free_b.end());
    // Each output label's size: the larger of the inputs' (a 1 broadcasts under an ellipsis).
    Dims y_dims;
    for (int l : out) {
      int64_t size = 1;
      if (Contains(la, l)) size = std::max(size, a_dims[PositionsOf({l}, la)[0]]);
      if (Contains(lb, l)) size = std::max(size, b_dims[PositionsOf({l}, lb)[0]]);
      y_dims.push_back(size);
    }
    const std::vector<int64_t> a_perm = PositionsOf(a_order, la), b_perm = PositionsOf(b_order, lb);
    const int64_t m = Product(a_dims, PositionsOf(free_a, la)), k = Product(a_dims, PositionsOf(contract, la));
    const int64_t nn = Product(b_dims, PositionsOf(free_b, lb));
    Dims a_mat = Pick(a_dims, PositionsOf(batch, la)), b_mat = Pick(b_dims, PositionsOf(batch, lb));
    a_mat.push_back(m);
    a_mat.push_back(k);
    b_mat.push_back(k);
    b_mat.push_back(nn);
    // The product's batch dims broadcast as the output's do; its result then splits into the free dims.
    Dims product = Pick(y_dims, PositionsOf(batch, out));
    Dims split = product;
    product.push_back(m);
    product.push_back(nn);
    for (int l : free_a) split.push_back(y_dims[PositionsOf({l}, out)[0]]);
    for (int l : free_b) split.push_back(y_dims[PositionsOf({l}, out)[0]]);
    std::vector<int> split_labels = batch;
    split_labels.insert(split_labels.end(), free_a.begin(), free_a.end());
    split_labels.insert(split_labels.end(), free_b.begin(), free_b.end());
    const std::vector<int64_t> out_perm = PositionsOf(out, split_labels);

    g.RemoveNode(n);
    Dims t;
    GE_ASSIGN_OR_RETURN(ir::Value * at, b.Transpose(a, a_dims, a_perm, &t));
    GE_ASSIGN_OR_RETURN(ir::Value * am, b.Reshape(at, t, a_mat));
    GE_ASSIGN_OR_RETURN(ir::Value * bt, b.Transpose(bv, b_dims, b_perm, &t));
    GE_ASSIGN_OR_RETURN(ir::Value * bm, b.Reshape(bt, t, b_mat));
    ir::Value* p = b.MatMul(am, bm, product);
    // The last step writes the Einsum's own output value.
    if (IsIdentity(out_perm)) {
      GE_RETURN_IF_ERROR(b.Reshape(p, product, split, y).status());
    } else {
      GE_ASSIGN_OR_RETURN(ir::Value * s, b.Reshape(p, product, split));
      GE_RETURN_IF_ERROR(b.Transpose(s, split, out_perm, &t, y).status());
    }
    return true;
  }
};

}  // namespace

std::unique_ptr<GraphPass> CreateEinsumLoweringPass() { return std::make_unique<EinsumLoweringPass>(); }

}  // namespace ge::compiler
