// Checkpoints (seed 000; DESIGN.md §8, "VarManager state serializes to protobuf (OM and checkpoints)"): a file
// holding a session's variables — each variable's name, current desc and bytes — and the session's VAR_INFO, so
// that a later session can restore both the values and the logical layout.
//
// File layout. All integers little-endian, encoded and decoded byte by byte.
//
//   offset  size  field
//   0       4     magic "GECK"
//   4       4     format_version (kCheckpointVersion)
//   8       4     header_size = 64
//   12      4     checksum: CRC32C of the whole file (total_length bytes) with these 4 bytes read as zero
//   16      8     total_length: file size in bytes, header included
//   24      8     index_offset, from the file start
//   32      8     index_size: bytes of the index, a serialized CheckpointProto (checkpoint.proto)
//   40      8     data_offset, from the file start; a multiple of 64
//   48      8     data_size: bytes of the data region
//   56      8     reserved, zero
//
// The writer puts the index right after the header and the data region at the next multiple of 64 after the index;
// the reader accepts any placement where the index and the data region lie inside the file, after the header, and
// do not overlap. Each variable's bytes sit in the data region at its data_offset (a multiple of 64, relative to
// the region) and take data_size bytes: its storage bytes in its desc's format (NC1HWC0 pads C up to C0), in the
// host's byte order (little-endian). Variables' ranges do not overlap.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "base/status.h"
#include "base/tensor.h"
#include "base/tensor_desc.h"
#include "rt/device.h"
#include "var/var_manager.h"

namespace ge::var {

inline constexpr uint8_t kCheckpointMagic[4] = {'G', 'E', 'C', 'K'};
inline constexpr uint32_t kCheckpointVersion = 1;
inline constexpr uint32_t kCheckpointHeaderSize = 64;
inline constexpr uint64_t kCheckpointAlignment = 64;  // the data region in the file, and each variable in it
// Header field offsets.
inline constexpr size_t kCkptOffMagic = 0, kCkptOffVersion = 4, kCkptOffHeaderSize = 8, kCkptOffChecksum = 12,
                        kCkptOffTotalLength = 16, kCkptOffIndexOffset = 24, kCkptOffIndexSize = 32,
                        kCkptOffDataOffset = 40, kCkptOffDataSize = 48, kCkptOffReserved = 56;
// ReadCheckpointFile refuses larger files (above the largest session's 40 GB of variables, with room to spare).
inline constexpr uint64_t kMaxCheckpointFileBytes = uint64_t{64} << 30;

struct CheckpointVariable {
  std::string name;
  TensorDesc desc;  // a static numeric tensor
  // The variable's storage bytes: dtype == desc.dtype, dims == CheckpointValueDims(desc).
  Tensor value;
};

struct Checkpoint {
  std::vector<CheckpointVariable> variables;
  std::string var_info;  // SerializeVarInfo output, or empty
};

// The dims of a variable's value: the desc's dims, except NC1HWC0 whose storage is [N, C1, spatial..., C0].
StatusOr<Dims> CheckpointValueDims(const TensorDesc& desc);

// InvalidArgument for an unnamed, duplicated or non-static variable, or a value that does not match its desc.
StatusOr<std::string> SerializeCheckpoint(const Checkpoint& checkpoint);
// Verifies everything (header, checksum, every range and desc) before copying any variable's bytes out of
// |data|; DataLoss naming the problem for any inconsistency. Allocates at most about |size| bytes.
StatusOr<Checkpoint> ParseCheckpoint(const void* data, size_t size);

// Writes |path| atomically: a temporary file beside it, fsync, rename. A crash leaves either the old file or the
// new one at |path| (and perhaps a stray "path.tmp.*").
Status WriteCheckpointFile(const std::string& path, const Checkpoint& checkpoint);
// NotFound for a missing file; ResourceExhausted for a file over |max_bytes|; ParseCheckpoint's errors otherwise.
StatusOr<Checkpoint> ReadCheckpointFile(const std::string& path, uint64_t max_bytes = kMaxCheckpointFileBytes);

// The session's variables as a checkpoint: the named ones (NotFound for an unknown name), or with |names| empty
// every variable of kind kVariable (constants belong to their models). Each value is read at the variable's
// current desc from its memory (VarManager::GetVarMemoryAddr, which allocates it on first use and copies in its
// `_init_value`). |device| is the manager's device: the copies go through its Memcpy.
StatusOr<Checkpoint> SaveVariables(VarManager* manager, rt::Device* device, const std::vector<std::string>& names = {});

// Puts every variable of |checkpoint| into the session: a variable the session lacks is placed (AssignVarMem, kind
// kVariable, device memory); one it has must have the same dtype, dims and format and at least the checkpoint's
// bytes (InvalidArgument naming the variable and both descs otherwise — checked for every variable before any is
// changed). The bytes are copied into the variable's memory through |device| (the manager's), and the variable is
// marked ready on |device_id|. VAR_INFO is not applied here: a session loading an offline model restores it with
// RestoreVarInfo first.
Status RestoreVariables(const Checkpoint& checkpoint, VarManager* manager, rt::Device* device, uint32_t device_id = 0);

}  // namespace ge::var
