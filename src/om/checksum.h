// CRC32C (Castagnoli), as used by the .om header. Uses the SSE4.2 crc32 instruction when the CPU has it.
#pragma once
#include <cstddef>
#include <cstdint>

namespace ge::om {

// Continues a CRC: Crc32c(Crc32c(0, a), b) == Crc32c(0, a ++ b).
uint32_t Crc32c(uint32_t crc, const void* data, size_t size);

}  // namespace ge::om
