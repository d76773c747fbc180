// libFuzzer target: the external-weight-file reader. The input is a FileConstant's attributes followed by the
// weight file's bytes:
//   u8 dtype, u8 rank (<= 6), rank x i16 dims, i32 offset, i32 length (-1: attribute absent), u8 flags
//   (bit 0: a crc32c attribute, bit 1: no file_path), u32 crc32c, then the file.
// ReadFileConstantRef must accept or reject the attributes with a Status, and WeightFile::Read the range (bounds,
// size, checksum, bool bytes) likewise; an accepted tensor is read end to end. GE_WF_FUZZ_WRITE_SEEDS=DIR writes a
// few valid inputs there and exits.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "om/checksum.h"
#include "om/weight_file.h"

namespace {

struct Reader {
  const uint8_t* p;
  size_t n;
  template <typename T>
  T Get() {
    T v{};
    for (size_t i = 0; i < sizeof(T) && n > 0; ++i, ++p, --n) v = static_cast<T>(v | static_cast<T>(*p) << (8 * i));
    return v;
  }
};

void Put(std::vector<uint8_t>* out, uint64_t v, size_t bytes) {
  for (size_t i = 0; i < bytes; ++i) out->push_back(static_cast<uint8_t>(v >> (8 * i)));
}

// A valid input: a dtype[dims] tensor at |offset| of a |file_size|-byte file with its checksum.
std::vector<uint8_t> Seed(ge::DataType dtype, const std::vector<int16_t>& dims, uint32_t offset, uint32_t file_size) {
  std::vector<uint8_t> file(file_size);
  for (uint32_t i = 0; i < file_size; ++i) file[i] = dtype == ge::DataType::kBool ? i % 2 : static_cast<uint8_t>(i * 13);
  uint64_t numel = 1;
  for (int16_t d : dims) numel *= static_cast<uint64_t>(d);
  const uint32_t length = static_cast<uint32_t>(numel * ge::DataTypeSize(dtype));
  std::vector<uint8_t> in;
  Put(&in, static_cast<uint64_t>(dtype), 1);
  Put(&in, dims.size(), 1);
  for (int16_t d : dims) Put(&in, static_cast<uint16_t>(d), 2);
  Put(&in, offset, 4);
  Put(&in, length, 4);
  Put(&in, 1, 1);
  Put(&in, ge::om::Crc32c(0, file.data() + offset, length), 4);
  in.insert(in.end(), file.begin(), file.end());
  return in;
}

void WriteSeeds(const char* dir) {
  const std::vector<std::vector<uint8_t>> seeds = {
      Seed(ge::DataType::kFloat, {4, 8}, 0, 128),
      Seed(ge::DataType::kFloat, {3, 3}, 512, 1024),
      Seed(ge::DataType::kUint8, {100}, 7, 200),
      Seed(ge::DataType::kBool, {16}, 0, 16),
      Seed(ge::DataType::kDouble, {}, 64, 72),
  };
  for (size_t i = 0; i < seeds.size(); ++i) {
    const std::string path = std::string(dir) + "/seed" + std::to_string(i) + ".bin";
    FILE* f = std::fopen(path.c_str(), "wb");
    if (f == nullptr || std::fwrite(seeds[i].data(), 1, seeds[i].size(), f) != seeds[i].size()) {
      std::fprintf(stderr, "cannot write %s\n", path.c_str());
      std::exit(1);
    }
    std::fclose(f);
  }
  std::exit(0);
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  if (const char* dir = std::getenv("GE_WF_FUZZ_WRITE_SEEDS")) WriteSeeds(dir);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Reader r{data, size};
  const int64_t dtype = r.Get<uint8_t>();
  const size_t rank = r.Get<uint8_t>() % 7;
  std::vector<int64_t> dims;
  for (size_t i = 0; i < rank; ++i) dims.push_back(r.Get<int16_t>());
  const int32_t offset = r.Get<int32_t>();
  const int32_t length = r.Get<int32_t>();
  const uint8_t flags = r.Get<uint8_t>();
  const uint32_t crc = r.Get<uint32_t>();

  ge::ir::Graph g;
  ge::ir::Value* out = g.AddValue("w");
  ge::ir::Node* n = g.AddNode("FileConstant", "fc", {}, {out}, "ge");
  ge::ir::AttrMap& a = n->attrs();
  a.Set(ge::om::kFileConstantDtypeAttr, ge::ir::AttrValue::Int(dtype));
  a.Set(ge::om::kFileConstantShapeAttr, ge::ir::AttrValue::Ints(dims));
  if ((flags & 2) == 0) a.Set(ge::om::kFileConstantPathAttr, ge::ir::AttrValue::String("fuzz.bin"));
  a.Set(ge::om::kFileConstantOffsetAttr, ge::ir::AttrValue::Int(offset));
  if (length != -1) a.Set(ge::om::kFileConstantLengthAttr, ge::ir::AttrValue::Int(length));
  if (flags & 1) a.Set(ge::om::kFileConstantCrcAttr, ge::ir::AttrValue::Int(crc));

  auto ref = ge::om::ReadFileConstantRef(*n);
  if (!ref.ok()) return 0;
  auto file = ge::om::WeightFile::FromMemory("fuzz.bin", std::vector<uint8_t>(r.p, r.p + r.n));
  auto t = file->Read(*ref, "FileConstant 'fc'");
  if (!t.ok()) return 0;
  // Every byte of an accepted tensor is inside the file.
  const auto* bytes = static_cast<const uint8_t*>(t->raw_data());
  volatile uint8_t sink = 0;
  for (size_t i = 0; i < t->nbytes(); ++i) sink = static_cast<uint8_t>(sink ^ bytes[i]);
  (void)sink;
  (void)file->Read(*ref, "again").ok();
  return 0;
}
