// Weights reordered at prepare are shared by kernels whose constants have the same address (two loads of a model
// whose weights come from one mapped external weight file), and only by those.
#include "kernels/dnnl/shared_reorders.h"

#include "kernels/dnnl/dnnl_engine.h"
#include "kernels/dnnl/dnnl_test_util.h"
#include "kernels/exec/kernel_variant.h"

namespace ge::dnnl_kernels::testing {
namespace {

TEST(SharedReorders, KernelsReorderingTheSameConstantShareOneBuffer) {
  std::mt19937 rng(5);
  Case c("Conv", {RandomTensor({1, 16, 12, 12}, rng), RandomTensor({16, 16, 3, 3}, rng, -1, 1)}, {false, true},
         Attrs({{"pads", AV::Ints({1, 1, 1, 1})}}));
  {
    auto base = PrepareCase(c);
    ASSERT_TRUE(base.ok() && (*base)->kernel != nullptr);
    const std::vector<std::string> variants = KernelVariants((*base)->request);
    if (std::find(variants.begin(), variants.end(), "winograd") == variants.end()) {
      GTEST_SKIP() << "no oneDNN Winograd convolution on this CPU";
    }
  }
  c.attrs.Set(exec::kKernelVariantAttr, AV::String("winograd"));
  const size_t before = SharedReorderedWeightsLive();
  auto first = PrepareCase(c);   // the Case's weight tensor: one address for both kernels
  auto second = PrepareCase(c);
  ASSERT_TRUE(first.ok() && second.ok() && (*first)->kernel != nullptr && (*second)->kernel != nullptr);
  EXPECT_EQ(SharedReorderedWeightsLive(), before + 1);

  Case other = c;  // the same values at another address: not shared
  other.inputs[1] = c.inputs[1].Clone().value();
  auto third = PrepareCase(other);
  ASSERT_TRUE(third.ok() && (*third)->kernel != nullptr);
  EXPECT_EQ(SharedReorderedWeightsLive(), before + 2);

  ExpectDnnlMatchesRef(c);
  ASSERT_TRUE((*first)->Run().ok());
  ASSERT_TRUE((*second)->Run().ok());
  EXPECT_EQ(std::memcmp((*first)->outputs[0].raw_data(), (*second)->outputs[0].raw_data(),
                        (*first)->outputs[0].nbytes()),
            0);
  first->reset();
  EXPECT_EQ(SharedReorderedWeightsLive(), before + 2);  // the second kernel still uses it
  second->reset();
  third->reset();
  EXPECT_EQ(SharedReorderedWeightsLive(), before);
}

}  // namespace
}  // namespace ge::dnnl_kernels::testing
