// The pad kernel against the reference kernel bit for bit: constant (with and without a value, a value that is not a
// constant), reflect (pad == dim - 1, pads wider than the dim, dims of 1) and edge over ranks 0 to 5, pads on inner,
// outer and leading axes, negative pads, every word size, Pad-2's attributes, random pads, large outputs on a pool;
// requests left to ref.
#include <cmath>
#include <limits>

#include "kernels/exec/exec_test_util.h"
#include "kernels/exec/pad_kernel.h"

namespace ge::exec::testing {
namespace {

ir::AttrMap Mode(const char* mode) {
  ir::AttrMap a;
  a.Set("mode", ir::AttrValue::String(mode));
  return a;
}

// Pad-13 with constant pads and, when valid, a constant value (const_value: whether it is a graph constant).
OpCase PadCase(const Tensor& x, const std::vector<int64_t>& pads, const char* mode, Tensor value = Tensor(),
               bool const_value = true) {
  std::vector<Tensor> in = {x, Tensor::FromVector<int64_t>(pads, {static_cast<int64_t>(pads.size())})};
  if (value.valid()) in.push_back(value);
  return OpCase("Pad", in, {false, true, const_value}, Mode(mode), 1, 13);
}

// Pads on the two trailing axes of a rank-r tensor: [0.., top, left, 0.., bottom, right].
std::vector<int64_t> SpatialPads(int rank, int64_t top, int64_t left, int64_t bottom, int64_t right) {
  std::vector<int64_t> p(2 * rank, 0);
  p[rank - 2] = top;
  p[rank - 1] = left;
  p[2 * rank - 2] = bottom;
  p[2 * rank - 1] = right;
  return p;
}

TEST(PadKernel, ModesAndShapesMatchRefExactly) {
  std::mt19937 rng(81);
  const Tensor x3 = RandomTensor(DataType::kFloat, {1, 3, 7}, rng);
  const Tensor x4 = RandomTensor(DataType::kFloat, {2, 5, 13, 11}, rng);
  const Tensor x5 = RandomTensor(DataType::kFloat, {2, 3, 4, 5, 6}, rng);
  for (const char* mode : {"constant", "reflect", "edge"}) {
    SCOPED_TRACE(mode);
    ExpectBitExact(PadCase(x3, {0, 0, 2, 0, 0, 3}, mode), "exec.pad");
    ExpectBitExact(PadCase(x3, {0, 0, 6, 0, 0, 6}, mode), "exec.pad");  // reflect: pad == dim - 1
    ExpectBitExact(PadCase(x3, {0, 1, 0, 0, 2, 0}, mode), "exec.pad");  // channels: blocks of 7
    ExpectBitExact(PadCase(x3, {1, 0, 0, 2, 0, 0}, mode), "exec.pad");  // the leading axis
    ExpectBitExact(PadCase(x4, SpatialPads(4, 1, 1, 1, 1), mode), "exec.pad");
    ExpectBitExact(PadCase(x4, SpatialPads(4, 4, 0, 2, 10), mode), "exec.pad");
    ExpectBitExact(PadCase(x4, {0, 2, 3, 1, 0, 1, 2, 3}, mode), "exec.pad");
    ExpectBitExact(PadCase(x5, {0, 0, 1, 2, 3, 0, 0, 3, 2, 1}, mode), "exec.pad");  // 3-D spatial
    ExpectBitExact(PadCase(x5, std::vector<int64_t>(10, 0), mode), "exec.pad");     // nothing padded
    // Negative pads crop (alone, and beside positive ones on the same and other axes).
    ExpectBitExact(PadCase(x4, SpatialPads(4, -2, -3, -1, -4), mode), "exec.pad");
    ExpectBitExact(PadCase(x4, SpatialPads(4, 2, -3, -1, 5), mode), "exec.pad");
    ExpectBitExact(PadCase(x4, {-1, 1, 0, 2, 0, -2, 3, 0}, mode), "exec.pad");
    // Dims of 1, rank 1, a scalar.
    ExpectBitExact(PadCase(RandomTensor(DataType::kFloat, {2, 1, 1}, rng), {0, 2, 3, 0, 1, 4}, mode), "exec.pad");
    ExpectBitExact(PadCase(RandomTensor(DataType::kFloat, {9}, rng), {3, 5}, mode), "exec.pad");
    ExpectBitExact(PadCase(RandomTensor(DataType::kFloat, {}, rng), {}, mode), "exec.pad");
  }
  // Reflect folds again when a pad is wider than the dim (the reference kernel's rule).
  ExpectBitExact(PadCase(x3, {0, 0, 15, 0, 0, 9}, "reflect"), "exec.pad");
  ExpectBitExact(PadCase(x3, {0, 0, 15, 0, 0, 9}, "edge"), "exec.pad");
  // Constant pads of an empty dim, and an empty output.
  ExpectBitExact(PadCase(RandomTensor(DataType::kFloat, {2, 0, 3}, rng), {0, 1, 1, 0, 2, 1}, "constant"), "exec.pad");
  ExpectBitExact(PadCase(RandomTensor(DataType::kFloat, {2, 0, 3}, rng), {0, 0, 1, 0, 0, 1}, "reflect"), "exec.pad");
}

TEST(PadKernel, ConstantValues) {
  std::mt19937 rng(82);
  const Tensor x = RandomTensor(DataType::kFloat, {2, 3, 5, 4}, rng);
  const std::vector<int64_t> pads = SpatialPads(4, 1, 2, 3, 1);
  ExpectBitExact(PadCase(x, pads, "constant", Tensor::FromVector<float>({-2.5f}, {})), "exec.pad");
  ExpectBitExact(PadCase(x, pads, "constant", Tensor::FromVector<float>({std::nanf("0x42")}, {})), "exec.pad");
  ExpectBitExact(PadCase(x, pads, "constant", Tensor::FromVector<float>({-0.0f}, {1})), "exec.pad");
  // A value computed by the graph: read from its slot at each run.
  ExpectBitExact(PadCase(x, pads, "constant", Tensor::FromVector<float>({7.f}, {}), false), "exec.pad");
  // Pad-2: pads and value as attributes.
  ir::AttrMap a = Mode("constant");
  a.Set("pads", ir::AttrValue::Ints({0, 0, 1, 2, 0, 0, 2, 1}));
  a.Set("value", ir::AttrValue::Float(1.5f));
  ExpectBitExact(OpCase("Pad", {x}, {}, a, 1, 2), "exec.pad");
  ExpectBitExact(OpCase("Pad", {RandomTensor(DataType::kInt32, {2, 3, 5, 4}, rng)}, {}, a, 1, 2), "exec.pad");
  ir::AttrMap reflect = Mode("reflect");
  reflect.Set("pads", ir::AttrValue::Ints({0, 0, 4, 3, 0, 0, 4, 3}));
  ExpectBitExact(OpCase("Pad", {x}, {}, reflect, 1, 2), "exec.pad");
}

TEST(PadKernel, EveryWordSize) {
  std::mt19937 rng(83);
  for (DataType dt :
       {DataType::kUint8, DataType::kInt8, DataType::kFloat16, DataType::kInt32, DataType::kInt64, DataType::kDouble}) {
    SCOPED_TRACE(DataTypeName(dt));
    const Tensor x = RandomTensor(dt, {2, 3, 6, 5}, rng, -100, 100);
    const Tensor value = RandomTensor(dt, {}, rng, -100, 100);
    for (const char* mode : {"constant", "reflect", "edge"}) {
      ExpectBitExact(PadCase(x, SpatialPads(4, 2, 3, 1, 4), mode), "exec.pad");
      ExpectBitExact(PadCase(x, {0, 1, 0, 0, 0, 2, 0, 0}, mode), "exec.pad");
    }
    ExpectBitExact(PadCase(x, SpatialPads(4, 2, 3, 1, 4), "constant", value), "exec.pad");
  }
  Tensor b = Tensor::Create(DataType::kBool, {3, 4}).value();
  for (int i = 0; i < 12; ++i) b.data<bool>()[i] = (rng() & 1) != 0;
  ExpectBitExact(PadCase(b, {1, 2, 0, 1}, "constant", Tensor::FromVector<bool>({true}, {})), "exec.pad");
  ExpectBitExact(PadCase(b, {1, 2, 0, 3}, "reflect"), "exec.pad");
}

TEST(PadKernel, RandomPadsMatchRefExactly) {
  std::mt19937 rng(84);
  const char* modes[] = {"constant", "reflect", "edge"};
  for (int iter = 0; iter < 300; ++iter) {
    const int rank = 1 + iter % 5;
    Dims dims;
    for (int i = 0; i < rank; ++i) dims.push_back(std::uniform_int_distribution<int64_t>(1, 6)(rng));
    std::vector<int64_t> pads(2 * rank);
    for (int i = 0; i < rank; ++i) {
      // Crops never take the dim below zero.
      pads[i] = std::uniform_int_distribution<int64_t>(-dims[i] / 2, 4)(rng);
      pads[i + rank] = std::uniform_int_distribution<int64_t>(-dims[i] / 2, 4)(rng);
      if (rng() % 3 == 0) pads[i] = pads[i + rank] = 0;
    }
    ExpectBitExact(PadCase(RandomTensor(DataType::kFloat, dims, rng), pads, modes[iter % 3]), "exec.pad");
  }
}

TEST(PadKernel, LargeOutputsOnAThreadPool) {
  auto pool = rt::ThreadPool::Create(4);
  ASSERT_TRUE(pool.ok());
  std::mt19937 rng(85);
  const Tensor x = RandomTensor(DataType::kFloat, {1, 64, 128, 128}, rng);
  for (const char* mode : {"constant", "reflect", "edge"}) {
    ExpectBitExact(PadCase(x, SpatialPads(4, 1, 1, 1, 1), mode), "exec.pad", pool->get());
    ExpectBitExact(PadCase(RandomTensor(DataType::kFloat, {1, 3, 256, 256}, rng), SpatialPads(4, 4, 4, 4, 4), mode),
                   "exec.pad", pool->get());
    ExpectBitExact(PadCase(x, {0, 3, 2, 0, 0, 5, 1, 0}, mode), "exec.pad", pool->get());
  }
  ExpectBitExact(PadCase(RandomTensor(DataType::kUint8, {1, 200000}, rng), {0, 3, 0, 9}, "edge"), "exec.pad",
                 pool->get());
}

TEST(PadKernel, OtherRequestsStayOnRef) {
  std::mt19937 rng(86);
  const Tensor x = RandomTensor(DataType::kFloat, {2, 3, 4}, rng);
  const Tensor pads = Tensor::FromVector<int64_t>({0, 0, 1, 0, 0, 1}, {6});
  // Pads computed by the graph.
  const OpCase graph_pads("Pad", {x, pads}, {false, false}, Mode("reflect"), 1, 13);
  auto ref = PrepareCase(graph_pads, {TensorDesc(DataType::kFloat, Shape(Dims{2, 3, 6}))});
  ASSERT_TRUE(ref.ok()) << ref.status().ToString();
  EXPECT_STREQ((*ref)->kernel->impl_name(), "ref");
  ASSERT_TRUE((*ref)->Run().ok());
  auto want = RunRef(graph_pads);
  ASSERT_TRUE(want.ok());
  ExpectTensorNear((*ref)->outputs[0], (*want)[0].tensor, 0, "graph pads");
  const OpCase edge = PadCase(x, {0, 0, 1, 0, 0, 1}, "edge");  // outlives the request, which points at its pads
  auto p = PrepareCase(edge);
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  PrepareRequest r = (*p)->request;
  r.varying_input_dims = {{true, false, false}, {}};
  EXPECT_EQ(PreparePad(r), nullptr);
  r = (*p)->request;
  r.output_descs[0].shape = Shape(Dims{2, 3, 7});  // not what the pads give
  EXPECT_EQ(PreparePad(r), nullptr);
}

}  // namespace
}  // namespace ge::exec::testing
