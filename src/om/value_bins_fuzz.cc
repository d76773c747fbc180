// libFuzzer target: the ge.exec.value_bins option parser. Any bytes: a map or an InvalidArgument, never a crash.
// GE_VB_FUZZ_WRITE_SEEDS=DIR writes a few valid inputs there and exits.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "om/value_bins.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto r = ge::om::ParseValueBins(std::string(reinterpret_cast<const char*>(data), size));
  if (r.ok()) {
    for (const auto& [id, path] : *r) {
      if (id.empty() || path.empty()) std::abort();
    }
  } else if (r.status().code() != ge::StatusCode::kInvalidArgument) {
    std::abort();
  }
  return 0;
}

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  const char* dir = std::getenv("GE_VB_FUZZ_WRITE_SEEDS");
  if (dir == nullptr) return 0;
  const char* seeds[] = {R"({"value_bins":[{"value_bin_id":"a","value_bin_file":"a.bin"}]})",
                         R"({"value_bins":[{"value_bin_id":"x\n","value_bin_file":"\u0041"},{"value_bin_id":"y","value_bin_file":"/b"}]})",
                         R"({"value_bins":[]})"};
  int i = 0;
  for (const char* s : seeds) {
    const std::string path = std::string(dir) + "/seed" + std::to_string(i++);
    if (FILE* f = std::fopen(path.c_str(), "wb")) {
      std::fputs(s, f);
      std::fclose(f);
    }
  }
  std::exit(0);
}
