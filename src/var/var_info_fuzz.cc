// libFuzzer target: arbitrary bytes as VAR_INFO, restored into a session with 1 MiB of variable memory (so no
// input can make it allocate more); every restored variable's device memory is then asked for. Each step must
// succeed or fail with a Status. GE_VAR_FUZZ_WRITE_SEEDS=DIR writes a few valid VAR_INFO images there and exits.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

#include "rt/device.h"
#include "var/var_info.h"

namespace {

constexpr uint64_t kBudget = uint64_t{32} << 20;  // 5/32 of it = 5 MiB of variables

ge::rt::Device& FuzzDevice() {
  static ge::rt::Device* device = ge::rt::CreateDefaultDevice().value().release();  // lives for the process
  return *device;
}

void WriteSeeds(const char* dir) {
  ge::var::VarManager vm(1, &FuzzDevice());
  if (!vm.Init({0, kBudget}).ok()) std::exit(1);
  int index = 0;
  for (int n : {1, 3, 8}) {
    ge::var::VarRequest r;
    r.name = "v" + std::to_string(n);
    r.desc = ge::TensorDesc(ge::DataType::kFloat, ge::Shape({n, 4}));
    if (!vm.AssignVarMem(r).ok()) std::exit(1);
    if (n == 3) {
      ge::TensorDesc nhwc(ge::DataType::kFloat, ge::Shape({1, 4, 3, 1}));
      nhwc.format = ge::Format::kNHWC;
      r.desc = nhwc;
      if (!vm.AssignVarMem(r).ok() || !vm.SetTransRoad(r.name, {{"TransData", nhwc, nhwc}}).ok()) std::exit(1);
    }
    auto bytes = ge::var::SerializeVarInfo(vm);
    if (!bytes.ok()) std::exit(1);
    std::ofstream(std::string(dir) + "/seed" + std::to_string(index++) + ".varinfo", std::ios::binary) << *bytes;
  }
  std::exit(0);
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  if (const char* dir = std::getenv("GE_VAR_FUZZ_WRITE_SEEDS")) WriteSeeds(dir);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  ge::var::VarManager vm(2, &FuzzDevice());
  if (!vm.Init({0, kBudget}).ok()) return 0;
  if (!ge::var::RestoreVarInfo(data, size, &vm).ok()) return 0;
  for (const auto& [key, addr] : vm.resource().var_addr_mgr_map) {
    (void)vm.GetVarMemoryAddr(addr.logical, addr.mem_type).status().IgnoreError();
  }
  (void)ge::var::SerializeVarInfo(vm).status().IgnoreError();
  return 0;
}
