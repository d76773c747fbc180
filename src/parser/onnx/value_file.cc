// Backend-test data files: TensorProto, SequenceProto or OptionalProto, serialized.
#include <onnx/onnx_pb.h>
#include <onnx/onnx-data_pb.h>

#include <fstream>
#include <sstream>

#include "parser/onnx/onnx_parser.h"

namespace ge::onnx_parser {

namespace {

StatusOr<Value> FromSequence(const onnx::SequenceProto& sp, const std::string& what) {
  std::vector<Tensor> items;
  DataType elem = static_cast<DataType>(sp.elem_type());
  for (const auto& tp : sp.tensor_values()) {
    GE_ASSIGN_OR_RETURN(Tensor t, TensorFromProto(tp, "", what));
    elem = t.dtype();
    items.push_back(std::move(t));
  }
  if (sp.sequence_values_size() > 0 || sp.map_values_size() > 0) {
    return Unimplemented(what + ": nested sequences and maps are not supported");
  }
  return Value::Sequence(std::move(items), elem == DataType::kUndefined ? DataType::kFloat : elem);
}

}  // namespace

StatusOr<Value> ReadValueFile(const std::string& path, const TensorDesc& expected) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return NotFound("cannot open '" + path + "'");
  std::stringstream ss;
  ss << f.rdbuf();
  const std::string bytes = ss.str();
  if (expected.kind == ValueKind::kSequence) {
    onnx::SequenceProto sp;
    if (!sp.ParseFromString(bytes)) return DataLoss("'" + path + "' is not a SequenceProto");
    return FromSequence(sp, path);
  }
  if (expected.kind == ValueKind::kOptional) {
    onnx::OptionalProto op;
    if (!op.ParseFromString(bytes)) return DataLoss("'" + path + "' is not an OptionalProto");
    if (op.has_tensor_value()) {
      GE_ASSIGN_OR_RETURN(Tensor t, TensorFromProto(op.tensor_value(), "", path));
      return Value(std::move(t));
    }
    if (op.has_sequence_value()) return FromSequence(op.sequence_value(), path);
    return Value::OptionalNone(expected.dtype, expected.elem_kind == ValueKind::kSequence);
  }
  onnx::TensorProto tp;
  if (!tp.ParseFromString(bytes)) return DataLoss("'" + path + "' is not a TensorProto");
  GE_ASSIGN_OR_RETURN(Tensor t, TensorFromProto(tp, "", path));
  return Value(std::move(t));
}

}  // namespace ge::onnx_parser
