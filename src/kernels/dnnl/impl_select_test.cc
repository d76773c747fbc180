// Implementation choice: names of oneDNN implementations mapped to the ISA level they need, reference ones
// recognised, and kernels prepared for a target never use an implementation above it; convolution candidates
// never keep a reference implementation when an optimized one exists (the AVX2 first-layer case), and a kernel
// variant recorded on the node is what gets prepared.
#include "kernels/dnnl/impl_select.h"

#include "kernels/dnnl/dnnl_engine.h"
#include "kernels/dnnl/dnnl_test_util.h"
#include "kernels/exec/kernel_variant.h"

namespace ge::dnnl_kernels::testing {
namespace {

TEST(ImplSelect, IsaLevelOfImplementationNames) {
  EXPECT_EQ(ImplIsaLevel("brgconv:avx512_core"), IsaLevel::kX86_64_V4);
  EXPECT_EQ(ImplIsaLevel("jit:avx512_core_bf16"), IsaLevel::kX86_64_V4);
  EXPECT_EQ(ImplIsaLevel("jit_1x1:avx2"), IsaLevel::kX86_64_V3);
  EXPECT_EQ(ImplIsaLevel("jit:avx2_vnni"), IsaLevel::kX86_64_V4);  // AVX-VNNI is not part of x86-64-v3
  EXPECT_EQ(ImplIsaLevel("jit:sse41"), IsaLevel::kX86_64_V2);
  EXPECT_EQ(ImplIsaLevel("x64:gemm:jit"), IsaLevel::kNone);
  EXPECT_EQ(ImplIsaLevel("jit:uni"), IsaLevel::kNone);
  EXPECT_EQ(ImplIsaLevel("ref:any"), IsaLevel::kNone);
  EXPECT_TRUE(IsReferenceImpl("ref:any"));
  EXPECT_TRUE(IsReferenceImpl("dnnl.concat(ref:any)") || IsReferenceImpl("ref_fused:any"));
  EXPECT_TRUE(IsReferenceImpl("simple_nchw:any"));
  EXPECT_FALSE(IsReferenceImpl("simple:any"));
  EXPECT_FALSE(IsReferenceImpl("jit:avx2"));
  EXPECT_FALSE(IsReferenceImpl("brgconv:avx512_core"));
}

Case FirstLayerConv(std::mt19937& rng) {
  Case c("Conv", {RandomTensor({1, 3, 32, 32}, rng), RandomTensor({16, 3, 3, 3}, rng, -1, 1), RandomTensor({16}, rng)},
         {false, true, true}, Attrs({{"pads", AV::Ints({1, 1, 1, 1})}, {"strides", AV::Ints({2, 2})}}));
  return c;
}

// Every target at or below this machine's: the kernel's implementation needs at most the target, is not a
// reference one, and computes the reference's result.
TEST(ImplSelect, TargetsCapTheImplementation) {
  std::mt19937 rng(1);
  for (IsaLevel target : {IsaLevel::kX86_64_V3, IsaLevel::kX86_64_V4}) {
    if (static_cast<int>(target) > static_cast<int>(DnnlMaxIsaLevel())) continue;
    Case c = FirstLayerConv(rng);
    c.max_isa = target;
    auto p = PrepareCase(c);
    ASSERT_TRUE(p.ok() && (*p)->kernel != nullptr);
    const std::string impl = (*p)->kernel->impl_name();
    EXPECT_LE(static_cast<int>(ImplIsaLevel(impl)), static_cast<int>(target)) << impl;
    EXPECT_FALSE(IsReferenceImpl(impl)) << impl;
    ExpectDnnlMatchesRef(c);
  }
}

// A plain-NCHW first layer writing an NHWC chain: on AVX2 oneDNN has only its reference kernel for that pair, so
// the kernel reorders the source instead.
TEST(ImplSelect, NhwcFirstLayerAvoidsTheReferenceKernel) {
  if (static_cast<int>(DnnlMaxIsaLevel()) < static_cast<int>(IsaLevel::kX86_64_V3)) GTEST_SKIP() << "no AVX2";
  std::mt19937 rng(2);
  Case c = FirstLayerConv(rng);
  c.max_isa = IsaLevel::kX86_64_V3;
  c.output_formats = {Format::kNHWC};
  auto p = PrepareCase(c);
  ASSERT_TRUE(p.ok() && (*p)->kernel != nullptr);
  EXPECT_FALSE(IsReferenceImpl((*p)->kernel->impl_name())) << (*p)->kernel->impl_name();
}

TEST(ImplSelect, RecordedVariantIsPrepared) {
  std::mt19937 rng(3);
  Case c("Conv", {RandomTensor({1, 16, 12, 12}, rng), RandomTensor({16, 16, 3, 3}, rng, -1, 1)}, {false, true},
         Attrs({{"pads", AV::Ints({1, 1, 1, 1})}}));
  auto base = PrepareCase(c);
  ASSERT_TRUE(base.ok() && (*base)->kernel != nullptr);
  const std::vector<std::string> variants = KernelVariants((*base)->request);
  ASSERT_FALSE(variants.empty());
  EXPECT_TRUE(variants.front() == "direct" || variants.front() == "winograd") << variants.front();
  for (const std::string& v : variants) {
    Case cv = c;
    cv.attrs.Set(exec::kKernelVariantAttr, AV::String(v));
    cv.attrs.Set(exec::kKernelThreadsAttr, AV::Int(1));
    ExpectDnnlMatchesRef(cv);
    if (v == "winograd") {
      auto p = PrepareCase(cv);
      ASSERT_TRUE(p.ok() && (*p)->kernel != nullptr);
      EXPECT_NE(std::string((*p)->kernel->impl_name()).find("wino"), std::string::npos) << (*p)->kernel->impl_name();
    }
  }
  // An unknown variant falls back to the default choice.
  Case unknown = c;
  unknown.attrs.Set(exec::kKernelVariantAttr, AV::String("no-such-variant"));
  ExpectDnnlMatchesRef(unknown);
}

}  // namespace
}  // namespace ge::dnnl_kernels::testing
