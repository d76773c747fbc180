// KernelSelection ("ask the engine, never guess"): every engine node's kernel is prepared here exactly as the loader
// will prepare it (same descs, thread count, precision mode and target ISA), by the rule of exec/engine_choice.h:
// the engines before the node's own that support it, then its own; the first that prepares a kernel takes the
// node (its engine becomes that one). An engine walks its candidates (implementations within the target, layouts
// with and without reorders; kernels/dnnl/impl_select.h) and keeps the first that is not a reference
// implementation; the pass records what was chosen in the node attribute kKernelImplAttr (shown by `ge inspect`;
// the loader then offers the node to that engine only) and reports nodes left on a reference implementation.
//
// With prepacking on (DESIGN.md §3 VariableOpPass, variable acceleration applied to constants) the weights the
// kernel reorders become a FRACTAL_Z byte constant with the node attributes of kernels/exec/packed_weights.h, so
// loading maps them instead of reordering. The original constant goes when nothing else reads it. Weights read
// in place from the model's ONNX external data file stay as they are (keep_sourced). Runs on static root graphs
// after format selection.
#include <algorithm>
#include <string>
#include <vector>

#include "compiler/passes/kernel_request.h"
#include "compiler/passes/passes.h"
#include "kernels/exec/engine_choice.h"
#include "kernels/exec/packed_weights.h"

namespace ge::compiler {
namespace {

class KernelSelectionPass : public GraphPass {
 public:
  KernelSelectionPass(int threads, bool prepack, bool keep_sourced, KernelSelectionReport* report)
      : threads_(threads), prepack_(prepack), keep_sourced_(keep_sourced), report_(report) {}
  const char* name() const override { return "KernelSelection"; }

  StatusOr<bool> Run(ir::Model& model, const PassContext& ctx) override {
    ir::Graph& g = *model.graph;
    // Under allow_bf16 the kernels convert constant weights to bfloat16 once: those are the bytes to store.
    bool changed = false;
    const kernels::EngineList engines = EnabledEngines(ctx);
    for (ir::Node* n : g.nodes()) {
      if (kernels::FindEngine(engines, n->engine()) == nullptr) continue;
      n->attrs().Erase(kKernelImplAttr);
      const kernels::Engine* engine = nullptr;
      GE_ASSIGN_OR_RETURN(kernels::KernelChoice choice,
                          exec::ChooseOnEngines(CompileTimeRequest(model, *n, threads_, ctx), engines, &engine));
      if (!choice.prepared) continue;  // the loader falls back to ge's own kernels, as it will at load
      n->set_engine(engine->name());
      n->attrs().Set(kKernelImplAttr, ir::AttrValue::String(choice.impl));
      if (report_ != nullptr) {
        ++report_->impls[choice.impl];
        if (choice.reference) report_->reference_nodes.push_back(n->name() + " (" + choice.impl + ")");
      }
      changed = true;
      // One packed input per node is what the attributes describe; the engine's kernels have one weights input.
      if (!prepack_ || n->attrs().Has(exec::kPackedInputAttr) || choice.packed.size() != 1) continue;
      kernels::PackedWeights& p = choice.packed.front();
      ir::Value* original = n->input(p.input);
      if (keep_sourced_ && original->const_source() != nullptr) continue;
      const int64_t bytes = static_cast<int64_t>(p.bytes.size());
      GE_ASSIGN_OR_RETURN(Tensor t, Tensor::Create(DataType::kUint8, {bytes}));
      std::copy(p.bytes.begin(), p.bytes.end(), t.data<uint8_t>());
      ir::Value* v = g.AddConstant(g.UniqueValueName(original->name() + "_packed"), std::move(t));
      v->desc().format = Format::kFractalZ;
      n->attrs().Set(exec::kPackedInputAttr, ir::AttrValue::Int(p.input));
      n->attrs().Set(exec::kPackedLayoutAttr, ir::AttrValue::String(std::move(p.layout)));
      n->attrs().Set(exec::kPackedShapeAttr, ir::AttrValue::Ints(original->desc().shape.dims()));
      n->SetInput(p.input, v);
    }
    if (changed) g.RemoveDeadValues();
    return changed;
  }

 private:
  int threads_;
  bool prepack_;
  bool keep_sourced_;
  KernelSelectionReport* report_;
};

}  // namespace

std::unique_ptr<GraphPass> CreateKernelSelectionPass(int threads, bool prepack, bool keep_sourced,
                                                     KernelSelectionReport* report) {
  return std::make_unique<KernelSelectionPass>(threads, prepack, keep_sourced, report);
}

}  // namespace ge::compiler
