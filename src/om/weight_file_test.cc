// External weight files: FileConstant attributes, reading a range (bounds, checksum, alignment), the process-wide
// mapping cache and the writer's two layouts.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>

#include "om/checksum.h"
#include "om/weight_file.h"
#include "om/weight_file_cache.h"
#include "om/weight_file_writer.h"

namespace ge::om {
namespace {

namespace fs = std::filesystem;

class WeightFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = ::testing::TempDir() + "ge_weight_file_XXXXXX";
    ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string WriteFile(const std::string& name, const std::vector<uint8_t>& bytes) {
    const std::string path = dir_ + "/" + name;
    std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), bytes.size());
    return path;
  }

  std::string dir_;
};

std::vector<uint8_t> Bytes(size_t n, uint8_t seed) {
  std::vector<uint8_t> b(n);
  for (size_t i = 0; i < n; ++i) b[i] = static_cast<uint8_t>(seed + i * 7);
  return b;
}

Tensor FloatTensor(const Dims& dims, float start) {
  Tensor t = Tensor::Create(DataType::kFloat, dims).value();
  for (int64_t i = 0; i < t.numel(); ++i) t.data<float>()[i] = start + static_cast<float>(i);
  return t;
}

FileConstantRef Ref(DataType dtype, Dims dims, uint64_t offset, uint64_t length) {
  FileConstantRef r;
  r.dtype = dtype;
  r.dims = std::move(dims);
  r.file_path = "w.bin";
  r.offset = offset;
  r.length = length;
  return r;
}

// A FileConstant's crc32c attribute holds a 32-bit unsigned value: 0 and 0xFFFFFFFF read back, -1 and 2^32 are refused.
TEST_F(WeightFileTest, CrcAttributeOutside32BitsUnsignedIsRefused) {
  ir::Graph g;
  ir::Node* n = g.AddNode("FileConstant", "fc", {}, {g.AddValue("w")}, "ge");
  WriteFileConstantRef(Ref(DataType::kFloat, {2, 3}, 512, 24), &n->attrs());
  for (const int64_t crc : {int64_t{0}, int64_t{0xFFFFFFFF}, int64_t{-1}, int64_t{1} << 32}) {
    n->attrs().Set(kFileConstantCrcAttr, ir::AttrValue::Int(crc));
    auto back = ReadFileConstantRef(*n);
    if (crc >= 0 && crc <= 0xFFFFFFFF) {
      ASSERT_TRUE(back.ok()) << crc << ": " << back.status().ToString();
      EXPECT_EQ(back->crc32c, static_cast<uint32_t>(crc));
      continue;
    }
    ASSERT_FALSE(back.ok()) << crc << " accepted";
    EXPECT_NE(back.status().message().find("crc32c is not a 32-bit unsigned int"), std::string::npos)
        << back.status().message();
  }
}

TEST_F(WeightFileTest, AttributesRoundTripAndAreChecked) {
  ir::Graph g;
  ir::Value* out = g.AddValue("w");
  ir::Node* n = g.AddNode("FileConstant", "fc", {}, {out}, "ge");
  FileConstantRef ref = Ref(DataType::kFloat, {2, 3}, 512, 24);
  ref.crc32c = 0xDEADBEEF;
  WriteFileConstantRef(ref, &n->attrs());
  auto back = ReadFileConstantRef(*n);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(back->dims, (Dims{2, 3}));
  EXPECT_EQ(back->offset, 512u);
  EXPECT_EQ(back->length, 24u);
  EXPECT_EQ(back->crc32c, 0xDEADBEEFu);

  n->attrs().Set(kFileConstantLengthAttr, ir::AttrValue::Int(20));
  auto bad_length = ReadFileConstantRef(*n);
  ASSERT_FALSE(bad_length.ok());
  EXPECT_NE(bad_length.status().message().find("length 20 does not match"), std::string::npos);
  EXPECT_NE(bad_length.status().message().find("'fc'"), std::string::npos);
  n->attrs().Set(kFileConstantLengthAttr, ir::AttrValue::Int(24));
  n->attrs().Set(kFileConstantOffsetAttr, ir::AttrValue::Int(-1));
  EXPECT_FALSE(ReadFileConstantRef(*n).ok());
  n->attrs().Set(kFileConstantOffsetAttr, ir::AttrValue::Int(0));
  n->attrs().Set(kFileConstantShapeAttr, ir::AttrValue::Ints({-2, 3}));
  EXPECT_FALSE(ReadFileConstantRef(*n).ok());
  n->attrs().Set(kFileConstantShapeAttr, ir::AttrValue::Ints({2, 3}));
  n->attrs().Set(kFileConstantDtypeAttr, ir::AttrValue::Int(8));  // string
  EXPECT_FALSE(ReadFileConstantRef(*n).ok());
  n->attrs().Set(kFileConstantDtypeAttr, ir::AttrValue::Int(static_cast<int64_t>(DataType::kFloat)));
  n->attrs().Erase(kFileConstantPathAttr);
  n->attrs().Set("file_id", ir::AttrValue::String("vb0"));
  auto by_id = ReadFileConstantRef(*n);  // resolved later through ge.exec.value_bins
  ASSERT_TRUE(by_id.ok()) << by_id.status().ToString();
  EXPECT_EQ(by_id->file_id, "vb0");
  EXPECT_TRUE(by_id->file_path.empty());
  ir::AttrMap written;
  WriteFileConstantRef(*by_id, &written);
  EXPECT_FALSE(written.Has(kFileConstantPathAttr));
  EXPECT_EQ(written.GetString(kFileConstantIdAttr, ""), "vb0");
  n->attrs().Erase("file_id");
  auto neither = ReadFileConstantRef(*n);
  ASSERT_FALSE(neither.ok());
  EXPECT_NE(neither.status().message().find("file_id"), std::string::npos);
}

TEST_F(WeightFileTest, ReadBorrowsAlignedBytesAndChecksRangeAndChecksum) {
  std::vector<uint8_t> bytes = Bytes(2048, 3);
  auto file = WeightFile::FromMemory("mem.bin", bytes);
  FileConstantRef ref = Ref(DataType::kFloat, {4, 8}, 512, 128);
  ref.crc32c = Crc32c(0, bytes.data() + 512, 128);
  auto t = file->Read(ref, "FileConstant 'w'");
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  EXPECT_EQ(t->raw_data(), file->data() + 512);  // borrowed, not copied
  EXPECT_EQ(file->verified_ranges(), 1u);
  ASSERT_TRUE(file->Read(ref, "again").ok());
  EXPECT_EQ(file->verified_ranges(), 1u);  // each range verified once

  FileConstantRef past = Ref(DataType::kFloat, {4, 8}, 1984, 128);
  auto truncated = file->Read(past, "FileConstant 'w'");
  ASSERT_FALSE(truncated.ok());
  EXPECT_EQ(truncated.status().code(), StatusCode::kDataLoss);
  EXPECT_NE(truncated.status().message().find("'mem.bin' has 2048 bytes"), std::string::npos);
  EXPECT_NE(truncated.status().message().find("truncated"), std::string::npos);

  FileConstantRef wrong = ref;
  wrong.crc32c = *ref.crc32c ^ 1;
  auto mismatch = file->Read(wrong, "FileConstant 'w'");
  ASSERT_FALSE(mismatch.ok());
  EXPECT_NE(mismatch.status().message().find("checksum"), std::string::npos);

  FileConstantRef size_mismatch = Ref(DataType::kFloat, {4, 8}, 0, 100);
  EXPECT_FALSE(file->Read(size_mismatch, "x").ok());

  FileConstantRef unaligned = Ref(DataType::kUint8, {16}, 3, 16);
  auto copy = file->Read(unaligned, "x");
  ASSERT_TRUE(copy.ok()) << copy.status().ToString();
  EXPECT_NE(copy->raw_data(), file->data() + 3);
  EXPECT_EQ(std::memcmp(copy->raw_data(), bytes.data() + 3, 16), 0);

  FileConstantRef flags = Ref(DataType::kBool, {16}, 0, 16);
  auto bad_flags = file->Read(flags, "x");  // bytes other than 0/1
  ASSERT_FALSE(bad_flags.ok());
  EXPECT_NE(bad_flags.status().message().find("other than 0/1"), std::string::npos);

  // A bool tensor of 0s and 1s reads back as is.
  std::vector<uint8_t> bools = {0, 1, 1, 0, 0, 0, 1, 1};
  auto bool_file = WeightFile::FromMemory("bools.bin", bools);
  auto good_flags = bool_file->Read(Ref(DataType::kBool, {8}, 0, 8), "FileConstant 'mask'");
  ASSERT_TRUE(good_flags.ok()) << good_flags.status().ToString();
  EXPECT_EQ(std::memcmp(good_flags->raw_data(), bools.data(), bools.size()), 0);
}

TEST_F(WeightFileTest, CacheSharesOneMappingPerFileAndRemapsAChangedFile) {
  const std::string path = WriteFile("w.bin", Bytes(4096, 1));
  WeightFileCache& cache = WeightFileCache::Global();
  const size_t before = cache.live_files();
  auto a = cache.Open(path);
  auto b = cache.Open(dir_ + "/./w.bin");
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(a->get(), b->get());
  EXPECT_EQ(cache.live_files(), before + 1);

  // ge compile replaces a file by renaming a new one over it: a new inode, so a new mapping; the old one lives on.
  const std::string fresh = WriteFile("w.bin.new", Bytes(4096, 2));
  fs::rename(fresh, path);
  auto c = cache.Open(path);
  ASSERT_TRUE(c.ok());
  EXPECT_NE(c->get(), a->get());
  EXPECT_EQ((*a)->data()[0], 1);
  EXPECT_EQ((*c)->data()[0], 2);

  a->reset();
  b->reset();
  c->reset();
  EXPECT_EQ(cache.live_files(), before);

  auto missing = cache.Open(dir_ + "/nope.bin");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().code(), StatusCode::kNotFound);
  EXPECT_NE(missing.status().message().find("nope.bin"), std::string::npos);
  auto directory = cache.Open(dir_);
  ASSERT_FALSE(directory.ok());
  EXPECT_NE(directory.status().message().find("not a regular file"), std::string::npos);

  auto empty = cache.Open(WriteFile("empty.bin", {}));
  ASSERT_TRUE(empty.ok());
  EXPECT_EQ((*empty)->size(), 0u);
  EXPECT_FALSE((*empty)->Read(Ref(DataType::kFloat, {1}, 0, 4), "x").ok());
}

TEST_F(WeightFileTest, CombinedFileAlignsAndDeduplicates) {
  auto w = WeightFileWriter::Create(dir_, WeightFileWriter::Mode::kCombined, "m_weight_combined").value();
  Tensor t1 = FloatTensor({10}, 0), t2 = FloatTensor({33}, 5), t1_again = FloatTensor({10}, 0);
  auto p1 = w->Add(t1).value();
  auto p2 = w->Add(t2).value();
  auto p3 = w->Add(t1_again).value();
  EXPECT_EQ(p1.offset, 0u);
  EXPECT_EQ(p2.offset, 512u);
  EXPECT_EQ(p3.offset, p1.offset);
  EXPECT_EQ(p1.file, "m_weight_combined");
  EXPECT_EQ(w->bytes_deduplicated(), 40u);
  EXPECT_FALSE(fs::exists(dir_ + "/m_weight_combined"));  // renamed into place by Finish
  ASSERT_TRUE(w->Finish().ok());
  EXPECT_EQ(fs::file_size(dir_ + "/m_weight_combined"), 512u + 132u);
  auto file = WeightFileCache::Global().Open(dir_ + "/m_weight_combined").value();
  FileConstantRef r = Ref(DataType::kFloat, {33}, p2.offset, 132);
  r.crc32c = p2.crc32c;
  Tensor back = file->Read(r, "t2").value();
  EXPECT_EQ(std::memcmp(back.raw_data(), t2.raw_data(), 132), 0);
  EXPECT_EQ(w->files(), std::vector<std::string>{"m_weight_combined"});

  // An unfinished writer leaves nothing behind.
  {
    auto gone = WeightFileWriter::Create(dir_, WeightFileWriter::Mode::kCombined, "unfinished").value();
    ASSERT_TRUE(gone->Add(t1).ok());
  }
  for (const auto& e : fs::directory_iterator(dir_)) {
    EXPECT_EQ(e.path().filename().string().find("unfinished"), std::string::npos) << e.path();
  }
}

TEST_F(WeightFileTest, PerTensorFilesAreSharedByContentAndNeverOverwritten) {
  Tensor t1 = FloatTensor({16}, 0), t2 = FloatTensor({16}, 100);
  std::string name1;
  {
    auto w = WeightFileWriter::Create(dir_, WeightFileWriter::Mode::kPerTensor).value();
    auto p1 = w->Add(t1).value();
    auto p2 = w->Add(t2).value();
    auto p3 = w->Add(FloatTensor({16}, 0)).value();
    EXPECT_EQ(p1.file, p3.file);
    EXPECT_NE(p1.file, p2.file);
    EXPECT_EQ(p1.offset, 0u);
    EXPECT_EQ(p1.file.rfind("weight_", 0), 0u);
    EXPECT_NE(p1.file.find("_64"), std::string::npos);  // weight_<crc>_<bytes>
    ASSERT_TRUE(w->Finish().ok());
    EXPECT_EQ(w->files().size(), 2u);
    name1 = p1.file;
  }
  // A second compilation into the directory reuses the file holding the same bytes ...
  auto again = WeightFileWriter::Create(dir_, WeightFileWriter::Mode::kPerTensor).value();
  EXPECT_EQ(again->Add(t1).value().file, name1);
  // ... and does not overwrite one of the same name holding other bytes.
  std::vector<uint8_t> other(64, 0xAB);
  WriteFile(name1, other);
  auto next = again->Add(FloatTensor({16}, 0));
  ASSERT_TRUE(next.ok());  // deduplicated in memory against the first Add
  auto third = WeightFileWriter::Create(dir_, WeightFileWriter::Mode::kPerTensor).value();
  const std::string renamed = third->Add(t1).value().file;
  EXPECT_EQ(renamed, name1 + "_1");
  EXPECT_EQ(fs::file_size(dir_ + "/" + name1), 64u);
  std::ifstream f(dir_ + "/" + name1, std::ios::binary);
  EXPECT_EQ(f.get(), 0xAB);
}

TEST_F(WeightFileTest, WriterErrorsNameTheFile) {
  auto w = WeightFileWriter::Create(dir_ + "/no/such/dir", WeightFileWriter::Mode::kCombined, "c");
  ASSERT_FALSE(w.ok());
  EXPECT_NE(w.status().message().find("no/such/dir/c"), std::string::npos);
  EXPECT_FALSE(WeightFileWriter::Create(dir_, WeightFileWriter::Mode::kCombined, "a/b").ok());
}

}  // namespace
}  // namespace ge::om
