#include <gtest/gtest.h>

#include <random>

#include "ir/dump.h"
#include "om/om_test_util.h"

namespace ge::om {
namespace {

using testing::Reseal;
using testing::SampleImage;

Status VerifyImage(const std::vector<uint8_t>& img, VerifyOptions o = {}) {
  return OmVerifier(o).Verify(img.data(), img.size()).status();
}

void ExpectError(const std::vector<uint8_t>& img, const std::string& needle, VerifyOptions o = {}) {
  Status s = VerifyImage(img, o);
  ASSERT_FALSE(s.ok()) << "accepted an image that should fail with: " << needle;
  EXPECT_NE(s.message().find(needle), std::string::npos) << s.message();
}

// Loads the IR from whatever the verifier accepts; must never crash.
void LoadAnything(const uint8_t* data, size_t size, const VerifyOptions& o) {
  auto r = OmReader::FromMemory(data, size, nullptr, o);
  if (!r.ok()) return;
  auto m = ReadIrOm(**r);
  if (m.ok() && (*m)->graph) ir::DumpModelText(**m, ir::DumpOptions{16});
}

TEST(OmVerifier, AcceptsValidImage) {
  std::vector<uint8_t> img = SampleImage();
  EXPECT_TRUE(VerifyImage(img).ok());
}

TEST(OmVerifier, EveryTruncationFails) {
  std::vector<uint8_t> img = SampleImage();
  for (size_t n = 0; n < img.size(); ++n) {
    Status s = OmVerifier().Verify(img.data(), n).status();
    ASSERT_FALSE(s.ok()) << "prefix of " << n << " bytes accepted";
    if (n >= kOmHeaderSize) {
      EXPECT_NE(s.message().find("truncated"), std::string::npos) << s.message();
    }
  }
  std::vector<uint8_t> longer = img;
  longer.push_back(0);
  ExpectError(longer, "but the header says");
}

TEST(OmVerifier, EveryFlippedByteFails) {
  std::vector<uint8_t> img = SampleImage();
  for (size_t i = 0; i < img.size(); ++i) {
    std::vector<uint8_t> bad = img;
    bad[i] ^= 0x20;
    ASSERT_FALSE(VerifyImage(bad).ok()) << "flip at byte " << i << " accepted";
    VerifyOptions lax;
    lax.check_checksum = false;
    LoadAnything(bad.data(), bad.size(), lax);
  }
  std::vector<uint8_t> bad = img;
  bad[img.size() - 1] ^= 1;
  ExpectError(bad, "checksum mismatch");
}

TEST(OmVerifier, Magic) {
  std::vector<uint8_t> img = SampleImage();
  img[0] = 'X';
  ExpectError(img, "not a ge .om file");
  ExpectError({}, "not a ge .om file");
}

TEST(OmVerifier, WrongVersion) {
  std::vector<uint8_t> img = SampleImage();
  StoreU32(img.data() + kOffVersion, 7);
  Reseal(&img);
  ExpectError(img, "ge .om format version 7, this ge reads 1");
  std::vector<uint8_t> head(img.begin(), img.begin() + 20);  // named even when truncated
  ExpectError(head, "format version 7");
}

TEST(OmVerifier, ForeignIsa) {
  std::vector<uint8_t> img = SampleImage();
  StoreU64(img.data() + kOffIsa, kIsaAvx2 | kIsaAvx512F);
  Reseal(&img);
  VerifyOptions o;
  o.available_isa = kIsaAvx2 | kIsaFma;
  ExpectError(img, "compiled for a CPU with AVX-512F, this CPU lacks it", o);
  o.check_isa = false;
  EXPECT_TRUE(VerifyImage(img, o).ok());
  StoreU64(img.data() + kOffIsa, uint64_t{1} << 50);
  Reseal(&img);
  ExpectError(img, "bit 50");
}

TEST(OmVerifier, HeaderFields) {
  struct Case {
    size_t offset;
    uint32_t value;
    const char* needle;
  };
  const Case cases[] = {
      {kOffHeaderSize, 512, "header size 512"},
      {kOffTotalLength, 1 << 30, "truncated .om file: the header says"},
      {kOffModelType, 9, "unknown model type 9"},
      {kOffFlags, 6, "unknown flags"},
      {kOffPartitionCount, 1000, "1000 partitions"},
      {kOffPartitionCount, 16, "outside the payload area"},
      {kOffReserved0, 1, "reserved bytes"},
      {kOffReserved1 + 60, 1, "reserved bytes"},
  };
  for (const Case& c : cases) {
    std::vector<uint8_t> img = SampleImage();
    StoreU32(img.data() + c.offset, c.value);
    Reseal(&img);
    ExpectError(img, c.needle);
  }
  std::vector<uint8_t> img = OmWriter(OmWriteOptions()).WriteToMemory().value();
  StoreU32(img.data() + kOffPartitionCount, 1);
  Reseal(&img);
  ExpectError(img, "truncated .om file: the partition table of 1 entries ends at byte 280, the file has 256");
  img = SampleImage();
  std::fill(img.begin() + kOffName, img.begin() + kOffName + kOmNameSize, 'a');
  Reseal(&img);
  ExpectError(img, "model name field is not terminated");
  img = SampleImage();
  img[kOffVendor + kOmVendorSize - 2] = 'x';
  img[kOffVendor] = 0;
  Reseal(&img);
  ExpectError(img, "cpu vendor field has bytes after its end");
}

TEST(OmVerifier, PartitionTable) {
  const size_t e0 = kOmHeaderSize, e1 = kOmHeaderSize + kOmPartitionEntrySize;  // MODEL_DEF, WEIGHTS_DATA
  auto edit = [](size_t at, uint64_t v, bool wide) {
    std::vector<uint8_t> img = SampleImage();
    if (wide) {
      StoreU64(img.data() + at, v);
    } else {
      StoreU32(img.data() + at, static_cast<uint32_t>(v));
    }
    Reseal(&img);
    return img;
  };
  ExpectError(edit(e0, 12, false), "unknown type 12");
  ExpectError(edit(e1, 0, false), "MODEL_DEF) appears twice");
  ExpectError(edit(e0 + 4, 1, false), "nonzero reserved");
  ExpectError(edit(e0 + 8, 16, true), "outside the payload area");
  ExpectError(edit(e0 + 16, ~uint64_t{0}, true), "outside the payload area");
  ExpectError(edit(e1 + 8, ~uint64_t{0} - 7, true), "outside the payload area");
  ExpectError(edit(e0 + 8, 4096 - 8, true), "overlap");
  ExpectError(edit(e0 + 8, 305, true), "offset 305 is not 8-byte aligned");
  ExpectError(edit(e1 + 8, 4096 - 512, true), "WEIGHTS_DATA) offset 3584 is not 4096-byte aligned");
}

TEST(OmVerifier, RandomMutationsNeverCrash) {
  std::vector<uint8_t> img = SampleImage();
  std::mt19937 rng(1234);
  VerifyOptions lax;
  lax.check_checksum = false;
  int loaded = 0;
  for (int iter = 0; iter < 3000; ++iter) {
    std::vector<uint8_t> bad = img;
    const int flips = 1 + static_cast<int>(rng() % 8);
    for (int k = 0; k < flips; ++k) bad[rng() % bad.size()] = static_cast<uint8_t>(rng());
    if (rng() % 4 == 0) bad.resize(rng() % bad.size());
    if (bad.size() >= kOmHeaderSize) StoreU64(bad.data() + kOffTotalLength, bad.size());
    auto r = OmReader::FromMemory(bad.data(), bad.size(), nullptr, lax);
    if (r.ok() && ReadIrOm(**r).ok()) ++loaded;
    LoadAnything(bad.data(), bad.size(), lax);
  }
  EXPECT_GT(loaded, 0);  // some mutations only touch weights or names
}

}  // namespace
}  // namespace ge::om
