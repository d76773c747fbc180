// libFuzzer target: arbitrary bytes as an ONNX model. Import must either fail with a Status or produce a valid
// graph; small valid graphs are also run once on the reference kernels with generated inputs.
#include <cstddef>
#include <cstdint>

#include "interpreter/interpreter.h"
#include "parser/onnx/onnx_parser.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  ge::onnx_parser::ParseOptions options;
  options.base_dir = "/nonexistent";  // external data must not reach real files
  auto model = ge::onnx_parser::ParseModelBytes(data, size, options);
  if (!model.ok()) return 0;
  auto interp = ge::Interpreter::Create(model->get());
  if (!interp.ok() || (*model)->graph->num_nodes() > 64) return 0;
  std::vector<ge::Value> inputs;
  for (const ge::ir::Value* in : (*interp)->inputs()) {
    const ge::TensorDesc& d = in->desc();
    if (d.kind != ge::ValueKind::kTensor || d.shape.unknown_rank() || d.dtype == ge::DataType::kUndefined) return 0;
    ge::Dims dims;
    int64_t n = 1;
    for (int64_t x : d.shape.dims()) {
      dims.push_back(x < 0 ? 1 : x);
      n *= dims.back();
      if (n > 4096) return 0;
    }
    auto t = ge::Tensor::Create(d.dtype, dims);
    if (!t.ok()) return 0;
    inputs.emplace_back(std::move(t).value());
  }
  std::vector<ge::Value> outputs;
  (*interp)->Run(inputs, &outputs).IgnoreError();
  return 0;
}
