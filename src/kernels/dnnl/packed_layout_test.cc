#include "kernels/dnnl/packed_layout.h"

#include <gtest/gtest.h>

#include <optional>

namespace ge::dnnl_kernels {
namespace {

// The layout oneDNN picks for a 3x3 convolution's weights (some blocked OIhw layout on any x86 CPU).
dnnl::memory::desc ConvWeightsLayout() {
  dnnl::engine eng(dnnl::engine::kind::cpu, 0);
  using T = dnnl::memory::format_tag;
  const dnnl::memory::desc src({1, 32, 8, 8}, dnnl::memory::data_type::f32, T::any);
  const dnnl::memory::desc wei({48, 32, 3, 3}, dnnl::memory::data_type::f32, T::any);
  const dnnl::memory::desc dst({1, 48, 8, 8}, dnnl::memory::data_type::f32, T::any);
  const dnnl::convolution_forward::desc d(dnnl::prop_kind::forward_inference, dnnl::algorithm::convolution_direct, src,
                                          wei, dst, {1, 1}, {1, 1}, {1, 1});
  return dnnl::convolution_forward::primitive_desc(d, eng).weights_desc();
}

TEST(PackedLayout, RoundTrips) {
  const dnnl::memory::desc md = ConvWeightsLayout();
  dnnl::memory::desc back;
  ASSERT_TRUE(DecodePackedLayout(EncodePackedLayout(md), {48, 32, 3, 3}, md.get_size(), &back));
  EXPECT_TRUE(back == md);
}

TEST(PackedLayout, RejectsCorruptDescriptions) {
  const dnnl::memory::desc md = ConvWeightsLayout();
  const std::string good = EncodePackedLayout(md);
  dnnl::memory::desc out;
  EXPECT_FALSE(DecodePackedLayout(good.substr(2), {48, 32, 3, 3}, md.get_size(), &out));         // truncated
  EXPECT_FALSE(DecodePackedLayout("zz" + good.substr(2), {48, 32, 3, 3}, md.get_size(), &out));  // not hex
  EXPECT_FALSE(DecodePackedLayout(good, {48, 32, 3, 4}, md.get_size(), &out));                   // other dims
  EXPECT_FALSE(DecodePackedLayout(good, {48, 32, 3, 3}, md.get_size() - 4, &out));               // too few bytes

  // A stride that reaches past the stored bytes, and a negative one.
  for (dnnl_dim_t stride : {dnnl_dim_t{1} << 40, dnnl_dim_t{-16}}) {
    dnnl_memory_desc_t raw = md.data;
    raw.format_desc.blocking.strides[0] = stride;
    EXPECT_FALSE(DecodePackedLayout(EncodePackedLayout(dnnl::memory::desc(raw)), {48, 32, 3, 3}, md.get_size(), &out));
  }
  dnnl_memory_desc_t raw = md.data;
  raw.data_type = dnnl_s8;
  EXPECT_FALSE(DecodePackedLayout(EncodePackedLayout(dnnl::memory::desc(raw)), {48, 32, 3, 3}, md.get_size(), &out));
  raw = md.data;
  raw.format_desc.blocking.inner_idxs[0] = 7;
  EXPECT_FALSE(DecodePackedLayout(EncodePackedLayout(dnnl::memory::desc(raw)), {48, 32, 3, 3}, md.get_size(), &out));
}

// The layout oneDNN's Winograd convolution picks for 3x3 weights; nullopt where it has none (below AVX-512).
std::optional<dnnl::memory::desc> WinogradWeightsLayout(const dnnl::memory::dims& w) {
  dnnl::engine eng(dnnl::engine::kind::cpu, 0);
  using T = dnnl::memory::format_tag;
  const dnnl::memory::desc src({1, w[1], 28, 28}, dnnl::memory::data_type::f32, T::any);
  const dnnl::memory::desc wei(w, dnnl::memory::data_type::f32, T::any);
  const dnnl::memory::desc dst({1, w[0], 28, 28}, dnnl::memory::data_type::f32, T::any);
  try {
    const dnnl::convolution_forward::desc d(dnnl::prop_kind::forward_inference, dnnl::algorithm::convolution_winograd,
                                            src, wei, dst, {1, 1}, {1, 1}, {1, 1});
    return dnnl::convolution_forward::primitive_desc(d, eng).weights_desc();
  } catch (const dnnl::error&) {
    return std::nullopt;
  }
}

TEST(PackedLayout, WinogradRoundTripsAndChecksItsSize) {
  const auto md = WinogradWeightsLayout({64, 64, 3, 3});
  if (!md) GTEST_SKIP() << "oneDNN has no Winograd convolution on this CPU";
  ASSERT_EQ(md->data.format_kind, dnnl_format_kind_wino);
  const std::string text = EncodePackedLayout(*md);
  dnnl::memory::desc back;
  ASSERT_TRUE(DecodePackedLayout(text, {64, 64, 3, 3}, md->get_size(), &back));
  EXPECT_TRUE(back == *md);
  EXPECT_FALSE(DecodePackedLayout(text, {64, 64, 3, 3}, md->get_size() - 1, &back));  // too few bytes
  EXPECT_FALSE(DecodePackedLayout(text, {64, 32, 3, 3}, md->get_size(), &back));      // other dims
  for (int tag : {0, 99}) {
    dnnl_memory_desc_t raw = md->data;
    raw.format_desc.wino_desc.wino_format = static_cast<dnnl_wino_memory_format_t>(tag);
    EXPECT_FALSE(
        DecodePackedLayout(EncodePackedLayout(dnnl::memory::desc(raw)), {64, 64, 3, 3}, md->get_size(), &back));
  }
  dnnl_memory_desc_t raw = md->data;
  raw.format_desc.wino_desc.size = 0;
  EXPECT_FALSE(DecodePackedLayout(EncodePackedLayout(dnnl::memory::desc(raw)), {64, 64, 3, 3}, md->get_size(), &back));
  raw = md->data;
  raw.data_type = dnnl_bf16;
  EXPECT_FALSE(DecodePackedLayout(EncodePackedLayout(dnnl::memory::desc(raw)), {64, 64, 3, 3}, md->get_size(), &back));
}

}  // namespace
}  // namespace ge::dnnl_kernels
