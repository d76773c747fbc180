// libFuzzer target: the IR text form's parser (ir/text_parser.h: `ge compile` of a .geir, the public compile API,
// Python's ge.compile / InferenceSession on .geir bytes). Any bytes: a model or an error, never a crash, a hang
// or an allocation the text does not pay for (elided tensors are bounded, written values need a token each).
// GE_IRT_FUZZ_WRITE_SEEDS=DIR writes a few valid inputs there and exits.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "ir/text_parser.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  auto model = ge::ir::ParseModelText(text);
  if (model.ok() && (*model == nullptr || (*model)->graph == nullptr)) std::abort();
  auto graph = ge::ir::ParseGraphText(text);
  if (graph.ok() && *graph == nullptr) std::abort();
  return 0;
}

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  const char* dir = std::getenv("GE_IRT_FUZZ_WRITE_SEEDS");
  if (dir == nullptr) return 0;
  const char* seeds[] = {
      "graph g(%x: float32[2]) {\n  add: %y = Add(%x, %k)\n  const %k = float32[2] [1, 2]\n  return %y\n}\n",
      "ir_version 8\nopset \"\" 17\ngraph hw(%x: float32[2]) {\n  mul: %y = Mul(%a, %k) ^add\n"
      "  add: %a = Add(%x, %x)\n  const %k = float32[2] [3, 4]\n  return %y\n}\n",
      "graph w(%x: float32[1,4]) {\n  mm: %y = MatMul(%x, %w)\n  const %w = float32[4,3] <elided 12 elements>\n"
      "  return %y\n}\n",
      "graph c(%c: bool[]) {\n  if: %z = If(%c)\n    then_branch = graph t() { return %k }\n"
      "    else_branch = graph e() { return %k }\n  const %k = int64[1] [7]\n  return %z\n}\n"};
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
