#include "compiler/passes/activation_pattern.h"

#include <cmath>
#include <limits>
#include <string>

namespace ge::compiler {
namespace {

using fused::Activation;

constexpr double kSqrt2 = 1.4142135623730951;

// Node n is the op `op`, may be removed and produces exactly one value.
bool Candidate(const FusionScope& scope, const ir::Node* n, OpId op, int num_inputs) {
  return IsOp(n, op) && scope.Removable(n) && n->num_inputs() == num_inputs && n->num_outputs() == 1 &&
         n->output(0) != nullptr;
}

// The sole consumer of v (callers have checked that v has exactly one use).
ir::Node* SoleUser(const ir::Value* v) { return v->uses()[0].node; }

// The other operand of binary node n when one of its inputs is v; nullptr otherwise.
ir::Value* OtherOperand(const ir::Node* n, const ir::Value* v) {
  if (n->num_inputs() != 2) return nullptr;
  if (n->input(0) == v) return n->input(1);
  if (n->input(1) == v) return n->input(0);
  return nullptr;
}

// v is a one-element constant of x's dtype that does not broadcast x to a higher rank, within rel_tol of want.
bool ConstNear(const ir::Value* v, const ir::Value* x, double want, double rel_tol) {
  double got;
  if (!ScalarConst(v, x->desc().dtype, x->desc().shape.rank(), &got)) return false;
  return std::fabs(got - want) <= rel_tol * std::fabs(want);
}

bool FloatExact(double v) { return static_cast<double>(static_cast<float>(v)) == v; }

bool ClipParams(const ir::Node* n, DataType dt, int64_t opset, std::vector<float>* params) {
  float lo = std::numeric_limits<float>::lowest(), hi = std::numeric_limits<float>::max();
  if (opset < 11) {
    if (n->num_inputs() != 1) return false;
    lo = n->attrs().GetFloat("min", lo);
    hi = n->attrs().GetFloat("max", hi);
  } else {
    if (n->num_inputs() > 3) return false;
    for (int i = 1; i <= 2; ++i) {
      const ir::Value* b = n->input(i);
      double v;
      if (b == nullptr) {
        // The kernel's default is the compute type's range, which float's only matches below double.
        if (dt == DataType::kDouble) return false;
        continue;
      }
      if (!ScalarConst(b, dt, std::numeric_limits<int>::max(), &v) || !FloatExact(v)) return false;
      (i == 1 ? lo : hi) = static_cast<float>(v);
    }
  }
  *params = {lo, hi};
  return true;
}

bool MatchSingle(const FusionScope& scope, ir::Value* x, int64_t opset, ActivationMatch* out) {
  ir::Node* n = SoleUser(x);
  if (n->input(0) != x) return false;
  const ir::AttrMap& a = n->attrs();
  if (Candidate(scope, n, OpId::kRelu, 1)) {
    out->kind = Activation::kRelu;
  } else if (Candidate(scope, n, OpId::kSigmoid, 1)) {
    out->kind = Activation::kSigmoid;
  } else if (Candidate(scope, n, OpId::kTanh, 1)) {
    out->kind = Activation::kTanh;
  } else if (Candidate(scope, n, OpId::kHardSwish, 1)) {
    out->kind = Activation::kHardSwish;
  } else if (Candidate(scope, n, OpId::kLeakyRelu, 1)) {
    out->kind = Activation::kLeakyRelu;
    out->params = {a.GetFloat("alpha", 0.01f)};
  } else if (Candidate(scope, n, OpId::kElu, 1)) {
    out->kind = Activation::kElu;
    out->params = {a.GetFloat("alpha", 1.0f)};
  } else if (Candidate(scope, n, OpId::kHardSigmoid, 1)) {
    out->kind = Activation::kHardSigmoid;
    out->params = {a.GetFloat("alpha", 0.2f), a.GetFloat("beta", 0.5f)};
  } else if (IsOp(n, OpId::kClip) && scope.Removable(n) && n->num_outputs() == 1 && n->output(0) != nullptr &&
             ClipParams(n, x->desc().dtype, opset, &out->params)) {
    out->kind = Activation::kClip;
  } else {
    return false;
  }
  out->nodes = {n};
  out->output = n->output(0);
  return true;
}

// Mul(x, Sigmoid(x)), operands in either order; x has exactly the two uses.
bool MatchSilu(const FusionScope& scope, ir::Value* x, ActivationMatch* out) {
  for (int k = 0; k < 2; ++k) {
    ir::Node* s = x->uses()[k].node;
    ir::Node* m = x->uses()[1 - k].node;
    if (!Candidate(scope, s, OpId::kSigmoid, 1) || !scope.Internal(s->output(0))) continue;
    if (SoleUser(s->output(0)) != m || !Candidate(scope, m, OpId::kMul, 2) || OtherOperand(m, x) != s->output(0))
      continue;
    out->kind = Activation::kSilu;
    out->nodes = {s, m};
    out->output = m->output(0);
    return true;
  }
  return false;
}

// The erf GELU (see the header); x has exactly the two uses.
bool MatchGelu(const FusionScope& scope, ir::Value* x, ActivationMatch* out) {
  const DataType dt = x->desc().dtype;
  if (x->desc().shape.unknown_rank()) return false;
  const double tol = dt == DataType::kFloat16 || dt == DataType::kBFloat16 ? 1e-3 : 1e-6;
  for (int k = 0; k < 2; ++k) {
    ir::Node* d = x->uses()[k].node;
    ir::Node* p = x->uses()[1 - k].node;
    const bool div = Candidate(scope, d, OpId::kDiv, 2) && d->input(0) == x && ConstNear(d->input(1), x, kSqrt2, tol);
    const bool mul = Candidate(scope, d, OpId::kMul, 2) && ConstNear(OtherOperand(d, x), x, 1 / kSqrt2, tol);
    if ((!div && !mul) || d == p || !scope.Internal(d->output(0))) continue;
    ir::Node* erf = SoleUser(d->output(0));
    if (!Candidate(scope, erf, OpId::kErf, 1) || !scope.Internal(erf->output(0))) continue;
    ir::Node* add = SoleUser(erf->output(0));
    if (!Candidate(scope, add, OpId::kAdd, 2) || !ConstNear(OtherOperand(add, erf->output(0)), x, 1.0, 0.0)) continue;
    ir::Value* e1 = add->output(0);
    if (!scope.Internal(e1) || !Candidate(scope, p, OpId::kMul, 2)) continue;
    ir::Node* q = SoleUser(e1);
    if (!Candidate(scope, q, OpId::kMul, 2)) continue;
    ir::Value* pv = p->output(0);
    ir::Value* qv = q->output(0);
    ir::Node* last = nullptr;
    if (q == p) {  // Mul(Mul(x, e1), 0.5)
      ir::Node* f = scope.Internal(pv) ? SoleUser(pv) : nullptr;
      if (f && OtherOperand(p, x) == e1 && Candidate(scope, f, OpId::kMul, 2) &&
          ConstNear(OtherOperand(f, pv), x, 0.5, 0)) {
        out->nodes = {d, erf, add, p, f};
        last = f;
      }
    } else if (ConstNear(OtherOperand(p, x), x, 0.5, 0)) {  // Mul(Mul(x, 0.5), e1)
      if (scope.Internal(pv) && SoleUser(pv) == q && OtherOperand(q, pv) == e1) {
        out->nodes = {d, erf, add, p, q};
        last = q;
      }
    } else if (ConstNear(OtherOperand(q, e1), x, 0.5, 0)) {  // Mul(x, Mul(e1, 0.5))
      if (scope.Internal(qv) && SoleUser(qv) == p && OtherOperand(p, x) == qv) {
        out->nodes = {d, erf, add, q, p};
        last = p;
      }
    }
    if (last == nullptr) continue;
    out->kind = Activation::kGelu;
    out->output = last->output(0);
    return true;
  }
  return false;
}

}  // namespace

bool MatchActivation(const FusionScope& scope, ir::Value* x, int64_t opset, ActivationMatch* out) {
  if (x == nullptr || !IsFloatingPoint(x->desc().dtype)) return false;
  *out = ActivationMatch();
  const size_t uses = x->uses().size();
  if (uses == 1 && scope.Internal(x, 1)) return MatchSingle(scope, x, opset, out);
  if (uses == 2 && scope.Internal(x, 2)) return MatchSilu(scope, x, out) || MatchGelu(scope, x, out);
  return false;
}

}  // namespace ge::compiler
