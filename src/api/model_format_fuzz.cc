// libFuzzer target: DetectModelFormat (include/ge/compile.h), the sniffer every bytes-taking entry point runs first
// (ge::Compile, Python's InferenceSession and OfflineModel). Any bytes: one of the four answers, never a crash, and
// the same answer for the same bytes. GE_MF_FUZZ_WRITE_SEEDS=DIR writes a few inputs there and exits.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "ge/compile.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const ge::ModelFormat f = ge::DetectModelFormat(data, size);
  if (f == ge::ModelFormat::kAuto || f != ge::DetectModelFormat(data, size)) std::abort();
  if (size == 0 && f != ge::ModelFormat::kUnknown) std::abort();
  return 0;
}

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  const char* dir = std::getenv("GE_MF_FUZZ_WRITE_SEEDS");
  if (dir == nullptr) return 0;
  const std::string seeds[] = {"# c\nopset \"\" 17\ngraph g(%x: float32[2]) {\n  r: %y = Relu(%x)\n  return %y\n}",
                               std::string("GEOM\0\0\0\0", 8), std::string("\x08\x07\x12\x02pt", 6), "text"};
  int i = 0;
  for (const std::string& s : seeds) {
    const std::string path = std::string(dir) + "/seed" + std::to_string(i++);
    FILE* f = std::fopen(path.c_str(), "wb");
    if (f == nullptr) return 1;
    std::fwrite(s.data(), 1, s.size(), f);
    std::fclose(f);
  }
  std::exit(0);
}
