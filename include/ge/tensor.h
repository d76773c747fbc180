// Public tensor type: ge::Tensor, a dense row-major array of one DataType over reference-counted storage that it
// owns or borrows (TensorStorage). Tensors are cheap to copy and copies share bytes. Self-contained; the library's
// own code uses this same class (src/base/tensor.h adds nothing but includes). Thread-safety: distinct Tensors may
// be used from distinct threads; writers to shared storage must coordinate.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "ge/api.h"
#include "ge/status.h"
#include "ge/types.h"

namespace ge {

using Dims = std::vector<int64_t>;

// Hard ceiling on one tensor's bytes: an allocation above it is refused with ResourceExhausted instead of being
// attempted (absurd sizes in a model or on the command line must never take the machine down).
constexpr int64_t kMaxTensorBytes = int64_t{16} << 30;
constexpr size_t kTensorAlignment = 64;

// Owns (or borrows) the bytes of one or more tensors.
class GE_API TensorStorage {
 public:
  // Allocates nbytes, 64-byte aligned, zero-filled. Strings: count default-constructed std::string.
  static StatusOr<std::shared_ptr<TensorStorage>> Allocate(DataType dt, int64_t count);
  // Borrows memory owned by someone else (an mmapped file, a user buffer); `keep_alive` is held until release.
  static std::shared_ptr<TensorStorage> Borrow(void* data, size_t nbytes, std::shared_ptr<void> keep_alive);
  ~TensorStorage();
  TensorStorage(const TensorStorage&) = delete;
  TensorStorage& operator=(const TensorStorage&) = delete;

  void* data() const { return data_; }
  size_t nbytes() const { return nbytes_; }

 private:
  TensorStorage() = default;
  void* data_ = nullptr;
  size_t nbytes_ = 0;
  bool owned_ = false;
  int64_t string_count_ = 0;  // > 0 when data_ holds constructed std::string objects
  std::shared_ptr<void> keep_alive_;
};

class GE_API Tensor {
 public:
  Tensor() = default;  // an empty float scalar with no storage; valid() is false
  // Allocates a zero-filled tensor; fails on negative dims, overflow or more than kMaxTensorBytes.
  static StatusOr<Tensor> Create(DataType dt, const Dims& dims);
  // Wraps existing storage; the caller guarantees it holds offset + numel * size bytes.
  Tensor(DataType dt, Dims dims, std::shared_ptr<TensorStorage> storage, size_t byte_offset = 0);
  // Convenience for tests and small constants.
  template <typename T>
  static Tensor FromVector(const std::vector<T>& values, const Dims& dims);
  template <typename T>
  static Tensor Scalar(T v) { return FromVector<T>({v}, {}); }

  bool valid() const { return storage_ != nullptr; }
  DataType dtype() const { return dtype_; }
  const Dims& dims() const { return dims_; }
  int rank() const { return static_cast<int>(dims_.size()); }
  int64_t dim(int i) const { return dims_[i]; }
  int64_t numel() const;  // product of dims (1 for a scalar)
  size_t nbytes() const { return static_cast<size_t>(numel()) * DataTypeSize(dtype_); }

  void* raw_data() { return storage_ ? static_cast<char*>(storage_->data()) + offset_ : nullptr; }
  const void* raw_data() const { return storage_ ? static_cast<const char*>(storage_->data()) + offset_ : nullptr; }
  template <typename T> T* data() { return static_cast<T*>(raw_data()); }
  template <typename T> const T* data() const { return static_cast<const T*>(raw_data()); }

  // A tensor sharing this storage with other dims; numel must match.
  StatusOr<Tensor> Reshaped(const Dims& dims) const;
  // A deep copy with its own storage.
  StatusOr<Tensor> Clone() const;
  const std::shared_ptr<TensorStorage>& storage() const { return storage_; }
  size_t byte_offset() const { return offset_; }

  // Element i converted to double (numeric and bool types); for index and shape inputs.
  double GetAsDouble(int64_t i) const;
  // Element i converted to int64 (integer, bool and float types; floats saturate, NaN gives 0).
  int64_t GetAsInt64(int64_t i) const;
  // All elements converted to int64 (for shape-like inputs: Reshape shape, axes, pads ...).
  std::vector<int64_t> ToInt64Vector() const;
  std::string DebugString(int max_elems = 8) const;

 private:
  DataType dtype_ = DataType::kFloat;
  Dims dims_;
  std::shared_ptr<TensorStorage> storage_;
  size_t offset_ = 0;
};

template <typename T>
Tensor Tensor::FromVector(const std::vector<T>& values, const Dims& dims) {
  auto t = Create(DataTypeOf<T>::value, dims);
  Tensor out = std::move(t).value();
  T* p = out.data<T>();
  for (size_t i = 0; i < values.size() && i < static_cast<size_t>(out.numel()); ++i) p[i] = values[i];
  return out;
}

// Specialization for bool vectors (std::vector<bool> is packed).
template <>
GE_API Tensor Tensor::FromVector<bool>(const std::vector<bool>& values, const Dims& dims);

}  // namespace ge
