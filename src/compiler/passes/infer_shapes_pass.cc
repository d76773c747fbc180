// InferShapes: whole-model shape and dtype inference through the op table (ops/op_schema.h).
#include "compiler/passes/passes.h"
#include "ir/dump.h"
#include "ops/op_schema.h"

namespace ge::compiler {
namespace {

bool NothingKnown(const TensorDesc& d) {
  return d.kind == ValueKind::kUnknown ||
         (d.kind == ValueKind::kTensor && d.dtype == DataType::kUndefined && d.shape.unknown_rank());
}

// The declared desc refined by the inferred one; an error when they contradict each other.
StatusOr<TensorDesc> Merge(const TensorDesc& declared, const TensorDesc& inferred, const std::string& what) {
  if (NothingKnown(inferred)) return declared;
  TensorDesc out = inferred;
  out.format = declared.format;
  if (NothingKnown(declared)) return out;
  auto conflict = [&]() {
    return InvalidArgument(what + ": inferred " + ir::DescText(inferred) + " contradicts declared " + ir::DescText(declared));
  };
  if (declared.kind != inferred.kind) {
    // optional(X) against X (either way round): ONNX exporters declare loop-carried optionals either way and the
    // runtime value satisfies both; keep the declaration.
    const bool optional_of = (inferred.kind == ValueKind::kOptional && inferred.elem_kind == declared.kind) ||
                             (declared.kind == ValueKind::kOptional && declared.elem_kind == inferred.kind);
    if (optional_of) return declared;
    return conflict();
  }
  if (declared.dtype != DataType::kUndefined && inferred.dtype != DataType::kUndefined &&
      declared.dtype != inferred.dtype) {
    return conflict();
  }
  if (out.dtype == DataType::kUndefined) out.dtype = declared.dtype;
  if (inferred.shape.unknown_rank()) {
    out.shape = declared.shape;
    return out;
  }
  if (declared.shape.unknown_rank()) return out;
  if (declared.shape.rank() != inferred.shape.rank()) return conflict();
  for (int i = 0; i < inferred.shape.rank(); ++i) {
    int64_t d = declared.shape.dim(i), n = inferred.shape.dim(i);
    if (d >= 0 && n >= 0 && d != n) return conflict();
    if (n < 0 && d >= 0) {
      out.shape.set_dim(i, d);
      out.shape.set_symbol(i, "");
    } else if (n < 0 && out.shape.symbol(i).empty()) {
      out.shape.set_symbol(i, declared.shape.symbol(i));
    }
  }
  return out;
}

// The value a capture of `g` stands for, in the nearest enclosing graph that defines it.
const ir::Value* ResolveCapture(const ir::Graph& g, const std::string& name) {
  for (const ir::Graph* p = g.parent_graph(); p; p = p->parent_graph()) {
    const ir::Value* v = p->FindValue(name);
    if (v && !v->is_capture()) return v;
  }
  return nullptr;
}

class InferShapesPass : public GraphPass {
 public:
  const char* name() const override { return "InferShapes"; }
  StatusOr<bool> Run(ir::Model& model, const PassContext& ctx) override {
    if (!model.graph) return InvalidArgument("model has no graph");
    bool changed = false;
    GE_RETURN_IF_ERROR(InferGraph(*model.graph, ctx, &changed));
    return changed;
  }

 private:
  Status InferGraph(ir::Graph& g, const PassContext& ctx, bool* changed) {
    for (ir::Value* v : g.values()) {
      if (!v->is_capture()) continue;
      const ir::Value* outer = ResolveCapture(g, v->name());
      if (outer && ir::DescText(outer->desc()) != ir::DescText(v->desc())) {
        v->desc() = outer->desc();
        *changed = true;
      }
    }
    GE_ASSIGN_OR_RETURN(std::vector<ir::Node*> order, g.TopologicalOrder());
    for (ir::Node* n : order) {
      for (auto& [attr, sub] : n->subgraphs()) GE_RETURN_IF_ERROR(InferGraph(*sub, ctx, changed));
      GE_RETURN_IF_ERROR(InferNode(g, *n, ctx, changed));
    }
    return Status::Ok();
  }

  Status InferNode(const ir::Graph& g, ir::Node& n, const PassContext& ctx, bool* changed) {
    const ops::OpSchema* schema = ops::BuiltinOps().Find(n.domain(), n.op_type());
    if (!schema) {
      return Unimplemented("node '" + n.name() + "': unknown op '" +
                           (n.domain().empty() ? "" : n.domain() + "::") + n.op_type() + "'");
    }
    ops::InferContext ictx;
    ictx.node = &n;
    ictx.attrs = &n.attrs();
    ictx.opset = ctx.OpsetFor(n.domain());
    ictx.op_type = n.op_type();
    ictx.node_name = n.name();
    for (const ir::Value* in : n.inputs()) {
      ictx.inputs.push_back(in ? &in->desc() : nullptr);
      const ir::Value* source = in && in->is_capture() ? ResolveCapture(g, in->name()) : in;
      ictx.input_values.push_back(source ? source->const_value() : nullptr);
    }
    ictx.outputs.resize(n.num_outputs());
    GE_RETURN_IF_ERROR(ops::RunInference(*schema, ictx));
    for (int i = 0; i < n.num_outputs(); ++i) {
      ir::Value* o = n.output(i);
      if (!o) continue;
      std::string what = "node '" + n.name() + "' (" + n.op_type() + ") output '" + o->name() + "'";
      GE_ASSIGN_OR_RETURN(TensorDesc merged, Merge(o->desc(), ictx.outputs[i], what));
      if (ir::DescText(merged) != ir::DescText(o->desc())) {
        o->desc() = std::move(merged);
        *changed = true;
      }
    }
    return Status::Ok();
  }
};

}  // namespace

std::unique_ptr<GraphPass> CreateInferShapesPass() { return std::make_unique<InferShapesPass>(); }

}  // namespace ge::compiler
