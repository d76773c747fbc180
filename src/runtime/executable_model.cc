#include "runtime/executable_model.h"

#include <string>

namespace ge::runtime {

Status CheckBuffers(const std::vector<IoDesc>& descs, const std::vector<DataBuffer>& buffers, const char* what) {
  if (buffers.size() != descs.size()) {
    return InvalidArgument(std::string("expected ") + std::to_string(descs.size()) + " " + what + " buffer(s), got " +
                           std::to_string(buffers.size()));
  }
  for (size_t i = 0; i < descs.size(); ++i) {
    const IoDesc& d = descs[i];
    const DataBuffer& b = buffers[i];
    const std::string label =
        std::string(what) + " " + std::to_string(i) + " '" + d.name + "' (" + d.desc.ToString() + ")";
    if (b.size != d.size_bytes) {
      return InvalidArgument(label + ": buffer is " + std::to_string(b.size) + " bytes, expected " +
                             std::to_string(d.size_bytes));
    }
    if (b.data == nullptr && b.size != 0) return InvalidArgument(label + ": buffer data is null");
  }
  return Status::Ok();
}

}  // namespace ge::runtime
