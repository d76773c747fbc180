#include "om/om_verifier.h"

#include <algorithm>

#include "om/checksum.h"

namespace ge::om {

namespace {

std::string Str(uint64_t v) { return std::to_string(v); }

bool AllZero(const uint8_t* p, size_t n) {
  return std::all_of(p, p + n, [](uint8_t b) { return b == 0; });
}

// A NUL-padded fixed field; fails when it has no NUL.
StatusOr<std::string> FixedString(const uint8_t* p, size_t n, const char* field) {
  const uint8_t* end = std::find(p, p + n, uint8_t{0});
  if (end == p + n) return DataLoss(std::string("corrupt .om header: the ") + field + " field is not terminated");
  if (!AllZero(end, static_cast<size_t>(p + n - end))) {
    return DataLoss(std::string("corrupt .om header: the ") + field + " field has bytes after its end");
  }
  return std::string(reinterpret_cast<const char*>(p), static_cast<size_t>(end - p));
}

Status CheckTable(const uint8_t* data, uint64_t size, uint32_t count, OmHeader* h) {
  const uint64_t table_end = kOmHeaderSize + uint64_t{count} * kOmPartitionEntrySize;
  if (table_end > size) {
    return DataLoss("truncated .om file: the partition table of " + Str(count) + " entries ends at byte " +
                    Str(table_end) + ", the file has " + Str(size));
  }
  uint32_t seen_types = 0;
  for (uint32_t i = 0; i < count; ++i) {
    const uint8_t* e = data + kOmHeaderSize + uint64_t{i} * kOmPartitionEntrySize;
    const uint32_t type = LoadU32(e);
    const uint64_t off = LoadU64(e + 8), len = LoadU64(e + 16);
    const std::string what = "partition " + Str(i);
    if (type > kMaxPartitionType) return DataLoss("corrupt .om partition table: " + what + " has unknown type " + Str(type));
    const auto t = static_cast<PartitionType>(type);
    const std::string name = what + " (" + PartitionTypeName(t) + ")";
    if (seen_types & (1u << type)) return DataLoss("corrupt .om partition table: " + name + " appears twice");
    seen_types |= 1u << type;
    if (LoadU32(e + 4) != 0) return DataLoss("corrupt .om partition table: " + name + " has a nonzero reserved field");
    if (off < table_end || off > size || len > size - off) {
      return DataLoss("corrupt or truncated .om file: " + name + " [" + Str(off) + ", +" + Str(len) +
                      ") is outside the payload area [" + Str(table_end) + ", " + Str(size) + ")");
    }
    const uint64_t align = t == PartitionType::kWeightsData ? kOmWeightsAlignment : kOmPartitionAlignment;
    if (off % align != 0) {
      return DataLoss("corrupt .om partition table: " + name + " offset " + Str(off) + " is not " + Str(align) +
                      "-byte aligned");
    }
    h->partitions.push_back(PartitionInfo{t, off, len});
  }
  std::vector<PartitionInfo> sorted = h->partitions;
  std::sort(sorted.begin(), sorted.end(), [](const PartitionInfo& a, const PartitionInfo& b) { return a.offset < b.offset; });
  for (size_t i = 1; i < sorted.size(); ++i) {
    const PartitionInfo& a = sorted[i - 1];
    if (sorted[i].offset < a.offset + a.size) {
      return DataLoss(std::string("corrupt .om partition table: partitions ") + PartitionTypeName(a.type) + " and " +
                      PartitionTypeName(sorted[i].type) + " overlap");
    }
  }
  return Status::Ok();
}

}  // namespace

const char* PartitionTypeName(PartitionType t) {
  switch (t) {
    case PartitionType::kModelDef: return "MODEL_DEF";
    case PartitionType::kWeightsData: return "WEIGHTS_DATA";
    case PartitionType::kTaskInfo: return "TASK_INFO";
    case PartitionType::kVarInfo: return "VAR_INFO";
    case PartitionType::kExecutePlan: return "EXECUTE_PLAN";
    case PartitionType::kStaticIslands: return "STATIC_ISLANDS";
  }
  return "UNKNOWN";
}

const PartitionInfo* OmHeader::Find(PartitionType t) const {
  for (const PartitionInfo& p : partitions)
    if (p.type == t) return &p;
  return nullptr;
}

Status VerifyOmChecksum(const uint8_t* data, size_t size, const OmHeader& header) {
  if (data == nullptr || size < kOmHeaderSize) return InvalidArgument("VerifyOmChecksum: not a verified .om image");
  const uint32_t actual = ComputeOmChecksum(data, size);
  if (actual != header.checksum) {
    return DataLoss("corrupt .om file: checksum mismatch (header " + Str(header.checksum) + ", content " + Str(actual) +
                    ")");
  }
  return Status::Ok();
}

uint32_t ComputeOmChecksum(const uint8_t* data, size_t size) {
  static const uint8_t kZero[4] = {};
  uint32_t c = Crc32c(0, data, kOffChecksum);
  c = Crc32c(c, kZero, 4);
  return Crc32c(c, data + kOffChecksum + 4, size - kOffChecksum - 4);
}

StatusOr<OmHeader> OmVerifier::Verify(const uint8_t* data, size_t size) const {
  if (data == nullptr && size != 0) return InvalidArgument("null .om buffer");
  if (size < sizeof(kOmMagic) || !std::equal(kOmMagic, kOmMagic + 4, data)) {
    return DataLoss("not a ge .om file: it does not start with \"GEOM\"");
  }
  OmHeader h;
  if (size >= kOffVersion + 4) {
    h.format_version = LoadU32(data + kOffVersion);
    if (h.format_version != kOmFormatVersion) {
      return FailedPrecondition("ge .om format version " + Str(h.format_version) + ", this ge reads " +
                                Str(kOmFormatVersion) + "; recompile the model with this ge");
    }
  }
  if (size < kOmHeaderSize) {
    return DataLoss("truncated .om file: " + Str(size) + " bytes, less than the " + Str(kOmHeaderSize) + "-byte header");
  }
  if (LoadU32(data + kOffHeaderSize) != kOmHeaderSize) {
    return DataLoss("corrupt .om header: header size " + Str(LoadU32(data + kOffHeaderSize)) + ", expected " +
                    Str(kOmHeaderSize));
  }
  h.checksum = LoadU32(data + kOffChecksum);
  h.total_length = LoadU64(data + kOffTotalLength);
  if (h.total_length > size) {
    return DataLoss("truncated .om file: the header says " + Str(h.total_length) + " bytes, only " + Str(size) +
                    " are present");
  }
  if (h.total_length < size) {
    return DataLoss("corrupt .om file: " + Str(size) + " bytes, but the header says " + Str(h.total_length));
  }
  const uint32_t model_type = LoadU32(data + kOffModelType);
  if (model_type > kMaxModelType) return DataLoss("corrupt .om header: unknown model type " + Str(model_type));
  h.model_type = static_cast<OmModelType>(model_type);
  const uint32_t flags = LoadU32(data + kOffFlags);
  if (flags & ~kOmFlagDynamic) return DataLoss("corrupt .om header: unknown flags " + Str(flags));
  h.dynamic = flags & kOmFlagDynamic;
  h.isa.features = LoadU64(data + kOffIsa);
  GE_ASSIGN_OR_RETURN(h.isa.vendor, FixedString(data + kOffVendor, kOmVendorSize, "cpu vendor"));
  GE_ASSIGN_OR_RETURN(h.name, FixedString(data + kOffName, kOmNameSize, "model name"));
  if (!AllZero(data + kOffReserved0, 4) || !AllZero(data + kOffReserved1, kOmHeaderSize - kOffReserved1)) {
    return DataLoss("corrupt .om header: reserved bytes are not zero");
  }
  const uint32_t count = LoadU32(data + kOffPartitionCount);
  if (count > kMaxPartitions) {
    return DataLoss("corrupt .om header: " + Str(count) + " partitions, at most " + Str(kMaxPartitions) + " allowed");
  }
  GE_RETURN_IF_ERROR(CheckTable(data, size, count, &h));
  if (options_.check_checksum) GE_RETURN_IF_ERROR(VerifyOmChecksum(data, size, h));
  if (options_.check_isa) {
    GE_RETURN_IF_ERROR(CheckIsa(h.isa.features, options_.available_isa.value_or(HostIsa().features)));
  }
  return h;
}

}  // namespace ge::om
