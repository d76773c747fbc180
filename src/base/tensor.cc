#include "base/tensor.h"

#include <cmath>
#include <cstdlib>
#include <new>
#include <sstream>

namespace ge {

StatusOr<std::shared_ptr<TensorStorage>> TensorStorage::Allocate(DataType dt, int64_t count) {
  if (dt == DataType::kUndefined) return InvalidArgument("cannot allocate a tensor of undefined data type");
  if (count < 0) return InvalidArgument("negative element count " + std::to_string(count));
  int64_t elem = static_cast<int64_t>(DataTypeSize(dt));
  if (count > kMaxTensorBytes / elem) {
    return ResourceExhausted("tensor of " + std::to_string(count) + " " + DataTypeName(dt) +
                             " elements exceeds the per-tensor limit of " + std::to_string(kMaxTensorBytes) + " bytes");
  }
  size_t nbytes = static_cast<size_t>(count * elem);
  size_t alloc = (nbytes + kTensorAlignment - 1) / kTensorAlignment * kTensorAlignment;
  if (alloc == 0) alloc = kTensorAlignment;
  void* p = std::aligned_alloc(kTensorAlignment, alloc);
  if (p == nullptr) return ResourceExhausted("out of memory allocating " + std::to_string(nbytes) + " bytes");
  std::shared_ptr<TensorStorage> s(new TensorStorage());
  s->data_ = p;
  s->nbytes_ = nbytes;
  s->owned_ = true;
  if (dt == DataType::kString) {
    std::string* strs = static_cast<std::string*>(p);
    for (int64_t i = 0; i < count; ++i) new (&strs[i]) std::string();
    s->string_count_ = count;
  } else {
    std::memset(p, 0, alloc);
  }
  return s;
}

std::shared_ptr<TensorStorage> TensorStorage::Borrow(void* data, size_t nbytes, std::shared_ptr<void> keep_alive) {
  std::shared_ptr<TensorStorage> s(new TensorStorage());
  s->data_ = data;
  s->nbytes_ = nbytes;
  s->keep_alive_ = std::move(keep_alive);
  return s;
}

TensorStorage::~TensorStorage() {
  if (!owned_) return;
  std::string* strs = static_cast<std::string*>(data_);
  for (int64_t i = 0; i < string_count_; ++i) strs[i].~basic_string();
  std::free(data_);
}

StatusOr<Tensor> Tensor::Create(DataType dt, const Dims& dims) {
  GE_ASSIGN_OR_RETURN(int64_t n, CheckedNumElements(dims));
  GE_ASSIGN_OR_RETURN(auto storage, TensorStorage::Allocate(dt, n));
  return Tensor(dt, dims, std::move(storage));
}

Tensor::Tensor(DataType dt, Dims dims, std::shared_ptr<TensorStorage> storage, size_t byte_offset)
    : dtype_(dt), dims_(std::move(dims)), storage_(std::move(storage)), offset_(byte_offset) {}

int64_t Tensor::numel() const { return NumElements(dims_); }

template <>
Tensor Tensor::FromVector<bool>(const std::vector<bool>& values, const Dims& dims) {
  Tensor out = Create(DataType::kBool, dims).value();
  bool* p = out.data<bool>();
  for (size_t i = 0; i < values.size() && i < static_cast<size_t>(out.numel()); ++i) p[i] = values[i];
  return out;
}

StatusOr<Tensor> Tensor::Reshaped(const Dims& dims) const {
  GE_ASSIGN_OR_RETURN(int64_t n, CheckedNumElements(dims));
  if (n != numel()) {
    return InvalidArgument("cannot reshape " + DimsToString(dims_) + " to " + DimsToString(dims) +
                           ": element counts differ");
  }
  return Tensor(dtype_, dims, storage_, offset_);
}

StatusOr<Tensor> Tensor::Clone() const {
  GE_ASSIGN_OR_RETURN(Tensor out, Create(dtype_, dims_));
  if (dtype_ == DataType::kString) {
    const std::string* src = data<std::string>();
    std::string* dst = out.data<std::string>();
    for (int64_t i = 0; i < numel(); ++i) dst[i] = src[i];
  } else if (nbytes() > 0) {
    std::memcpy(out.raw_data(), raw_data(), nbytes());
  }
  return out;
}

double Tensor::GetAsDouble(int64_t i) const {
  double v = 0;
  Status s = VisitDataType(dtype_, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_same_v<T, std::string>) {
      v = 0;
    } else if constexpr (std::is_same_v<T, std::complex<float>> || std::is_same_v<T, std::complex<double>>) {
      v = static_cast<double>(data<T>()[i].real());
    } else {
      v = static_cast<double>(data<T>()[i]);
    }
  });
  s.IgnoreError();
  return v;
}

int64_t Tensor::GetAsInt64(int64_t i) const {
  switch (dtype_) {
    case DataType::kInt64: return data<int64_t>()[i];
    case DataType::kInt32: return data<int32_t>()[i];
    case DataType::kUint64: return static_cast<int64_t>(data<uint64_t>()[i]);
    default: {
      // Saturating: NaN becomes 0 and out-of-range values clamp, instead of the undefined float→int cast.
      double d = GetAsDouble(i);
      if (!(d == d)) return 0;
      if (d >= 9.2233720368547758e18) return INT64_MAX;
      if (d <= -9.2233720368547758e18) return INT64_MIN;
      return static_cast<int64_t>(d);
    }
  }
}

std::vector<int64_t> Tensor::ToInt64Vector() const {
  std::vector<int64_t> v(static_cast<size_t>(numel()));
  for (int64_t i = 0; i < numel(); ++i) v[i] = GetAsInt64(i);
  return v;
}

std::string Tensor::DebugString(int max_elems) const {
  std::ostringstream os;
  os << DataTypeName(dtype_) << DimsToString(dims_);
  if (!valid()) return os.str() + "{}";
  os << "{";
  int64_t n = numel();
  for (int64_t i = 0; i < n && i < max_elems; ++i) {
    if (i) os << ",";
    if (dtype_ == DataType::kString) {
      os << '"' << data<std::string>()[i] << '"';
    } else {
      os << GetAsDouble(i);
    }
  }
  if (n > max_elems) os << ",...";
  os << "}";
  return os.str();
}

}  // namespace ge
