#include "kernels/dnnl/dnnl_test_util.h"

namespace ge::dnnl_kernels::testing {
namespace {

using Ints = std::vector<int64_t>;

Case PoolCase(const std::string& op, const Dims& x, ir::AttrMap a, std::mt19937& rng) {
  return Case(op, {RandomTensor(x, rng)}, {}, std::move(a));
}

TEST(DnnlPool, MaxPool) {
  std::mt19937 rng(31);
  // 1-D windows and 2x2 ones over output rows of 64+ go to ge's plain-layout kernel.
  const char* plain = "exec.max_pool_plain";
  ExpectDnnlMatchesRef(PoolCase("MaxPool", {2, 3, 8, 8}, Attrs({{"kernel_shape", AV::Ints({2, 2})},
                                                                  {"strides", AV::Ints({2, 2})}}), rng));
  ExpectDnnlMatchesRef(PoolCase("MaxPool", {1, 3, 5, 131}, Attrs({{"kernel_shape", AV::Ints({2, 2})},
                                                                   {"strides", AV::Ints({2, 2})}}), rng),
                       1e-4, nullptr, plain);
  ExpectDnnlMatchesRef(PoolCase("MaxPool", {1, 4, 9, 10}, Attrs({{"kernel_shape", AV::Ints({3, 3})},
                                                                   {"strides", AV::Ints({2, 2})},
                                                                   {"pads", AV::Ints({1, 1, 1, 1})}}), rng));
  // ceil_mode extends the right pad; asymmetric pads; dilations; 1-D and 3-D.
  ExpectDnnlMatchesRef(PoolCase("MaxPool", {1, 2, 10, 11}, Attrs({{"kernel_shape", AV::Ints({3, 2})},
                                                                    {"strides", AV::Ints({2, 2})},
                                                                    {"ceil_mode", AV::Int(1)}}), rng));
  ExpectDnnlMatchesRef(PoolCase("MaxPool", {1, 2, 10, 11}, Attrs({{"kernel_shape", AV::Ints({3, 3})},
                                                                    {"pads", AV::Ints({0, 1, 2, 0})}}), rng));
  ExpectDnnlMatchesRef(PoolCase("MaxPool", {1, 2, 12, 12}, Attrs({{"kernel_shape", AV::Ints({2, 2})},
                                                                    {"dilations", AV::Ints({2, 2})}}), rng));
  ExpectDnnlMatchesRef(PoolCase("MaxPool", {2, 3, 17}, Attrs({{"kernel_shape", AV::Ints({3})},
                                                               {"strides", AV::Ints({2})}}), rng),
                       1e-4, nullptr, plain);
  ExpectDnnlMatchesRef(PoolCase("MaxPool", {1, 2, 5, 6, 7}, Attrs({{"kernel_shape", AV::Ints({2, 2, 2})}}), rng));
  ExpectDnnlMatchesRef(PoolCase("MaxPool", {1, 2, 9, 9}, Attrs({{"kernel_shape", AV::Ints({3, 3})},
                                                                  {"strides", AV::Ints({2, 2})},
                                                                  {"auto_pad", AV::String("SAME_UPPER")}}), rng));
  // A ceil_mode window entirely in the pad: both give float's lowest.
  ExpectDnnlMatchesRef(PoolCase("MaxPool", {1, 1, 2, 2}, Attrs({{"kernel_shape", AV::Ints({1, 1})},
                                                                  {"strides", AV::Ints({2, 2})},
                                                                  {"pads", AV::Ints({0, 0, 1, 1})},
                                                                  {"ceil_mode", AV::Int(1)}}), rng));
}

TEST(DnnlPool, AveragePool) {
  std::mt19937 rng(32);
  for (int64_t cip : {0, 1}) {
    SCOPED_TRACE("count_include_pad " + std::to_string(cip));
    ExpectDnnlMatchesRef(PoolCase("AveragePool", {2, 3, 9, 9}, Attrs({{"kernel_shape", AV::Ints({3, 3})},
                                                                       {"strides", AV::Ints({2, 2})},
                                                                       {"pads", AV::Ints({1, 1, 1, 1})},
                                                                       {"count_include_pad", AV::Int(cip)}}),
                                  rng));
    ExpectDnnlMatchesRef(PoolCase("AveragePool", {1, 2, 10, 7}, Attrs({{"kernel_shape", AV::Ints({2, 3})},
                                                                        {"pads", AV::Ints({1, 0, 0, 2})},
                                                                        {"count_include_pad", AV::Int(cip)}}),
                                  rng));
    ExpectDnnlMatchesRef(PoolCase("AveragePool", {1, 2, 9}, Attrs({{"kernel_shape", AV::Ints({4})},
                                                                    {"strides", AV::Ints({2})},
                                                                    {"count_include_pad", AV::Int(cip)},
                                                                    {"auto_pad", AV::String("SAME_LOWER")}}),
                                  rng));
  }
  // ceil_mode without counting padding: the last windows are partial.
  ExpectDnnlMatchesRef(PoolCase("AveragePool", {1, 2, 10, 11}, Attrs({{"kernel_shape", AV::Ints({3, 3})},
                                                                        {"strides", AV::Ints({2, 2})},
                                                                        {"ceil_mode", AV::Int(1)}}), rng));
}

TEST(DnnlPool, AveragePoolDeclines) {
  std::mt19937 rng(33);
  // Counting padding with ceil_mode windows past the end pad: oneDNN divides by the kernel size, ONNX does not.
  ExpectDeclined(PoolCase("AveragePool", {1, 2, 10, 11}, Attrs({{"kernel_shape", AV::Ints({3, 3})},
                                                                  {"strides", AV::Ints({2, 2})},
                                                                  {"ceil_mode", AV::Int(1)},
                                                                  {"count_include_pad", AV::Int(1)}}), rng));
  // A window with no input element (ref: 0).
  ExpectDeclined(PoolCase("AveragePool", {1, 1, 2, 2}, Attrs({{"kernel_shape", AV::Ints({1, 1})},
                                                              {"strides", AV::Ints({2, 2})},
                                                              {"pads", AV::Ints({0, 0, 1, 1})},
                                                              {"ceil_mode", AV::Int(1)}}), rng));
  // MaxPool with the Indices output.
  Case c = PoolCase("MaxPool", {1, 2, 4, 4}, Attrs({{"kernel_shape", AV::Ints({2, 2})}}), rng);
  c.num_outputs = 2;
  ExpectDeclined(c);
}

TEST(DnnlPool, GlobalPools) {
  std::mt19937 rng(34);
  for (const char* op : {"GlobalAveragePool", "GlobalMaxPool"}) {
    ExpectDnnlMatchesRef(PoolCase(op, {2, 8, 7, 7}, ir::AttrMap(), rng));
    ExpectDnnlMatchesRef(PoolCase(op, {2, 3, 11}, ir::AttrMap(), rng));
    ExpectDnnlMatchesRef(PoolCase(op, {1, 3, 4, 5, 6}, ir::AttrMap(), rng));
  }
}

}  // namespace
}  // namespace ge::dnnl_kernels::testing
