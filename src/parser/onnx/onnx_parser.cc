// ModelProto → ir::Model: reading the protobuf, model metadata, the main graph and the training information.
#include "parser/onnx/onnx_parser.h"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl.h>
#include <onnx/onnx_pb.h>

#include <climits>
#include <fcntl.h>
#include <unistd.h>

#include "parser/onnx/graph_importer.h"
#include "parser/onnx/training_info.h"

namespace ge::onnx_parser {

StatusOr<std::unique_ptr<ir::Model>> ParseModelProto(const onnx::ModelProto& proto, const ParseOptions& options) {
  auto model = std::make_unique<ir::Model>();
  model->ir_version = proto.ir_version();
  model->producer = proto.producer_name();
  for (const auto& op : proto.opset_import()) {
    std::string domain = op.domain() == "ai.onnx" ? "" : op.domain();
    model->opsets[domain] = op.version();
  }
  if (proto.opset_import_size() == 0) model->opsets[""] = 1;  // IR < 3 models have no opset import
  if (!proto.has_graph()) return InvalidArgument("model has no graph");
  if (proto.functions_size() > 0) return Unimplemented("model-local functions are not supported");
  GraphImporter importer(options);
  GE_ASSIGN_OR_RETURN(model->graph, importer.Import(proto.graph(), {}, 0));
  GE_RETURN_IF_ERROR(model->graph->Validate());
  GE_RETURN_IF_ERROR(ImportTrainingInfo(proto, options, model.get()));
  return model;
}

StatusOr<std::unique_ptr<ir::Model>> ParseModelBytes(const void* data, size_t size, const ParseOptions& options) {
  if (size > static_cast<size_t>(INT_MAX)) return InvalidArgument("model is larger than 2 GiB; use external data");
  onnx::ModelProto proto;
  google::protobuf::io::CodedInputStream in(static_cast<const uint8_t*>(data), static_cast<int>(size));
  in.SetTotalBytesLimit(INT_MAX);
  if (!proto.ParseFromCodedStream(&in) || !in.ConsumedEntireMessage()) {
    return DataLoss("the model is not a valid ONNX ModelProto (truncated or corrupted protobuf)");
  }
  return ParseModelProto(proto, options);
}

StatusOr<std::unique_ptr<ir::Model>> ParseModelFile(const std::string& path, ParseOptions options) {
  int fd = ::open(path.c_str(), O_RDONLY);
  if (fd < 0) return NotFound("cannot open model file '" + path + "'");
  onnx::ModelProto proto;
  bool ok;
  {
    google::protobuf::io::FileInputStream raw(fd);
    google::protobuf::io::CodedInputStream in(&raw);
    in.SetTotalBytesLimit(INT_MAX);
    ok = proto.ParseFromCodedStream(&in) && in.ConsumedEntireMessage();
  }
  ::close(fd);
  if (!ok) return DataLoss("'" + path + "' is not a valid ONNX model (truncated or corrupted protobuf)");
  if (options.base_dir.empty()) {
    size_t slash = path.find_last_of('/');
    options.base_dir = slash == std::string::npos ? "." : path.substr(0, slash);
  }
  auto m = ParseModelProto(proto, options);
  if (!m.ok()) return m.status().WithContext(path);
  return m;
}

}  // namespace ge::onnx_parser
