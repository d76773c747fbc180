// ONNX importer: ModelProto → ir::Model. Everything a model file can get wrong is checked here and reported with
// the node and value it concerns; the rest of ge may assume a structurally valid graph.
#pragma once
#include <cstddef>
#include <memory>
#include <string>

#include "base/status.h"
#include "base/value.h"
#include "ir/graph.h"

namespace onnx {
class TensorProto;
class TypeProto;
class ModelProto;
}  // namespace onnx

namespace ge::onnx_parser {

struct ParseOptions {
  // Folder that external-data locations are relative to (the model file's folder).
  std::string base_dir;
  // Reject ops that no op schema knows (turn off to inspect such models).
  bool check_known_ops = true;
};

StatusOr<std::unique_ptr<ir::Model>> ParseModelFile(const std::string& path, ParseOptions options = {});
StatusOr<std::unique_ptr<ir::Model>> ParseModelBytes(const void* data, size_t size, const ParseOptions& options);
StatusOr<std::unique_ptr<ir::Model>> ParseModelProto(const onnx::ModelProto& proto, const ParseOptions& options);

// A TensorProto's value (inline typed fields, raw_data, or external data under base_dir). `what` names it in errors.
// With `source`, external data also says where its bytes lie (absolute path, offset, length); other tensors leave
// it untouched.
StatusOr<Tensor> TensorFromProto(const onnx::TensorProto& proto, const std::string& base_dir, const std::string& what,
                                 ir::ConstSource* source = nullptr);
StatusOr<TensorDesc> DescFromTypeProto(const onnx::TypeProto& type, const std::string& what);

// Reads a serialized TensorProto, SequenceProto or OptionalProto file (ONNX backend test data) as a Value.
// `expected` (from the model's graph input/output) decides which proto the bytes hold.
StatusOr<Value> ReadValueFile(const std::string& path, const TensorDesc& expected);

}  // namespace ge::onnx_parser
