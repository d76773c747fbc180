// libFuzzer target: arbitrary bytes as an ONNX model. Import must either fail with a Status or produce a valid
// graph. Graphs whose every value shape inference can bound (all dims known, each value at most 1 MiB, no
// subgraphs) are also run once on the reference kernels, so kernels see mutated attributes and constants without
// the fuzzer tripping over legitimately huge or unbounded computations.
#include <cstddef>
#include <cstdint>

#include "compiler/passes/pass_manager.h"
#include "compiler/passes/passes.h"
#include "interpreter/interpreter.h"
#include "parser/onnx/onnx_parser.h"

namespace {

constexpr int64_t kMaxValueBytes = int64_t{1} << 20;

bool SmallAndKnown(const ge::TensorDesc& d) {
  if (d.kind != ge::ValueKind::kTensor || !d.shape.IsFullyKnown() || d.dtype == ge::DataType::kUndefined) return false;
  auto n = ge::CheckedNumElements(d.shape.dims());
  return n.ok() && *n <= kMaxValueBytes / 16;
}

bool SafeToRun(const ge::ir::Graph& g) {
  if (g.num_nodes() > 64) return false;
  for (const ge::ir::Node* n : g.nodes()) {
    if (!n->subgraphs().empty()) return false;
    for (const ge::ir::Value* o : n->outputs())
      if (o && !SmallAndKnown(o->desc())) return false;
  }
  for (const ge::ir::Value* in : g.inputs())
    if (!SmallAndKnown(in->desc())) return false;
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  ge::onnx_parser::ParseOptions options;
  options.base_dir = "/nonexistent";  // external data must not reach real files
  auto model = ge::onnx_parser::ParseModelBytes(data, size, options);
  if (!model.ok()) return 0;
  auto interp = ge::Interpreter::Create(model->get());
  if (!interp.ok()) return 0;
  // Inference on a copy of the descs is what the compiler does first; it must not crash on any valid graph.
  ge::compiler::PassContext ctx;
  auto infer = ge::compiler::CreateInferShapesPass();
  if (!infer->Run(**model, ctx).ok() || !SafeToRun(*(*model)->graph)) return 0;
  std::vector<ge::Value> inputs;
  for (const ge::ir::Value* in : (*interp)->inputs()) {
    auto t = ge::Tensor::Create(in->desc().dtype, in->desc().shape.dims());
    if (!t.ok()) return 0;
    inputs.emplace_back(std::move(t).value());
  }
  std::vector<ge::Value> outputs;
  (*interp)->Run(inputs, &outputs).IgnoreError();
  return 0;
}
