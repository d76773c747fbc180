// Winograd's transformed weights are prepacked at compile time like blocked ones (dnnl_engine.cc ChooseKernel,
// packed_layout.h): a kernel prepared on them maps the bytes instead of transforming the weights at load, and
// bytes transformed for another primitive are refused with an error naming the node, never misread.
#include <dnnl.hpp>

#include <cstring>
#include <optional>

#include "kernels/dnnl/dnnl_test_util.h"
#include "kernels/dnnl/packed_layout.h"
#include "kernels/exec/packed_weights.h"

namespace ge::dnnl_kernels::testing {
namespace {

struct PackedCase {
  std::unique_ptr<Prepared> plain;  // the node prepared on plain weights, as the compiler does before packing
  Tensor packed;                    // the weights as the kernel reads them
  std::string layout;
};

// A 3x3 stride-1 convolution the engine runs as Winograd on AVX-512 (64 channels each way, 28x28 in NHWC).
std::optional<PackedCase> WinogradConv(std::mt19937& rng) {
  Case c("Conv", {RandomTensor({1, 64, 28, 28}, rng), RandomTensor({64, 64, 3, 3}, rng, -0.3, 0.3)}, {false, true},
         Attrs({{"pads", AV::Ints({1, 1, 1, 1})}}));
  c.threads = 2;
  auto p = PrepareCase(c);
  EXPECT_TRUE(p.ok()) << p.status().ToString();
  if (!p.ok() || (*p)->kernel == nullptr) return std::nullopt;
  if (std::string((*p)->kernel->impl_name()).find("wino") == std::string::npos) return std::nullopt;
  auto choice = ChooseKernel((*p)->request);
  EXPECT_TRUE(choice.ok()) << choice.status().ToString();
  if (!choice.ok() || choice->packed.size() != 1) return std::nullopt;
  PackedCase out;
  const kernels::PackedWeights& w = choice->packed.front();
  EXPECT_EQ(w.input, 1);
  out.packed = Tensor::Create(DataType::kUint8, {static_cast<int64_t>(w.bytes.size())}).value();
  std::memcpy(out.packed.raw_data(), w.bytes.data(), w.bytes.size());
  out.layout = w.layout;
  out.plain = std::move(*p);
  return out;
}

// Re-prepares pc's node with its weights replaced by the packed constant described by `layout`.
StatusOr<std::unique_ptr<exec::PreparedKernel>> PrepareOnPacked(PackedCase& pc, const std::string& layout) {
  ir::Graph& g = *pc.plain->graph;
  ir::Node* n = pc.plain->node;
  ir::Value* v = g.AddConstant(g.UniqueValueName("w_packed"), pc.packed);
  v->desc().format = Format::kFractalZ;
  n->attrs().Set(exec::kPackedInputAttr, AV::Int(1));
  n->attrs().Set(exec::kPackedLayoutAttr, AV::String(layout));
  n->attrs().Set(exec::kPackedShapeAttr, AV::Ints({64, 64, 3, 3}));
  n->SetInput(1, v);
  exec::PrepareRequest r = pc.plain->request;
  r.input_descs[1] = v->desc();
  r.const_inputs[1] = &pc.packed;
  return PrepareDnnlKernel(r);
}

TEST(DnnlPrepackedWinograd, MapsTheCompileTimeTransformAndMatchesThePlainKernel) {
  std::mt19937 rng(95);
  auto pc = WinogradConv(rng);
  if (!pc) GTEST_SKIP() << "no Winograd convolution on this CPU";
  EXPECT_EQ(pc->layout.size() % 2, 0u);
  // The plain kernel's answer first.
  ASSERT_TRUE(pc->plain->Run().ok());
  const Tensor want = pc->plain->outputs[0].Clone().value();
  auto k = PrepareOnPacked(*pc, pc->layout);
  ASSERT_TRUE(k.ok()) << k.status().ToString();
  ASSERT_NE(*k, nullptr);
  EXPECT_NE(std::string((*k)->impl_name()).find("wino"), std::string::npos) << (*k)->impl_name();
  auto b = (*k)->NewBinding();
  ASSERT_TRUE(b.ok());
  (*b)->io.inputs[0] = pc->plain->inputs[0].raw_data();
  (*b)->io.inputs[1] = pc->packed.raw_data();
  Tensor got = Tensor::Create(DataType::kFloat, want.dims()).value();
  (*b)->io.outputs[0] = got.raw_data();
  rt::TaskContext ctx;
  ASSERT_TRUE((*k)->fn()(b->get(), ctx).ok());
  ExpectNear(got, want, 1e-6, "prepacked Winograd");
}

TEST(DnnlPrepackedWinograd, BytesForAnotherPrimitiveAreRefusedNamingTheNode) {
  std::mt19937 rng(96);
  auto pc = WinogradConv(rng);
  if (!pc) GTEST_SKIP() << "no Winograd convolution on this CPU";
  // A valid Winograd layout, but not the one this primitive picks (as from a CPU with other cache sizes).
  dnnl::memory::desc md;
  ASSERT_TRUE(DecodePackedLayout(pc->layout, {64, 64, 3, 3}, pc->packed.nbytes(), &md));
  dnnl_memory_desc_t raw = md.data;
  raw.format_desc.wino_desc.oc2_block += 1;
  auto k = PrepareOnPacked(*pc, EncodePackedLayout(dnnl::memory::desc(raw)));
  ASSERT_FALSE(k.ok());
  EXPECT_EQ(k.status().code(), StatusCode::kDataLoss);
  EXPECT_NE(k.status().message().find("n_Conv"), std::string::npos) << k.status().ToString();
  EXPECT_NE(k.status().message().find("Winograd"), std::string::npos) << k.status().ToString();
}

}  // namespace
}  // namespace ge::dnnl_kernels::testing
