// DetectModelFormat (include/ge/compile.h): what model bytes hold, from their first bytes.
#include <cctype>
#include <cstring>
#include <string>

#include "ge/compile.h"
#include "om/om_format.h"

namespace ge {
namespace {

// The first bytes are text: printable ASCII or whitespace (an ONNX ModelProto starts with binary field tags and
// varints, e.g. 0x08 0x07 for ir_version 7).
bool LooksLikeText(const unsigned char* p, size_t size) {
  const size_t n = size < 256 ? size : 256;
  for (size_t i = 0; i < n; ++i) {
    if (!std::isprint(p[i]) && !std::isspace(p[i])) return false;
  }
  return true;
}

// The first word of IR text, past whitespace and '#' comments.
std::string FirstWord(const char* p, size_t size) {
  size_t i = 0;
  while (i < size) {
    if (std::isspace(static_cast<unsigned char>(p[i]))) {
      ++i;
    } else if (p[i] == '#') {
      while (i < size && p[i] != '\n') ++i;
    } else {
      break;
    }
  }
  size_t j = i;
  while (j < size && (std::isalnum(static_cast<unsigned char>(p[j])) || p[j] == '_')) ++j;
  return std::string(p + i, j - i);
}

// A protobuf field tag: wire type 0 (varint), 1 (64-bit), 2 (bytes) or 5 (32-bit), field number >= 1.
bool LooksLikeProtobuf(const unsigned char* p, size_t size) {
  if (size < 2) return false;
  const int wire_type = p[0] & 7;
  return (p[0] >> 3) != 0 && (wire_type == 0 || wire_type == 1 || wire_type == 2 || wire_type == 5);
}

}  // namespace

ModelFormat DetectModelFormat(const void* data, size_t size) {
  if (data == nullptr || size == 0) return ModelFormat::kUnknown;
  const auto* bytes = static_cast<const unsigned char*>(data);
  if (size >= sizeof(om::kOmMagic) && std::memcmp(bytes, om::kOmMagic, sizeof(om::kOmMagic)) == 0) {
    return ModelFormat::kOm;
  }
  if (LooksLikeText(bytes, size)) {
    const std::string word = FirstWord(static_cast<const char*>(data), size);
    const bool ir = word == "ir_version" || word == "producer" || word == "opset" || word == "graph";
    return ir ? ModelFormat::kGeir : ModelFormat::kUnknown;
  }
  return LooksLikeProtobuf(bytes, size) ? ModelFormat::kOnnx : ModelFormat::kUnknown;
}

const char* ModelFormatName(ModelFormat format) {
  switch (format) {
    case ModelFormat::kAuto:
      return "auto";
    case ModelFormat::kOnnx:
      return "onnx";
    case ModelFormat::kGeir:
      return "geir";
    case ModelFormat::kOm:
      return "om";
    case ModelFormat::kUnknown:
      break;
  }
  return "unknown";
}

}  // namespace ge
