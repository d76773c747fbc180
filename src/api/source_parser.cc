// Parsing a CompileSource (include/ge/compile.h) into ge's IR: ONNX or IR text, from a file or bytes.
#include "api/source_parser.h"

#include <fstream>
#include <sstream>

#include "ir/text_parser.h"
#include "parser/onnx/onnx_parser.h"

namespace ge {
namespace {

bool HasGeirExtension(const std::string& path) {
  const std::string ext = ".geir";
  return path.size() > ext.size() && path.compare(path.size() - ext.size(), ext.size(), ext) == 0;
}

StatusOr<std::string> ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return NotFound("cannot open model file '" + path + "'");
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// The first bytes of a file, enough for DetectModelFormat.
std::string FileHead(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::string head(256, '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<size_t>(in.gcount()));
  return head;
}

// `what` names the model and its verb: "'m.om' is", "the model bytes are".
Status NotACompilableModel(ModelFormat format, const std::string& what) {
  if (format == ModelFormat::kOm) {
    return InvalidArgument(what + " an offline model (.om), already compiled: load it with OfflineModel");
  }
  return InvalidArgument(what + " neither an ONNX model nor ge IR text (.geir)");
}

StatusOr<std::unique_ptr<ir::Model>> ParseIrText(const std::string& text, const std::string& what) {
  auto model = ir::ParseModelText(text);
  if (!model.ok()) return model.status().WithContext(what);
  return model;
}

StatusOr<std::unique_ptr<ir::Model>> LoadFromFile(const CompileSource& source) {
  ModelFormat format = source.format;
  if (format == ModelFormat::kAuto) {
    const std::string head = FileHead(source.path);
    format = DetectModelFormat(head.data(), head.size());
    if (HasGeirExtension(source.path) && format != ModelFormat::kOm) format = ModelFormat::kGeir;
    if (head.empty()) format = ModelFormat::kOnnx;  // missing or empty: the parser names the problem
  }
  const std::string what = "'" + source.path + "' is";
  if (format == ModelFormat::kGeir) {
    GE_ASSIGN_OR_RETURN(std::string text, ReadFile(source.path));
    return ParseIrText(text, source.path);
  }
  if (format != ModelFormat::kOnnx) return NotACompilableModel(format, what);
  onnx_parser::ParseOptions parse;
  parse.base_dir = source.base_dir;
  return onnx_parser::ParseModelFile(source.path, parse);
}

StatusOr<std::unique_ptr<ir::Model>> LoadFromBytes(const CompileSource& source) {
  if (source.data == nullptr || source.size == 0) return InvalidArgument("the model bytes are empty");
  ModelFormat format = source.format;
  if (format == ModelFormat::kAuto) format = DetectModelFormat(source.data, source.size);
  if (format == ModelFormat::kGeir) {
    return ParseIrText(std::string(static_cast<const char*>(source.data), source.size), "model bytes");
  }
  if (format != ModelFormat::kOnnx) return NotACompilableModel(format, "the model bytes are");
  onnx_parser::ParseOptions parse;
  parse.base_dir = source.base_dir.empty() ? "." : source.base_dir;
  return onnx_parser::ParseModelBytes(source.data, source.size, parse);
}

}  // namespace

StatusOr<std::unique_ptr<ir::Model>> ParseSource(const CompileSource& source) {
  if (!source.path.empty() && source.data != nullptr) {
    return InvalidArgument("a compile source is a path or bytes, not both");
  }
  return source.path.empty() ? LoadFromBytes(source) : LoadFromFile(source);
}

}  // namespace ge
