// ir::Model <-> ge.proto.IrModelProto (ir.proto). Constant data may live outside the proto: a WeightSink takes
// each constant's bytes when writing and hands back a reference; a WeightSource turns the reference back into a
// Tensor when reading (possibly borrowing mmapped memory). Attribute tensors and string constants always stay
// inline. Reading validates everything (indices, dtypes, sizes) and fails with a Status, never crashes.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "base/status.h"
#include "base/tensor.h"
#include "ir/graph.h"
#include "om/ir.pb.h"

namespace ge::om {

// A byte range inside the WEIGHTS_DATA partition.
struct WeightRef {
  uint64_t offset = 0;
  uint64_t size = 0;
};

class WeightSink {
 public:
  virtual ~WeightSink() = default;
  // Called for each non-string constant. Returns where the bytes went, or nullopt to keep them inline.
  virtual StatusOr<std::optional<WeightRef>> Put(const ir::Value& value, const Tensor& tensor) = 0;
};

class WeightSource {
 public:
  virtual ~WeightSource() = default;
  // The tensor stored at `ref`. ModelFromProto checks its dtype, dims and size against the proto.
  virtual StatusOr<Tensor> Get(const WeightRef& ref, DataType dtype, const Dims& dims) = 0;
};

// sink == nullptr keeps every constant inline.
StatusOr<proto::IrModelProto> ModelToProto(const ir::Model& model, WeightSink* sink = nullptr);
// source == nullptr rejects protos that reference external weights.
StatusOr<std::unique_ptr<ir::Model>> ModelFromProto(const proto::IrModelProto& p, WeightSource* source = nullptr);

// One tensor desc; DescFromProto validates (kind, format, dtype, dims) and names |what| in its DataLoss.
void DescToProto(const TensorDesc& d, proto::TensorDescProto* p);
StatusOr<TensorDesc> DescFromProto(const proto::TensorDescProto& p, const std::string& what);

// Byte forms (protobuf wire format), with parse errors as Status.
StatusOr<std::string> SerializeModel(const ir::Model& model, WeightSink* sink = nullptr);
StatusOr<std::unique_ptr<ir::Model>> ParseModel(const void* data, size_t size, WeightSource* source = nullptr);

}  // namespace ge::om
