#include "om/weights.h"

#include <cstring>

#include "om/checksum.h"
#include "om/om_format.h"

namespace ge::om {

WeightRef WeightsWriter::Add(const void* data, size_t size) {
  ++added_;
  if (size == 0) return WeightRef{0, 0};
  const uint64_t key = uint64_t{Crc32c(0, data, size)} << 32 | (size & 0xFFFFFFFFu);
  auto range = by_key_.equal_range(key);
  for (auto it = range.first; it != range.second; ++it) {
    const WeightRef& r = it->second;
    if (r.size == size && std::memcmp(buf_.data() + r.offset, data, size) == 0) {
      saved_ += size;
      return r;
    }
  }
  const WeightRef ref{AlignUp(buf_.size(), kOmWeightAlignment), size};
  buf_.resize(ref.offset + size);
  std::memcpy(buf_.data() + ref.offset, data, size);
  by_key_.emplace(key, ref);
  return ref;
}

StatusOr<std::optional<WeightRef>> WeightsWriter::Put(const ir::Value& value, const Tensor& tensor) {
  const size_t n = tensor.nbytes();
  if (n == 0 || n < inline_below_) return std::optional<WeightRef>();
  return std::optional<WeightRef>(Add(tensor.raw_data(), n));
}

StatusOr<Tensor> SpanWeightSource::Get(const WeightRef& ref, DataType dtype, const Dims& dims) {
  if (ref.offset > size_ || ref.size > size_ - ref.offset) {
    return DataLoss("weight [" + std::to_string(ref.offset) + ", +" + std::to_string(ref.size) +
                    ") lies outside the " + std::to_string(size_) + "-byte weights partition");
  }
  if (ref.offset % kOmWeightAlignment != 0) {
    return DataLoss("weight at offset " + std::to_string(ref.offset) + " is not " +
                    std::to_string(kOmWeightAlignment) + "-byte aligned");
  }
  if (dtype == DataType::kString || dtype == DataType::kUndefined) {
    return DataLoss(std::string(DataTypeName(dtype)) + " tensors cannot be stored as raw weights");
  }
  auto numel = CheckedNumElements(dims);
  const uint64_t elem = DataTypeSize(dtype);
  if (!numel.ok() || static_cast<uint64_t>(*numel) > ref.size / elem || *numel * elem != ref.size) {
    return DataLoss("weight of " + std::to_string(ref.size) + " bytes does not hold a " + DataTypeName(dtype) +
                    DimsToString(dims) + " tensor");
  }
  const uint8_t* p = data_ + ref.offset;
  if (dtype == DataType::kBool) {
    for (uint64_t i = 0; i < ref.size; ++i)
      if (p[i] > 1) return DataLoss("bool weight at offset " + std::to_string(ref.offset) + " holds a byte other than 0/1");
  }
  if (reinterpret_cast<uintptr_t>(p) % kTensorAlignment != 0) {
    GE_ASSIGN_OR_RETURN(Tensor t, Tensor::Create(dtype, dims));
    if (ref.size) std::memcpy(t.raw_data(), p, ref.size);
    return t;
  }
  // The storage API takes a mutable pointer; the bytes stay read-only (see the class comment).
  auto storage = TensorStorage::Borrow(const_cast<uint8_t*>(p), ref.size, std::const_pointer_cast<void>(keep_alive_));
  return Tensor(dtype, dims, std::move(storage));
}

}  // namespace ge::om
