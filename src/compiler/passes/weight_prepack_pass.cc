// WeightPrepack (DESIGN.md §3 VariableOpPass, variable acceleration applied to constants): every dnnl node's
// constant weights are stored in the layout its oneDNN kernel reads, so loading maps them instead of reordering.
// The kernel is prepared here exactly as the loader will prepare it (same descs, same thread count); the weights it
// reorders become a FRACTAL_Z byte constant with the node attributes of kernels/exec/packed_weights.h. The original
// constant goes when nothing else reads it. Runs on static root graphs after format selection.
#include <algorithm>
#include <string>
#include <vector>

#include "compiler/passes/passes.h"
#include "kernels/dnnl/dnnl_engine.h"
#include "kernels/exec/packed_weights.h"

namespace ge::compiler {
namespace {

bool HasConstantInput(const ir::Node& n) {
  for (const ir::Value* v : n.inputs()) {
    if (v != nullptr && v->is_constant()) return true;
  }
  return false;
}

exec::PrepareRequest RequestFor(const ir::Model& model, const ir::Node& n, int threads, bool allow_bf16) {
  exec::PrepareRequest r;
  r.node = &n;
  r.allow_bf16 = allow_bf16;
  r.opset = model.OpsetFor(n.domain());
  r.intra_op_threads = threads;
  for (const ir::Value* v : n.inputs()) {
    r.input_descs.push_back(v != nullptr ? v->desc() : TensorDesc());
    r.const_inputs.push_back(v != nullptr && v->is_constant() ? v->const_value() : nullptr);
  }
  for (const ir::Value* v : n.outputs()) r.output_descs.push_back(v != nullptr ? v->desc() : TensorDesc());
  return r;
}

class WeightPrepackPass : public GraphPass {
 public:
  explicit WeightPrepackPass(int threads) : threads_(threads) {}
  const char* name() const override { return "WeightPrepack"; }

  StatusOr<bool> Run(ir::Model& model, const PassContext& ctx) override {
    ir::Graph& g = *model.graph;
    // Under allow_bf16 the kernels convert constant weights to bfloat16 once: those are the bytes to store.
    const bool allow_bf16 = ctx.Option("ge.exec.precision_mode", "fp32") == "allow_bf16";
    bool changed = false;
    for (ir::Node* n : g.nodes()) {
      if (n->engine() != dnnl_kernels::kDnnlEngineName || !HasConstantInput(*n)) continue;
      if (n->attrs().Has(exec::kPackedInputAttr)) continue;
      GE_ASSIGN_OR_RETURN(std::vector<dnnl_kernels::PackedWeights> packed,
                          dnnl_kernels::PackWeights(RequestFor(model, *n, threads_, allow_bf16)));
      // One packed input per node is what the attributes describe; the engine's kernels have one weights input.
      if (packed.size() != 1) continue;
      dnnl_kernels::PackedWeights& p = packed.front();
      ir::Value* original = n->input(p.input);
      const int64_t bytes = static_cast<int64_t>(p.bytes.size());
      GE_ASSIGN_OR_RETURN(Tensor t, Tensor::Create(DataType::kUint8, {bytes}));
      std::copy(p.bytes.begin(), p.bytes.end(), t.data<uint8_t>());
      ir::Value* v = g.AddConstant(g.UniqueValueName(original->name() + "_packed"), std::move(t));
      v->desc().format = Format::kFractalZ;
      n->attrs().Set(exec::kPackedInputAttr, ir::AttrValue::Int(p.input));
      n->attrs().Set(exec::kPackedLayoutAttr, ir::AttrValue::String(std::move(p.layout)));
      n->attrs().Set(exec::kPackedShapeAttr, ir::AttrValue::Ints(original->desc().shape.dims()));
      n->SetInput(p.input, v);
      changed = true;
    }
    if (changed) g.RemoveDeadValues();
    return changed;
  }

 private:
  int threads_;
};

}  // namespace

std::unique_ptr<GraphPass> CreateWeightPrepackPass(int threads) {
  return std::make_unique<WeightPrepackPass>(threads);
}

}  // namespace ge::compiler
