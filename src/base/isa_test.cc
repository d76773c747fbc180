// x86-64 levels: names, the features each requires, the level of a feature set; formats carrying their C0.
#include "base/isa.h"

#include <gtest/gtest.h>

#include "base/format.h"
#include "base/tensor_desc.h"

namespace ge {
namespace {

TEST(IsaLevel, NamesParseAndFeatures) {
  for (IsaLevel l : {IsaLevel::kX86_64_V2, IsaLevel::kX86_64_V3, IsaLevel::kX86_64_V4}) {
    IsaLevel parsed = IsaLevel::kNone;
    ASSERT_TRUE(ParseIsaLevel(IsaLevelName(l), &parsed));
    EXPECT_EQ(parsed, l);
    EXPECT_EQ(IsaLevelOf(IsaLevelFeatures(l)), l);
  }
  IsaLevel l;
  EXPECT_FALSE(ParseIsaLevel("native", &l));
  EXPECT_FALSE(ParseIsaLevel("x86-64-v5", &l));
  EXPECT_EQ(IsaLevelOf(0), IsaLevel::kNone);
  // v3 needs AVX2 + FMA on top of v2; AVX-512F alone does not make v4.
  EXPECT_EQ(IsaLevelOf(IsaLevelFeatures(IsaLevel::kX86_64_V3) & ~uint64_t{kIsaFma}), IsaLevel::kX86_64_V2);
  EXPECT_EQ(IsaLevelOf(IsaLevelFeatures(IsaLevel::kX86_64_V3) | kIsaAvx512F), IsaLevel::kX86_64_V3);
  EXPECT_EQ(IsaFeatureNames(kIsaAvx512DQ | kIsaSse42), "AVX-512DQ, SSE4.2");
  EXPECT_EQ(HostIsa().features & ~kIsaKnownMask, 0u);
}

TEST(Format, C0RidesInTheFormatValue) {
  const Format c8 = WithC0(Format::kNC1HWC0, 8);
  EXPECT_NE(c8, Format::kNC1HWC0);
  EXPECT_EQ(PrimaryFormat(c8), Format::kNC1HWC0);
  EXPECT_EQ(FormatC0(c8), 8);
  EXPECT_EQ(FormatC0(Format::kNC1HWC0), 16);
  EXPECT_EQ(WithC0(Format::kNC1HWC0, 16), Format::kNC1HWC0);
  EXPECT_TRUE(IsNonPlainLayout(c8));
  EXPECT_TRUE(IsValidFormat(c8));
  EXPECT_FALSE(IsValidFormat(WithC0(Format::kNC1HWC0, 4)));
  EXPECT_FALSE(IsValidFormat(static_cast<Format>(99)));
  Format parsed;
  ASSERT_TRUE(ParseFormat(FormatName(c8), &parsed));
  EXPECT_EQ(parsed, c8);
  EXPECT_STREQ(FormatName(c8), "NC1HWC0_C8");
  // Storage pads C to a multiple of the format's own C0.
  EXPECT_EQ(StorageNumElements({1, 10, 2, 2}, c8).value(), 16 * 4);
  EXPECT_EQ(StorageNumElements({1, 10, 2, 2}, Format::kNC1HWC0).value(), 16 * 4);
  EXPECT_EQ(StorageNumElements({1, 17, 2, 2}, c8).value(), 24 * 4);
  EXPECT_EQ(StorageNumElements({1, 17, 2, 2}, Format::kNC1HWC0).value(), 32 * 4);
}

}  // namespace
}  // namespace ge
