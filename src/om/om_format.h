// The .om container layout (DESIGN.md §4). All integers little-endian; the writer and the verifier encode and
// decode fields byte by byte, never by casting file bytes to structs.
//
//   offset  size  field
//   0       4     magic "GEOM"
//   4       4     header_size = 256
//   8       4     format_version (kOmFormatVersion)
//   12      4     checksum: CRC32C of the whole file (total_length bytes) with these 4 bytes read as zero
//   16      8     total_length: file size in bytes, header included
//   24      4     model_type (OmModelType)
//   28      4     flags: bit 0 = dynamic (unknown dims, runtime v2); other bits zero
//   32      8     isa_features: IsaFeature bits the model's kernels and prepacked weights need
//   40      16    cpu_vendor of the compiling CPU (cpuid leaf 0), NUL-padded, informational
//   56      4     partition_count (<= kMaxPartitions)
//   60      4     reserved, zero
//   64      64    model_name, NUL-padded, at least one NUL
//   128     128   reserved, zero
//   256     24*n  partition table: {u32 type, u32 reserved = 0, u64 offset, u64 size}, offsets from file start
//   ...           partitions, in table order, non-overlapping, each inside [table end, total_length);
//                 WEIGHTS_DATA at a 4096-aligned offset (mmappable), every other at an 8-aligned offset.
//
// WEIGHTS_DATA is raw bytes: every tensor starts at a 512-aligned offset inside the partition, identical tensors
// are stored once (WeightsWriter). The other partitions are protobuf blobs the compiler defines. Weights compiled
// with ge.externalWeight live outside the container, in weight files ge::FileConstant nodes name (weight_file.h).
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "the .om format and raw weights are little-endian");

namespace ge::om {

constexpr uint8_t kOmMagic[4] = {'G', 'E', 'O', 'M'};
constexpr uint32_t kOmHeaderSize = 256;
constexpr uint32_t kOmFormatVersion = 1;
constexpr uint32_t kOmPartitionEntrySize = 24;
constexpr uint32_t kMaxPartitions = 16;
constexpr uint64_t kOmWeightsAlignment = 4096;  // partition offset in the file
constexpr uint64_t kOmWeightAlignment = 512;    // each tensor inside WEIGHTS_DATA
constexpr uint64_t kOmPartitionAlignment = 8;   // other partitions
constexpr size_t kOmVendorSize = 16;
constexpr size_t kOmNameSize = 64;

// Header field offsets.
constexpr size_t kOffMagic = 0, kOffHeaderSize = 4, kOffVersion = 8, kOffChecksum = 12, kOffTotalLength = 16,
                 kOffModelType = 24, kOffFlags = 28, kOffIsa = 32, kOffVendor = 40, kOffPartitionCount = 56,
                 kOffReserved0 = 60, kOffName = 64, kOffReserved1 = 128;

constexpr uint32_t kOmFlagDynamic = 1u << 0;

enum class PartitionType : uint32_t {
  kModelDef = 0,     // protobuf: graph, op descs with offsets, memory plan, stream/event counts, IO
  kWeightsData = 1,  // raw, see above
  kTaskInfo = 2,     // protobuf TaskDefs
  kVarInfo = 3,      // protobuf VarManagerInfo
  kExecutePlan = 4,  // protobuf ExecutePlanProto (om/execute_plan.proto): runtime v2's lowering of a kLowered model
  // protobuf StaticIslandsProto (om/execute_plan.proto): the static islands of a kLowered model, each a compiled
  // (kStandard) .om image, referenced by the IR's ge.v2::StaticIsland nodes
  kStaticIslands = 5,
};
constexpr uint32_t kMaxPartitionType = 5;
const char* PartitionTypeName(PartitionType t);

enum class OmModelType : uint32_t {
  kIr = 0,        // uncompiled IR only
  kStandard = 1,  // compiled: memory plan + tasks
  kLowered = 2,   // IR lowered for runtime v2 (seed 002 §4.2): the IR plus its execute graphs' plan (EXECUTE_PLAN)
};
constexpr uint32_t kMaxModelType = 2;
// Model types whose MODEL_DEF is the IR (ir.proto): kIr and kLowered.
inline bool IsIrModelType(OmModelType t) { return t == OmModelType::kIr || t == OmModelType::kLowered; }

inline uint32_t LoadU32(const uint8_t* p) {
  return uint32_t{p[0]} | uint32_t{p[1]} << 8 | uint32_t{p[2]} << 16 | uint32_t{p[3]} << 24;
}
inline uint64_t LoadU64(const uint8_t* p) { return uint64_t{LoadU32(p)} | uint64_t{LoadU32(p + 4)} << 32; }
inline void StoreU32(uint8_t* p, uint32_t v) {
  for (int i = 0; i < 4; ++i) p[i] = static_cast<uint8_t>(v >> (8 * i));
}
inline void StoreU64(uint8_t* p, uint64_t v) {
  StoreU32(p, static_cast<uint32_t>(v));
  StoreU32(p + 4, static_cast<uint32_t>(v >> 32));
}
inline uint64_t AlignUp(uint64_t v, uint64_t a) { return (v + a - 1) / a * a; }

}  // namespace ge::om
