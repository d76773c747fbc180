// ConstantFolding: evaluates nodes whose inputs are all known at compile time on the reference kernels.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <random>

#include "compiler/passes/pass_util.h"
#include "compiler/passes/passes.h"
#include "kernels/ref/node_runner.h"

namespace ge::compiler {
namespace {

constexpr int64_t kDefaultMaxFoldBytes = int64_t{64} << 20;
// Node executions one folded node may spend inside its subgraphs (a constant Loop must not run for hours).
constexpr int64_t kSubgraphStepBudget = 100000;

// The compile-time value of `v` as seen from `g`: a constant, or a capture of an enclosing constant.
const Tensor* KnownValue(const ir::Graph& g, const ir::Value* v) {
  if (v->is_constant() && !v->is_graph_input()) return v->const_value();
  if (!v->is_capture()) return nullptr;
  for (const ir::Graph* p = g.parent_graph(); p; p = p->parent_graph()) {
    const ir::Value* outer = p->FindValue(v->name());
    if (outer && !outer->is_capture()) return KnownValue(*p, outer);
  }
  return nullptr;
}

// Runs subgraphs of a node being folded. Values are looked up by name, innermost scope first; names not bound
// in any scope resolve to compile-time constants of the enclosing IR graphs.
class FoldRunner : public ref::SubgraphRunner {
 public:
  FoldRunner(const PassContext& ctx, const FoldRunner* parent, int64_t* budget)
      : ctx_(ctx), parent_(parent), budget_(budget) {}

  StatusOr<std::vector<Value>> RunOne(const ir::Graph& g, const ir::Node& n) {
    if (--*budget_ < 0) return ResourceExhausted("constant folding budget exceeded");
    ref::NodeCall call;
    call.op_type = n.op_type();
    call.domain = n.domain();
    call.node_name = n.name();
    call.attrs = &n.attrs();
    call.opset = ctx_.OpsetFor(n.domain());
    call.node = &n;
    call.num_outputs = n.num_outputs();
    call.runner = this;
    call.rng = &rng_;
    std::vector<Value> holders(n.num_inputs());
    for (int i = 0; i < n.num_inputs(); ++i) {
      const ir::Value* v = n.input(i);
      if (!v) {
        call.inputs.push_back(nullptr);
        continue;
      }
      GE_ASSIGN_OR_RETURN(holders[i], Lookup(g, v));
      call.inputs.push_back(&holders[i]);
    }
    return ref::RunNode(ops::BuiltinOps(), ref::RefKernels(), call);
  }

  Status Run(const ir::Graph& graph, const std::vector<Value>& inputs, std::vector<Value>* outputs) override {
    if (inputs.size() != graph.inputs().size()) return InvalidArgument("wrong number of subgraph inputs");
    FoldRunner scope(ctx_, this, budget_);
    for (size_t i = 0; i < inputs.size(); ++i) scope.env_[graph.inputs()[i]->name()] = inputs[i];
    GE_ASSIGN_OR_RETURN(std::vector<ir::Node*> order, graph.TopologicalOrder());
    for (ir::Node* n : order) {
      GE_ASSIGN_OR_RETURN(std::vector<Value> outs, scope.RunOne(graph, *n));
      for (int k = 0; k < n->num_outputs(); ++k)
        if (n->output(k)) scope.env_[n->output(k)->name()] = std::move(outs[k]);
    }
    outputs->clear();
    for (const ir::Value* v : graph.outputs()) {
      GE_ASSIGN_OR_RETURN(Value val, scope.Lookup(graph, v));
      outputs->push_back(std::move(val));
    }
    return Status::Ok();
  }

 private:
  StatusOr<Value> Lookup(const ir::Graph& g, const ir::Value* v) const {
    for (const FoldRunner* s = this; s; s = s->parent_) {
      auto it = s->env_.find(v->name());
      if (it != s->env_.end()) return it->second;
    }
    if (const Tensor* t = KnownValue(g, v)) return Value(*t);
    return NotFound("value '" + v->name() + "' is not known at compile time");
  }

  const PassContext& ctx_;
  const FoldRunner* parent_;
  int64_t* budget_;
  std::map<std::string, Value> env_;
  std::mt19937_64 rng_{0};
};

bool SubgraphsDeterministic(const ir::Node& n, const PassContext& ctx) {
  for (auto& [attr, sub] : n.subgraphs()) {
    for (const ir::Node* m : sub->nodes()) {
      if (IsNondeterministic(*m, ctx) || !SubgraphsDeterministic(*m, ctx)) return false;
    }
  }
  return true;
}

int64_t Bytes(const TensorDesc& d) {
  auto count = CheckedNumElements(d.shape.dims());
  int64_t size = std::max<int64_t>(1, static_cast<int64_t>(DataTypeSize(d.dtype)));
  if (!count.ok() || *count > INT64_MAX / size) return INT64_MAX;
  return *count * size;
}

// Inference with every input value known: outputs it sizes above the cap are never materialized.
bool FitsCap(const ir::Graph& g, const ir::Node& n, const PassContext& ctx, int64_t cap) {
  const ops::OpSchema* schema = ops::BuiltinOps().Find(n.domain(), n.op_type());
  if (!schema) return false;
  std::vector<TensorDesc> descs(n.num_inputs());
  ops::InferContext ictx;
  ictx.node = &n;
  ictx.attrs = &n.attrs();
  ictx.opset = ctx.OpsetFor(n.domain());
  ictx.op_type = n.op_type();
  ictx.node_name = n.name();
  for (int i = 0; i < n.num_inputs(); ++i) {
    const ir::Value* in = n.input(i);
    const Tensor* t = in ? KnownValue(g, in) : nullptr;
    if (t) descs[i] = TensorDesc(t->dtype(), Shape(t->dims()));
    ictx.inputs.push_back(t ? &descs[i] : nullptr);
    ictx.input_values.push_back(t);
  }
  ictx.outputs.resize(n.num_outputs());
  if (!ops::RunInference(*schema, ictx).ok()) return false;
  for (int i = 0; i < n.num_outputs(); ++i) {
    const TensorDesc& d = ictx.outputs[i];
    if (n.output(i) && FullyKnown(d) && d.dtype != DataType::kUndefined && Bytes(d) > cap) return false;
  }
  return true;
}

class ConstantFoldingPass : public GraphLevelPass {
 public:
  const char* name() const override { return "ConstantFolding"; }

  StatusOr<bool> RunOnGraph(ir::Graph& g, const PassContext& ctx) override {
    int64_t cap = kDefaultMaxFoldBytes;
    std::string opt = ctx.Option("ge.constantFoldingMaxBytes");
    if (!opt.empty()) cap = std::strtoll(opt.c_str(), nullptr, 10);
    GE_ASSIGN_OR_RETURN(std::vector<ir::Node*> order, g.TopologicalOrder());
    bool changed = false;
    for (ir::Node* n : order) {
      std::vector<Tensor> results;
      if (!ShapeOnly(*n, ctx, &results) && !Evaluate(g, *n, ctx, cap, &results)) continue;
      for (int i = 0; i < n->num_outputs(); ++i) {
        ir::Value* o = n->output(i);
        if (!o) continue;
        Format format = o->desc().format;
        o->desc() = TensorDesc(results[i].dtype(), Shape(results[i].dims()));
        o->desc().format = format;
        o->set_const_value(std::move(results[i]));
      }
      g.RemoveNode(n);
      changed = true;
    }
    return changed;
  }

 private:
  // Shape and Size need only their input's desc.
  static bool ShapeOnly(const ir::Node& n, const PassContext& ctx, std::vector<Tensor>* results) {
    if (!IsOp(n, OpId::kShape) && !IsOp(n, OpId::kSize)) return false;
    const ir::Value* in = n.input(0);
    if (!in || !FullyKnown(in->desc()) || !n.output(0)) return false;
    const Dims& dims = in->desc().shape.dims();
    if (IsOp(n, OpId::kSize)) {
      results->push_back(Tensor::Scalar<int64_t>(NumElements(dims)));
      return true;
    }
    int64_t r = static_cast<int64_t>(dims.size()), start = 0, end = r;
    if (ctx.OpsetFor("") >= 15) {
      start = n.attrs().GetInt("start", 0);
      end = n.attrs().GetInt("end", r);
    }
    if (start < 0) start += r;
    if (end < 0) end += r;
    start = std::clamp<int64_t>(start, 0, r);
    end = std::clamp<int64_t>(end, 0, r);
    std::vector<int64_t> out;
    for (int64_t i = start; i < end; ++i) out.push_back(dims[i]);
    results->push_back(Tensor::FromVector<int64_t>(out, {static_cast<int64_t>(out.size())}));
    return true;
  }

  static bool Evaluate(const ir::Graph& g, const ir::Node& n, const PassContext& ctx, int64_t cap,
                       std::vector<Tensor>* results) {
    if (IsNondeterministic(n, ctx) || !SubgraphsDeterministic(n, ctx)) return false;
    if (n.num_outputs() == 0) return false;
    for (const ir::Value* in : n.inputs())
      if (in && !KnownValue(g, in)) return false;
    for (const std::string& name : NodeCaptures(n)) {
      const ir::Value* v = g.FindValue(name);
      if (!v) {
        for (const ir::Graph* p = g.parent_graph(); p && !v; p = p->parent_graph()) v = p->FindValue(name);
      }
      if (!v || !KnownValue(*v->graph(), v)) return false;
    }
    if (!FitsCap(g, n, ctx, cap)) return false;
    int64_t budget = kSubgraphStepBudget;
    FoldRunner runner(ctx, nullptr, &budget);
    auto outs = runner.RunOne(g, n);
    // A kernel error is left for run time to report, where it happens to the user's data.
    if (!outs.ok()) return false;
    for (int i = 0; i < n.num_outputs(); ++i) {
      if (!n.output(i)) {
        results->emplace_back();
        continue;
      }
      const Value& v = (*outs)[i];
      if (!v.is_tensor() || static_cast<int64_t>(v.tensor.nbytes()) > cap) return false;
      results->push_back(v.tensor);
    }
    return true;
  }
};

}  // namespace

std::unique_ptr<GraphPass> CreateConstantFoldingPass() { return std::make_unique<ConstantFoldingPass>(); }

}  // namespace ge::compiler
