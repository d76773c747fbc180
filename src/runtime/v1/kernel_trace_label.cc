#include "runtime/v1/kernel_trace_label.h"

#include "base/trace_json.h"
#include "ge/types.h"

namespace ge::runtime {

namespace {

// "[\"float32[1,3,224,224]\", ...]"; adds the bytes of every fully known tensor to *bytes.
std::string DescsJson(const std::vector<ir::Value*>& values, int64_t* bytes) {
  std::string o = "[";
  for (const ir::Value* v : values) {
    if (o.size() > 1) o += ",";
    if (v == nullptr) {
      o += "null";
      continue;
    }
    const TensorDesc& d = v->desc();
    o += trace::JsonQuote(d.ToString());  // "float32[1,16,32,32]@NHWC": dtype, dims, layout
    if (d.kind == ValueKind::kTensor && d.shape.IsFullyKnown()) {
      *bytes += NumElements(d.shape.dims()) * static_cast<int64_t>(DataTypeSize(d.dtype));
    }
  }
  return o + "]";
}

}  // namespace

trace::TraceLabel KernelTraceLabel(const ir::Node& node, const std::string& impl, const std::string& where) {
  trace::TraceLabel label;
  label.name = node.name();
  label.category = "kernel";
  int64_t bytes = 0;
  const std::string inputs = DescsJson(node.inputs(), &bytes);
  const std::string outputs = DescsJson(node.outputs(), &bytes);
  label.args_json = "{\"node\":" + trace::JsonQuote(node.name()) + ",\"op\":" + trace::JsonQuote(node.op_type()) +
                    ",\"engine\":" + trace::JsonQuote(node.engine()) + ",\"impl\":" + trace::JsonQuote(impl) +
                    ",\"inputs\":" + inputs + ",\"outputs\":" + outputs + ",\"bytes\":" + std::to_string(bytes) +
                    (where.empty() ? "" : "," + where) + "}";
  return label;
}

}  // namespace ge::runtime
