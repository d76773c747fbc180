// libFuzzer target: ge's option checks (base/option_table.h) and the closest-name search behind their messages.
// Input: a reader mask byte, then KEY=VALUE lines. Any bytes: Ok or InvalidArgument, never a crash; a suggested
// name is always a known option (or engine family member) within the typo distance.
// GE_OPT_FUZZ_WRITE_SEEDS=DIR writes a few inputs there and exits.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>

#include "base/edit_distance.h"
#include "base/option_table.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const uint32_t readers = data[0] & 0x1f;
  const std::string text(reinterpret_cast<const char*>(data) + 1, size - 1);
  std::map<std::string, std::string> options;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    const std::string line = text.substr(start, end - start);
    const size_t eq = line.find('=');
    options[line.substr(0, eq)] = eq == std::string::npos ? "" : line.substr(eq + 1);
    start = end + 1;
  }
  ge::Status s = ge::CheckOptionsAgainstTable(options, readers, "fuzz");
  if (!s.ok() && s.code() != ge::StatusCode::kInvalidArgument) std::abort();
  for (const auto& [key, value] : options) {
    const ge::OptionInfo* info = ge::FindOption(key);
    if (info != nullptr) {
      ge::Status v = ge::CheckOptionValue(*info, key, value);
      if (!v.ok() && v.code() != ge::StatusCode::kInvalidArgument) std::abort();
    }
    std::vector<std::string> names;
    for (const ge::OptionInfo& o : ge::AllOptions()) names.emplace_back(o.name);
    const std::string closest = ge::ClosestName(key, names);
    if (!closest.empty() && ge::EditDistance(key, closest) > std::max<size_t>(2, key.size() / 3)) std::abort();
    if (key.size() + value.size() < 128 && ge::EditDistance(key, value) != ge::EditDistance(value, key)) std::abort();
  }
  return 0;
}

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  const char* dir = std::getenv("GE_OPT_FUZZ_WRITE_SEEDS");
  if (dir == nullptr) return 0;
  const char* seeds[] = {"\x04ge.exec.disableReuseMemry=1\nge.fusion=0",
                         "\x08ge.exec.v2Executor=priority\nge.exec.v2KernelCacheCapacity=4096",
                         "\x1fge.engine.dnnl=0\nge.sessionMemoryBudget=000000000032768\nge.Fusion=1",
                         "\x10ge.exec.precision_mode=allow_bf16\nge.engin.dnnl=2"};
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
