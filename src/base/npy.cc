#include "base/npy.h"

#include <cstring>
#include <fstream>
#include <sstream>

namespace ge {

namespace {

const char* NpyDescr(DataType dt) {
  switch (dt) {
    case DataType::kFloat: return "<f4";
    case DataType::kDouble: return "<f8";
    case DataType::kFloat16: return "<f2";
    case DataType::kInt8: return "|i1";
    case DataType::kUint8: return "|u1";
    case DataType::kInt16: return "<i2";
    case DataType::kUint16: return "<u2";
    case DataType::kInt32: return "<i4";
    case DataType::kUint32: return "<u4";
    case DataType::kInt64: return "<i8";
    case DataType::kUint64: return "<u8";
    case DataType::kBool: return "|b1";
    case DataType::kComplex64: return "<c8";
    case DataType::kComplex128: return "<c16";
    default: return nullptr;
  }
}

StatusOr<DataType> DtypeFromDescr(std::string d, const std::string& what) {
  if (!d.empty() && d[0] == '=') d[0] = '<';
  if (d == "<u1" || d == "<i1" || d == "<b1") d[0] = '|';
  static const DataType kTypes[] = {DataType::kFloat,  DataType::kDouble, DataType::kFloat16, DataType::kInt8,
                                    DataType::kUint8,  DataType::kInt16,  DataType::kUint16,  DataType::kInt32,
                                    DataType::kUint32, DataType::kInt64,  DataType::kUint64,  DataType::kBool,
                                    DataType::kComplex64, DataType::kComplex128};
  for (DataType t : kTypes)
    if (d == NpyDescr(t)) return t;
  return InvalidArgument(what + ": unsupported .npy dtype '" + d + "' (big-endian and object arrays are not supported)");
}

// Value of `key` in the header dict: the text after "'key':" up to the next top-level comma or brace.
std::string HeaderField(const std::string& h, const std::string& key) {
  size_t p = h.find("'" + key + "'");
  if (p == std::string::npos) return "";
  p = h.find(':', p);
  if (p == std::string::npos) return "";
  ++p;
  while (p < h.size() && h[p] == ' ') ++p;
  if (p < h.size() && h[p] == '(') {
    size_t e = h.find(')', p);
    return e == std::string::npos ? "" : h.substr(p, e - p + 1);
  }
  size_t e = p;
  while (e < h.size() && h[e] != ',' && h[e] != '}') ++e;
  std::string v = h.substr(p, e - p);
  while (!v.empty() && v.back() == ' ') v.pop_back();
  return v;
}

}  // namespace

StatusOr<Tensor> ParseNpy(const std::string& bytes, const std::string& what) {
  if (bytes.size() < 10 || std::memcmp(bytes.data(), "\x93NUMPY", 6) != 0) {
    return InvalidArgument(what + ": not a .npy file (bad magic)");
  }
  uint8_t major = static_cast<uint8_t>(bytes[6]);
  size_t header_len, header_start;
  if (major == 1) {
    header_len = static_cast<uint8_t>(bytes[8]) | (static_cast<uint8_t>(bytes[9]) << 8);
    header_start = 10;
  } else if (major == 2 || major == 3) {
    if (bytes.size() < 12) return InvalidArgument(what + ": truncated .npy header");
    header_len = 0;
    for (int i = 0; i < 4; ++i) header_len |= static_cast<size_t>(static_cast<uint8_t>(bytes[8 + i])) << (8 * i);
    header_start = 12;
  } else {
    return InvalidArgument(what + ": unsupported .npy version " + std::to_string(major));
  }
  if (header_start + header_len > bytes.size()) return InvalidArgument(what + ": truncated .npy header");
  std::string h = bytes.substr(header_start, header_len);
  std::string descr = HeaderField(h, "descr");
  if (descr.size() < 2) return InvalidArgument(what + ": .npy header has no descr");
  descr = descr.substr(1, descr.size() - 2);
  GE_ASSIGN_OR_RETURN(DataType dt, DtypeFromDescr(descr, what));
  if (HeaderField(h, "fortran_order") == "True") return InvalidArgument(what + ": Fortran-order .npy is not supported");
  std::string shape = HeaderField(h, "shape");
  if (shape.size() < 2 || shape.front() != '(') return InvalidArgument(what + ": .npy header has no shape");
  Dims dims;
  std::string cur;
  for (char c : shape.substr(1, shape.size() - 2) + ",") {
    if (c == ',') {
      if (!cur.empty()) {
        char* end = nullptr;
        long long v = std::strtoll(cur.c_str(), &end, 10);
        if (*end != '\0' || v < 0) return InvalidArgument(what + ": bad dim '" + cur + "' in .npy shape");
        dims.push_back(v);
      }
      cur.clear();
    } else if (c != ' ' && c != 'L') {
      cur += c;
    }
  }
  GE_ASSIGN_OR_RETURN(int64_t n, CheckedNumElements(dims));
  size_t data_start = header_start + header_len;
  size_t elem = DataTypeSize(dt);
  if (n > 0 && static_cast<uint64_t>(n) > (bytes.size() - data_start) / elem) {
    return InvalidArgument(what + ": .npy data is shorter than its shape " + DimsToString(dims) + " needs");
  }
  GE_ASSIGN_OR_RETURN(Tensor t, Tensor::Create(dt, dims));
  if (n > 0) std::memcpy(t.raw_data(), bytes.data() + data_start, t.nbytes());
  return t;
}

StatusOr<Tensor> ReadNpy(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return NotFound("cannot open '" + path + "'");
  std::stringstream ss;
  ss << f.rdbuf();
  return ParseNpy(ss.str(), "'" + path + "'");
}

Status WriteNpy(const std::string& path, const Tensor& t) {
  const char* descr = NpyDescr(t.dtype());
  if (!descr) return Unimplemented(std::string("cannot write ") + DataTypeName(t.dtype()) + " tensors to .npy");
  std::string shape = "(";
  for (int i = 0; i < t.rank(); ++i) shape += std::to_string(t.dim(i)) + (t.rank() == 1 || i + 1 < t.rank() ? "," : "");
  shape += ")";
  std::string header = std::string("{'descr': '") + descr + "', 'fortran_order': False, 'shape': " + shape + ", }";
  size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';
  std::ofstream f(path, std::ios::binary);
  if (!f) return NotFound("cannot write '" + path + "'");
  f.write("\x93NUMPY\x01\x00", 8);
  uint16_t len = static_cast<uint16_t>(header.size());
  char lenb[2] = {static_cast<char>(len & 0xff), static_cast<char>(len >> 8)};
  f.write(lenb, 2);
  f.write(header.data(), static_cast<std::streamsize>(header.size()));
  if (t.nbytes() > 0) f.write(static_cast<const char*>(t.raw_data()), static_cast<std::streamsize>(t.nbytes()));
  if (!f) return DataLoss("writing '" + path + "' failed");
  return Status::Ok();
}

}  // namespace ge
