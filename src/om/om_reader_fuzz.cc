// libFuzzer target: arbitrary bytes as an .om image. The verifier must accept or reject with a Status; accepted
// images (checksum checked or not, so mutations reach the partitions) load their MODEL_DEF as IR, which must
// either fail with a Status or dump. GE_OM_FUZZ_WRITE_SEEDS=DIR writes a few valid images there and exits.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "ir/dump.h"
#include "ir/text_parser.h"
#include "om/ir_om.h"

namespace {

const char* const kSeedModels[] = {
    R"(graph tiny(%x: float32[2]) { return %x })",
    R"(ir_version 8
       opset "" 17
       graph g(%x: float32[n,4]@NCHW) {
         const %w: float32[4,4] = [1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16]
         const %w2: float32[4,4] = [1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16]
         const %h: float16[2] = [0.5, 1]
         const %s: string[2] = ["a", "b"]
         mm: %y = MatMul(%x, %w) {alpha=1.5, axes=[0,1], mode="x", t=int64[1] [3]} @dnnl
         mm2: %y2: seq(float32[*]) = MatMul(%y, %w2) ^mm
         return %y2
       })",
    R"(graph outer(%c: bool[], %v: float32[3]) {
         if: %o = If(%c)
           then_branch = graph t() { id: %r = Identity(%v)  return %r }
           else_branch = graph e() { neg: %q = Neg(%v)  return %q }
         return %o
       })",
};

void WriteSeeds(const char* dir) {
  int index = 0;
  for (const char* text : kSeedModels) {
    auto m = ge::ir::ParseModelText(text);
    if (!m.ok()) {
      std::fprintf(stderr, "seed %d: %s\n", index, m.status().ToString().c_str());
      std::exit(1);
    }
    ge::om::OmWriteOptions o;
    o.model_name = "seed" + std::to_string(index);
    o.isa_features = 0;
    const std::string path = std::string(dir) + "/seed" + std::to_string(index++) + ".om";
    ge::Status s = ge::om::WriteIrOmFile(**m, o, path, /*inline_below=*/8);
    if (!s.ok()) {
      std::fprintf(stderr, "%s: %s\n", path.c_str(), s.ToString().c_str());
      std::exit(1);
    }
  }
  std::exit(0);
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  if (const char* dir = std::getenv("GE_OM_FUZZ_WRITE_SEEDS")) WriteSeeds(dir);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  ge::om::VerifyOptions strict;
  ge::om::OmVerifier(strict).Verify(data, size).status().IgnoreError();
  ge::om::VerifyOptions lax;
  lax.check_checksum = false;
  auto reader = ge::om::OmReader::FromMemory(data, size, nullptr, lax);
  if (!reader.ok()) return 0;
  auto model = ge::om::ReadIrOm(**reader);
  if (!model.ok() || !(*model)->graph) return 0;
  ge::ir::DumpOptions dump;
  dump.max_tensor_elements = 16;
  (void)ge::ir::DumpModelText(**model, dump);
  (*model)->graph->Validate().IgnoreError();
  return 0;
}
