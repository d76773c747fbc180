// TensorProto / TypeProto conversion, including external data files.
#include <onnx/onnx_pb.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <system_error>

#include "parser/onnx/onnx_parser.h"

namespace ge::onnx_parser {

namespace {

template <typename Dst, typename Field>
void CopyField(const Field& field, Tensor* t) {
  Dst* d = t->data<Dst>();
  for (int64_t i = 0; i < t->numel(); ++i) d[i] = static_cast<Dst>(field.Get(static_cast<int>(i)));
}

// int32_data holds int8/int16/uint8/uint16/bool/float16/bfloat16 (the 16-bit floats as raw bits).
void CopyInt32Field(const onnx::TensorProto& p, Tensor* t) {
  const auto& f = p.int32_data();
  switch (t->dtype()) {
    case DataType::kInt32: CopyField<int32_t>(f, t); break;
    case DataType::kInt16: CopyField<int16_t>(f, t); break;
    case DataType::kInt8: CopyField<int8_t>(f, t); break;
    case DataType::kUint16: CopyField<uint16_t>(f, t); break;
    case DataType::kUint8: CopyField<uint8_t>(f, t); break;
    case DataType::kBool: CopyField<bool>(f, t); break;
    case DataType::kFloat16:
    case DataType::kBFloat16: {
      uint16_t* d = t->data<uint16_t>();
      for (int64_t i = 0; i < t->numel(); ++i) d[i] = static_cast<uint16_t>(f.Get(static_cast<int>(i)));
      break;
    }
    default: break;
  }
}

Status ReadExternal(const onnx::TensorProto& p, const std::string& base_dir, const std::string& what, Tensor* t,
                    ir::ConstSource* source) {
  std::string location;
  int64_t offset = 0, length = -1;
  for (const auto& kv : p.external_data()) {
    if (kv.key() == "location") {
      location = kv.value();
    } else if (kv.key() == "offset" || kv.key() == "length") {
      char* end = nullptr;
      long long v = std::strtoll(kv.value().c_str(), &end, 10);
      if (end == kv.value().c_str() || *end != '\0' || v < 0) {
        return InvalidArgument(what + ": external data " + kv.key() + " '" + kv.value() + "' is not a non-negative integer");
      }
      (kv.key() == "offset" ? offset : length) = v;
    }
  }
  if (location.empty()) return InvalidArgument(what + ": external data has no location");
  if (location[0] == '/' || location.find("..") != std::string::npos) {
    return InvalidArgument(what + ": external data location '" + location + "' must be a relative path inside the model folder");
  }
  int64_t need = static_cast<int64_t>(t->nbytes());
  if (length >= 0 && length != need) {
    return InvalidArgument(what + ": external data length " + std::to_string(length) + " does not match the " +
                           std::to_string(need) + " bytes its shape needs");
  }
  std::string path = base_dir.empty() ? location : base_dir + "/" + location;
  std::ifstream f(path, std::ios::binary);
  if (!f) return NotFound(what + ": cannot open external data file '" + path + "'");
  f.seekg(0, std::ios::end);
  int64_t file_size = static_cast<int64_t>(f.tellg());
  if (offset > file_size || need > file_size - offset) {
    return DataLoss(what + ": external data file '" + path + "' has " + std::to_string(file_size) +
                    " bytes, fewer than offset " + std::to_string(offset) + " + " + std::to_string(need));
  }
  f.seekg(offset);
  f.read(static_cast<char*>(t->raw_data()), need);
  if (!f) return DataLoss(what + ": reading external data file '" + path + "' failed");
  if (source != nullptr) {
    std::error_code ec;
    const std::filesystem::path abs = std::filesystem::weakly_canonical(std::filesystem::absolute(path), ec);
    if (ec) return InvalidArgument(what + ": external data file '" + path + "': " + ec.message());
    *source = ir::ConstSource{abs.string(), static_cast<uint64_t>(offset), static_cast<uint64_t>(need)};
  }
  return Status::Ok();
}

}  // namespace

StatusOr<Tensor> TensorFromProto(const onnx::TensorProto& p, const std::string& base_dir, const std::string& what,
                                 ir::ConstSource* source) {
  if (p.has_segment()) return Unimplemented(what + ": segmented tensors are not supported");
  if (!IsValidDataType(p.data_type())) {
    return InvalidArgument(what + ": unknown tensor data type " + std::to_string(p.data_type()));
  }
  DataType dt = static_cast<DataType>(p.data_type());
  Dims dims(p.dims().begin(), p.dims().end());
  for (int64_t d : dims)
    if (d < 0) return InvalidArgument(what + ": negative dim in " + DimsToString(dims));
  auto created = Tensor::Create(dt, dims);
  if (!created.ok()) return created.status().WithContext(what);
  Tensor t = std::move(created).value();
  const int64_t n = t.numel();

  if (p.data_location() == onnx::TensorProto::EXTERNAL) {
    if (dt == DataType::kString) return Unimplemented(what + ": external string data is not supported");
    GE_RETURN_IF_ERROR(ReadExternal(p, base_dir, what, &t, source));
    return t;
  }
  if (p.has_raw_data()) {
    if (dt == DataType::kString) return InvalidArgument(what + ": string tensors cannot use raw_data");
    if (p.raw_data().size() != t.nbytes()) {
      return InvalidArgument(what + ": raw_data has " + std::to_string(p.raw_data().size()) + " bytes but shape " +
                             DimsToString(dims) + " of " + DataTypeName(dt) + " needs " + std::to_string(t.nbytes()));
    }
    if (n > 0) std::memcpy(t.raw_data(), p.raw_data().data(), t.nbytes());
    return t;
  }
  auto check = [&](int64_t have) -> Status {
    if (have != n) {
      return InvalidArgument(what + ": has " + std::to_string(have) + " values but shape " + DimsToString(dims) +
                             " needs " + std::to_string(n));
    }
    return Status::Ok();
  };
  switch (dt) {
    case DataType::kFloat:
      GE_RETURN_IF_ERROR(check(p.float_data_size()));
      CopyField<float>(p.float_data(), &t);
      break;
    case DataType::kDouble:
      GE_RETURN_IF_ERROR(check(p.double_data_size()));
      CopyField<double>(p.double_data(), &t);
      break;
    case DataType::kInt64:
      GE_RETURN_IF_ERROR(check(p.int64_data_size()));
      CopyField<int64_t>(p.int64_data(), &t);
      break;
    case DataType::kUint32:
      GE_RETURN_IF_ERROR(check(p.uint64_data_size()));
      CopyField<uint32_t>(p.uint64_data(), &t);
      break;
    case DataType::kUint64:
      GE_RETURN_IF_ERROR(check(p.uint64_data_size()));
      CopyField<uint64_t>(p.uint64_data(), &t);
      break;
    case DataType::kString: {
      GE_RETURN_IF_ERROR(check(p.string_data_size()));
      std::string* d = t.data<std::string>();
      for (int64_t i = 0; i < n; ++i) d[i] = p.string_data(static_cast<int>(i));
      break;
    }
    case DataType::kComplex64: {
      GE_RETURN_IF_ERROR(check(p.float_data_size() / 2));
      float* d = t.data<float>();
      for (int64_t i = 0; i < 2 * n; ++i) d[i] = p.float_data(static_cast<int>(i));
      break;
    }
    case DataType::kComplex128: {
      GE_RETURN_IF_ERROR(check(p.double_data_size() / 2));
      double* d = t.data<double>();
      for (int64_t i = 0; i < 2 * n; ++i) d[i] = p.double_data(static_cast<int>(i));
      break;
    }
    default:
      GE_RETURN_IF_ERROR(check(p.int32_data_size()));
      CopyInt32Field(p, &t);
      break;
  }
  return t;
}

StatusOr<TensorDesc> DescFromTypeProto(const onnx::TypeProto& type, const std::string& what) {
  TensorDesc d;
  const onnx::TypeProto* tp = &type;
  if (tp->has_optional_type()) {
    d.kind = ValueKind::kOptional;
    tp = &tp->optional_type().elem_type();
    if (tp->has_sequence_type()) {
      d.elem_kind = ValueKind::kSequence;
      tp = &tp->sequence_type().elem_type();
    }
  } else if (tp->has_sequence_type()) {
    d.kind = ValueKind::kSequence;
    tp = &tp->sequence_type().elem_type();
  }
  if (tp->has_sequence_type()) return Unimplemented(what + ": nested sequence types are not supported");
  if (tp->has_map_type() || tp->has_sparse_tensor_type()) {
    return Unimplemented(what + ": map and sparse tensor types are not supported");
  }
  if (!tp->has_tensor_type()) {
    if (d.kind == ValueKind::kTensor) d.kind = ValueKind::kUnknown;
    return d;
  }
  const auto& tt = tp->tensor_type();
  if (tt.elem_type() != 0 && !IsValidDataType(tt.elem_type())) {
    return InvalidArgument(what + ": unknown element type " + std::to_string(tt.elem_type()));
  }
  d.dtype = static_cast<DataType>(tt.elem_type());
  if (!tt.has_shape()) {
    d.shape = Shape::UnknownRank();
    return d;
  }
  Shape s;
  for (const auto& dim : tt.shape().dim()) {
    if (dim.has_dim_value()) {
      if (dim.dim_value() < 0) return InvalidArgument(what + ": negative dim " + std::to_string(dim.dim_value()));
      s.AddDim(dim.dim_value());
    } else {
      s.AddDim(kUnknownDim, dim.has_dim_param() ? dim.dim_param() : "");
    }
  }
  d.shape = s;
  return d;
}

}  // namespace ge::onnx_parser
