// The WEIGHTS_DATA partition: WeightsWriter builds it (a WeightSink for ModelToProto), SpanWeightSource reads
// it back (a WeightSource for ModelFromProto) with tensors that borrow the partition's bytes.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <unordered_map>
#include <vector>

#include "om/ir_proto.h"

namespace ge::om {

// Appends tensors at 512-byte-aligned offsets (kOmWeightAlignment); identical bytes are stored once.
class WeightsWriter : public WeightSink {
 public:
  // Constants of fewer than `inline_below` bytes (and empty ones) stay inline in the proto.
  explicit WeightsWriter(size_t inline_below = 0) : inline_below_(inline_below) {}

  WeightRef Add(const void* data, size_t size);
  StatusOr<std::optional<WeightRef>> Put(const ir::Value& value, const Tensor& tensor) override;

  const std::vector<uint8_t>& bytes() const { return buf_; }
  std::vector<uint8_t> Release() { return std::move(buf_); }
  size_t tensors_added() const { return added_; }
  size_t bytes_saved_by_dedup() const { return saved_; }

 private:
  size_t inline_below_;
  std::vector<uint8_t> buf_;
  std::unordered_multimap<uint64_t, WeightRef> by_key_;  // key: crc32c << 32 | low bits of size
  size_t added_ = 0;
  size_t saved_ = 0;
};

// Tensors over [data, data + size) (a verified WEIGHTS_DATA partition). Each borrows the bytes and holds
// `keep_alive` (the mapping); when the address is not 64-byte aligned (a caller's buffer) the bytes are copied.
// Borrowed tensors are read-only: the memory may be a read-only mapping. Clone() before writing.
class SpanWeightSource : public WeightSource {
 public:
  SpanWeightSource(const uint8_t* data, size_t size, std::shared_ptr<const void> keep_alive)
      : data_(data), size_(size), keep_alive_(std::move(keep_alive)) {}
  StatusOr<Tensor> Get(const WeightRef& ref, DataType dtype, const Dims& dims) override;

 private:
  const uint8_t* data_;
  size_t size_;
  std::shared_ptr<const void> keep_alive_;
};

}  // namespace ge::om
