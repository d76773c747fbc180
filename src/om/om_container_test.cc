#include <gtest/gtest.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>

#include "ir/dump.h"
#include "om/checksum.h"
#include "om/om_format.h"
#include "om/om_test_util.h"
#include "om/weights.h"

namespace ge::om {
namespace {

using testing::SampleImage;
using testing::SampleModel;
using testing::TempPath;

TEST(Crc32c, KnownVectors) {
  EXPECT_EQ(Crc32c(0, "123456789", 9), 0xE3069283u);
  EXPECT_EQ(Crc32c(Crc32c(0, "1234", 4), "56789", 5), 0xE3069283u);
  EXPECT_EQ(Crc32c(0, nullptr, 0), 0u);
}

// Long buffers run as interleaved chains joined by a shift (checksum.cc): every length around the stripe
// boundaries, any start offset and any continuation equal the bitwise definition.
TEST(Crc32c, LongBuffersEqualTheBitwiseDefinition) {
  auto bitwise = [](uint32_t crc, const uint8_t* p, size_t n) {
    uint32_t c = ~crc;
    for (size_t i = 0; i < n; ++i) {
      c ^= p[i];
      for (int k = 0; k < 8; ++k) c = (c & 1) ? (c >> 1) ^ 0x82F63B78u : c >> 1;
    }
    return ~c;
  };
  std::vector<uint8_t> data(3 * 4096 * 3 + 123);
  uint32_t x = 12345;
  for (uint8_t& b : data) {
    x = x * 1103515245u + 12345u;
    b = static_cast<uint8_t>(x >> 16);
  }
  for (size_t n : {size_t{0}, size_t{7}, size_t{3 * 4096 - 1}, size_t{3 * 4096}, size_t{3 * 4096 + 1},
                   size_t{3 * 4096 + 8}, size_t{2 * 3 * 4096 + 5}, data.size() - 1}) {
    for (size_t offset : {size_t{0}, size_t{1}}) {
      if (offset + n > data.size()) continue;
      EXPECT_EQ(Crc32c(0, data.data() + offset, n), bitwise(0, data.data() + offset, n)) << n << " at " << offset;
      EXPECT_EQ(Crc32c(0xDEADBEEFu, data.data() + offset, n), bitwise(0xDEADBEEFu, data.data() + offset, n)) << n;
    }
  }
}

TEST(Isa, NamesAndChecks) {
  EXPECT_EQ(IsaFeatureNames(kIsaAvx2 | kIsaAvx512F), "AVX2, AVX-512F");
  EXPECT_EQ(IsaFeatureNames(uint64_t{1} << 40), "bit 40");
  EXPECT_TRUE(CheckIsa(kIsaAvx2, kIsaAvx2 | kIsaFma).ok());
  Status s = CheckIsa(kIsaAvx512F | kIsaAvx2, kIsaAvx2);
  EXPECT_NE(s.message().find("compiled for a CPU with AVX-512F, this CPU lacks it"), std::string::npos) << s.message();
  EXPECT_EQ(HostIsa().features & ~kIsaKnownMask, 0u);
}

TEST(WeightsWriter, AlignsAndDeduplicates) {
  WeightsWriter w;
  std::vector<uint8_t> a(100, 1), b(700, 2), a2(100, 1), c(100, 3);
  WeightRef ra = w.Add(a.data(), a.size());
  WeightRef rb = w.Add(b.data(), b.size());
  WeightRef ra2 = w.Add(a2.data(), a2.size());
  WeightRef rc = w.Add(c.data(), c.size());
  EXPECT_EQ(ra.offset, 0u);
  EXPECT_EQ(rb.offset, 512u);
  EXPECT_EQ(ra2.offset, ra.offset);
  EXPECT_EQ(rc.offset, 1536u);
  for (const WeightRef& r : {ra, rb, ra2, rc}) EXPECT_EQ(r.offset % kOmWeightAlignment, 0u);
  EXPECT_EQ(w.bytes().size(), 1636u);
  EXPECT_EQ(w.bytes_saved_by_dedup(), 100u);
  EXPECT_EQ(std::memcmp(w.bytes().data() + rb.offset, b.data(), b.size()), 0);
}

// A write that fails part way (here the file-size limit: EFBIG) is ResourceExhausted naming the path and the cause,
// and leaves neither the .om nor its temporary file: never a truncated model that loads later.
TEST(OmWriter, FailedWriteIsResourceExhaustedAndLeavesNoFile) {
  char dir_template[] = "/tmp/ge_om_XXXXXX";
  ASSERT_NE(::mkdtemp(dir_template), nullptr);
  const std::string dir = dir_template, path = dir + "/big.om";
  OmWriter w{OmWriteOptions{}};
  ASSERT_TRUE(w.AddPartition(PartitionType::kModelDef, std::string("model-def")).ok());
  ASSERT_TRUE(w.AddPartition(PartitionType::kWeightsData, std::vector<uint8_t>(64 * 1024, 7)).ok());
  rlimit saved{};
  ASSERT_EQ(::getrlimit(RLIMIT_FSIZE, &saved), 0);
  rlimit low = saved;
  low.rlim_cur = 8192;
  ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &low), 0);
  void (*saved_handler)(int) = std::signal(SIGXFSZ, SIG_IGN);
  const Status s = w.WriteToFile(path);
  std::signal(SIGXFSZ, saved_handler);
  ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &saved), 0);
  EXPECT_EQ(s.code(), StatusCode::kResourceExhausted) << s.ToString();
  EXPECT_NE(s.message().find(path), std::string::npos) << s.message();
  EXPECT_NE(s.message().find(std::strerror(EFBIG)), std::string::npos) << s.message();
  EXPECT_EQ(::rmdir(dir.c_str()), 0) << "files left in " << dir;  // fails unless the directory is empty
}

TEST(OmWriter, LayoutAndHeader) {
  OmWriteOptions o;
  o.model_name = std::string(100, 'n');
  o.model_type = OmModelType::kStandard;
  o.dynamic = true;
  o.isa_features = kIsaAvx2;
  OmWriter w(o);
  ASSERT_TRUE(w.AddPartition(PartitionType::kModelDef, std::string("model-def")).ok());
  ASSERT_TRUE(w.AddPartition(PartitionType::kWeightsData, std::vector<uint8_t>(5000, 7)).ok());
  const std::string tasks = "tasks!";
  ASSERT_TRUE(w.AddPartitionView(PartitionType::kTaskInfo, tasks.data(), tasks.size()).ok());
  EXPECT_FALSE(w.AddPartition(PartitionType::kModelDef, std::string("again")).ok());
  EXPECT_FALSE(w.AddPartition(static_cast<PartitionType>(9), std::string("x")).ok());
  auto img = w.WriteToMemory();
  ASSERT_TRUE(img.ok());
  VerifyOptions vo;
  vo.available_isa = kIsaAvx2;
  auto r = OmReader::FromMemory(img->data(), img->size(), nullptr, vo);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const OmHeader& h = (*r)->header();
  EXPECT_EQ(h.name, std::string(kOmNameSize - 1, 'n'));
  EXPECT_EQ(h.model_type, OmModelType::kStandard);
  EXPECT_TRUE(h.dynamic);
  EXPECT_EQ(h.isa.features, kIsaAvx2);
  EXPECT_EQ(h.isa.vendor, HostIsa().vendor);
  ASSERT_EQ(h.partitions.size(), 3u);
  EXPECT_EQ(h.partitions[0].offset, kOmHeaderSize + 3 * kOmPartitionEntrySize);  // 328
  EXPECT_EQ(h.partitions[1].offset, 4096u);
  EXPECT_EQ(h.partitions[2].offset, 4096u + 5000u);
  EXPECT_EQ(h.total_length, img->size());
  ByteSpan def = (*r)->partition(PartitionType::kModelDef);
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(def.data), def.size), "model-def");
  ByteSpan t = (*r)->partition(PartitionType::kTaskInfo);
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(t.data), t.size), tasks);
  EXPECT_EQ(t.data, img->data() + h.partitions[2].offset);  // a span, not a copy
  EXPECT_TRUE((*r)->partition(PartitionType::kVarInfo).empty());
  EXPECT_FALSE((*r)->mapped());
}

TEST(OmWriter, EmptyModel) {
  auto img = OmWriter(OmWriteOptions()).WriteToMemory();
  ASSERT_TRUE(img.ok());
  EXPECT_EQ(img->size(), kOmHeaderSize);
  EXPECT_TRUE(OmReader::FromMemory(img->data(), img->size()).ok());
}

TEST(OmReader, FileIsMappedAndWeightsAreBorrowed) {
  auto m = SampleModel();
  const std::string path = TempPath("mapped.om");
  ASSERT_TRUE(WriteIrOmFile(*m, testing::SampleOptions(), path, 16).ok());
  std::unique_ptr<ir::Model> back;
  const uint8_t* image_begin = nullptr;
  size_t image_size = 0;
  {
    auto r = OmReader::Open(path);
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    EXPECT_TRUE((*r)->mapped());
    const PartitionInfo* wp = (*r)->header().Find(PartitionType::kWeightsData);
    ASSERT_NE(wp, nullptr);
    EXPECT_EQ(wp->offset % kOmWeightsAlignment, 0u);
    EXPECT_EQ(wp->size, 512u + 64u);  // w at 0, w2 at 512; b (8 bytes) inline
    image_begin = (*r)->image().data;
    image_size = (*r)->image().size;
    EXPECT_EQ(reinterpret_cast<uintptr_t>(image_begin) % 4096, 0u);
    auto mm = ReadIrOm(**r);
    ASSERT_TRUE(mm.ok()) << mm.status().ToString();
    back = std::move(mm).value();
  }
  ::unlink(path.c_str());
  // The reader is gone; the mapping lives on in the borrowed weights.
  const Tensor* w = back->graph->FindValue("w")->const_value();
  EXPECT_GE(static_cast<const uint8_t*>(w->raw_data()), image_begin);
  EXPECT_LT(static_cast<const uint8_t*>(w->raw_data()), image_begin + image_size);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(w->raw_data()) % 512, 0u);
  EXPECT_EQ(w->data<float>()[5], 1.25f);
  EXPECT_EQ(ir::DumpModelText(*back), ir::DumpModelText(*m));
}

TEST(OmReader, MemoryMatchesFile) {
  auto m = SampleModel();
  std::vector<uint8_t> img = SampleImage();
  const std::string path = TempPath("memory.om");
  ASSERT_TRUE(WriteIrOmFile(*m, testing::SampleOptions(), path, 16).ok());
  FILE* f = std::fopen(path.c_str(), "rb");
  ASSERT_NE(f, nullptr);
  std::vector<uint8_t> file(img.size() + 1);
  file.resize(std::fread(file.data(), 1, file.size(), f));
  std::fclose(f);
  ::unlink(path.c_str());
  EXPECT_EQ(file, img);

  // A 4096-aligned caller buffer: weights are borrowed from it and keep it alive.
  std::shared_ptr<uint8_t> aligned(static_cast<uint8_t*>(std::aligned_alloc(4096, AlignUp(img.size(), 4096))), std::free);
  std::memcpy(aligned.get(), img.data(), img.size());
  auto r = OmReader::FromMemory(aligned.get(), img.size(), aligned);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  auto a = ReadIrOm(**r);
  ASSERT_TRUE(a.ok());
  const void* wa = (*a)->graph->FindValue("w")->const_value()->raw_data();
  EXPECT_EQ(wa, aligned.get() + (*r)->header().Find(PartitionType::kWeightsData)->offset);
  EXPECT_EQ(ir::DumpModelText(**a), ir::DumpModelText(*m));

  // A misaligned buffer: weights are copied, the model is the same.
  std::vector<uint8_t> shifted(img.size() + 1);
  std::memcpy(shifted.data() + 1, img.data(), img.size());
  auto r2 = OmReader::FromMemory(shifted.data() + 1, img.size());
  ASSERT_TRUE(r2.ok());
  auto b = ReadIrOm(**r2);
  ASSERT_TRUE(b.ok()) << b.status().ToString();
  const uint8_t* wb = static_cast<const uint8_t*>((*b)->graph->FindValue("w")->const_value()->raw_data());
  EXPECT_TRUE(wb < shifted.data() || wb >= shifted.data() + shifted.size());
  EXPECT_EQ(ir::DumpModelText(**b), ir::DumpModelText(*m));
}

TEST(OmReader, OpenErrors) {
  auto missing = OmReader::Open(TempPath("does-not-exist.om"));
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().code(), StatusCode::kNotFound);
  auto dir = OmReader::Open("/tmp");
  ASSERT_FALSE(dir.ok());
  const std::string path = TempPath("short.om");
  FILE* f = std::fopen(path.c_str(), "wb");
  std::fwrite("GEOM", 1, 4, f);
  std::fclose(f);
  auto short_file = OmReader::Open(path);
  ::unlink(path.c_str());
  ASSERT_FALSE(short_file.ok());
  EXPECT_NE(short_file.status().message().find("truncated"), std::string::npos) << short_file.status().message();
}

TEST(OmReader, PeekModelTypeReadsOnlyTheHeader) {
  auto m = SampleModel();
  const std::string path = TempPath("peek.om");
  ASSERT_TRUE(WriteIrOmFile(*m, testing::SampleOptions(), path, 16).ok());
  auto opened = OmReader::Open(path);
  ASSERT_TRUE(opened.ok()) << opened.status().ToString();
  EXPECT_EQ(PeekOmModelType(path), (*opened)->header().model_type);
  // A damaged body (checksum mismatch) still has a readable model type: verification is Open's job.
  FILE* f = std::fopen(path.c_str(), "r+b");
  ASSERT_NE(f, nullptr);
  std::fseek(f, -1, SEEK_END);
  std::fputc(0x5A, f);
  std::fclose(f);
  EXPECT_FALSE(OmReader::Open(path).ok());
  EXPECT_EQ(PeekOmModelType(path), (*opened)->header().model_type);
  // Not an .om, too short, an unknown type, missing: nothing.
  f = std::fopen(path.c_str(), "wb");
  std::fwrite("GEOM", 1, 4, f);
  std::fclose(f);
  EXPECT_EQ(PeekOmModelType(path), std::nullopt);
  std::vector<uint8_t> img = SampleImage();
  img[kOffModelType] = 0x7F;
  f = std::fopen(path.c_str(), "wb");
  std::fwrite(img.data(), 1, img.size(), f);
  std::fclose(f);
  EXPECT_EQ(PeekOmModelType(path), std::nullopt);
  img[0] = 'X';
  img[kOffModelType] = 0;
  f = std::fopen(path.c_str(), "wb");
  std::fwrite(img.data(), 1, img.size(), f);
  std::fclose(f);
  EXPECT_EQ(PeekOmModelType(path), std::nullopt);
  ::unlink(path.c_str());
  EXPECT_EQ(PeekOmModelType(path), std::nullopt);
}

}  // namespace
}  // namespace ge::om
