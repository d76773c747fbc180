// Memory kinds a Device owns, one pool each (GE's HBM / Host / RDMA memory).
#pragma once
#include <cstddef>

namespace ge::rt {

enum class MemType : int {
  kDevice = 0,  // the device's working memory (on CPU: host memory the device layer owns)
  kHost = 1,    // host-side staging memory
  kRdma = 2,    // pinned (mlock'ed) memory used by collective ops
};
inline constexpr int kNumMemTypes = 3;

enum class MemcpyKind : int { kHostToDevice, kDeviceToHost, kDeviceToDevice, kHostToHost };

inline const char* MemTypeName(MemType t) {
  switch (t) {
    case MemType::kDevice: return "device";
    case MemType::kHost: return "host";
    case MemType::kRdma: return "rdma";
  }
  return "unknown";
}

}  // namespace ge::rt
