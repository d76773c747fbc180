// libFuzzer target: arbitrary bytes as a checkpoint file, as they are and again with their checksum made right
// (so mutations reach the checks behind it). ParseCheckpoint must succeed or fail with a Status; a checkpoint it
// accepts must serialize again into bytes that parse, and restore into a session with 5 MiB of variable memory (so
// no input can make it allocate more) or fail with a Status. GE_CKPT_FUZZ_WRITE_SEEDS=DIR writes a few valid
// checkpoints there and exits.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <string>

#include "om/checksum.h"
#include "om/om_format.h"
#include "rt/device.h"
#include "var/checkpoint.h"

namespace {

constexpr uint64_t kBudget = uint64_t{32} << 20;  // 5/32 of it = 5 MiB of variables

ge::rt::Device& FuzzDevice() {
  static ge::rt::Device* device = ge::rt::CreateDefaultDevice().value().release();  // lives for the process
  return *device;
}

ge::var::CheckpointVariable Variable(const std::string& name, ge::DataType dt, ge::Dims dims,
                                     ge::Format format = ge::Format::kND) {
  ge::var::CheckpointVariable v;
  v.name = name;
  v.desc = ge::TensorDesc(dt, ge::Shape(dims));
  v.desc.format = format;
  v.value = ge::Tensor::Create(dt, ge::var::CheckpointValueDims(v.desc).value()).value();
  auto* bytes = static_cast<uint8_t*>(v.value.raw_data());
  for (size_t i = 0; i < v.value.nbytes(); ++i) bytes[i] = static_cast<uint8_t>(i * 37 + 11);
  return v;
}

void WriteSeeds(const char* dir) {
  using ge::DataType;
  ge::var::Checkpoint empty;
  ge::var::Checkpoint small;
  small.variables = {Variable("w", DataType::kFloat, {3, 4}), Variable("step", DataType::kInt64, {})};
  ge::var::Checkpoint mixed;
  mixed.variables = {Variable("mask", DataType::kBool, {5}), Variable("h", DataType::kFloat16, {2, 3}),
                     Variable("conv", DataType::kFloat, {1, 3, 2, 2}, ge::Format::kNC1HWC0),
                     Variable("none", DataType::kInt32, {0, 4})};
  ge::var::VarManager vm(1, &FuzzDevice());
  if (!vm.Init({0, kBudget}).ok() || !ge::var::RestoreVariables(small, &vm, &FuzzDevice()).ok()) std::exit(1);
  auto saved = ge::var::SaveVariables(&vm, &FuzzDevice());  // with VAR_INFO
  if (!saved.ok()) std::exit(1);
  int index = 0;
  for (const ge::var::Checkpoint* c : {&empty, &small, &mixed, &*saved}) {
    auto bytes = ge::var::SerializeCheckpoint(*c);
    if (!bytes.ok()) std::exit(1);
    std::ofstream(std::string(dir) + "/seed" + std::to_string(index++) + ".ckpt", std::ios::binary) << *bytes;
  }
  std::exit(0);
}

void ParseAndRestore(const uint8_t* data, size_t size) {
  auto parsed = ge::var::ParseCheckpoint(data, size);
  if (!parsed.ok()) return;
  auto again = ge::var::SerializeCheckpoint(*parsed);
  if (!again.ok() || !ge::var::ParseCheckpoint(again->data(), again->size()).ok()) std::abort();
  ge::var::VarManager vm(2, &FuzzDevice());
  if (!vm.Init({0, kBudget}).ok()) return;
  (void)ge::var::RestoreVariables(*parsed, &vm, &FuzzDevice()).IgnoreError();
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  if (const char* dir = std::getenv("GE_CKPT_FUZZ_WRITE_SEEDS")) WriteSeeds(dir);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  ParseAndRestore(data, size);
  if (size < ge::var::kCheckpointHeaderSize) return 0;
  std::string sealed(reinterpret_cast<const char*>(data), size);
  auto* p = reinterpret_cast<uint8_t*>(sealed.data());
  ge::om::StoreU32(p + ge::var::kCkptOffChecksum, 0);
  ge::om::StoreU32(p + ge::var::kCkptOffChecksum, ge::om::Crc32c(0, p, size));
  ParseAndRestore(p, size);
  return 0;
}
