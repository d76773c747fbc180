// Shape-agnostic forms of ge's own kernels and of the reference adapter (PreparedKernel::shape_agnostic): one kernel
// prepared with the graph's unknown dims marked varying serves every later shape, each run matching the reference
// kernel at that shape.
#include <gtest/gtest.h>

#include "kernels/exec/agnostic_test_util.h"

namespace ge::exec {
namespace {

using testing::AgnosticCase;
using testing::ExpectAgnosticMatchesRef;

TEST(ShapeAgnostic, BinaryReplansWhenTheBroadcastChanges) {
  AgnosticCase add{"Add", {}, {{-1, 6}, {6}}, {}, {{{1, 6}, {6}}, {{5, 6}, {6}}, {{17, 6}, {6}}, {{5, 6}, {6}}}};
  EXPECT_EQ(ExpectAgnosticMatchesRef(add), "exec.binary_f32");
  // Same shapes, a scalar, then a row broadcast: the loop kind changes between runs of one binding.
  AgnosticCase mul{"Mul", {}, {{-1, -1}, {-1, 1}}, {}, {{{3, 4}, {3, 1}}, {{2, 1}, {2, 1}}, {{1, 1}, {1, 1}},
                                                           {{4, 33}, {4, 1}}}};
  EXPECT_EQ(ExpectAgnosticMatchesRef(mul), "exec.binary_f32");
}

TEST(ShapeAgnostic, TransposeReplansPerShape) {
  ir::AttrMap attrs;
  attrs.Set("perm", ir::AttrValue::Ints({0, 2, 1}));
  AgnosticCase t{"Transpose", attrs, {{2, -1, -1}}, {}, {{{2, 3, 4}}, {{2, 5, 1}}, {{2, 48, 33}}, {{2, 3, 4}}}};
  EXPECT_EQ(ExpectAgnosticMatchesRef(t), "exec.transpose");
}

TEST(ShapeAgnostic, CopyMovesTheBytesOfEachRun) {
  const Tensor shape = Tensor::FromVector<int64_t>({-1, 4}, {2});
  AgnosticCase r{"Reshape", {}, {{-1, 8}, {2}}, {Tensor(), shape}, {{{1, 8}, {2}}, {{3, 8}, {2}}, {{2, 8}, {2}}}};
  EXPECT_EQ(ExpectAgnosticMatchesRef(r), "exec.copy");
}

TEST(ShapeAgnostic, ReferenceAdapterWrapsEachRunsDims) {
  ir::AttrMap attrs;
  attrs.Set("axis", ir::AttrValue::Int(-1));
  AgnosticCase s{"Softmax", attrs, {{-1, -1}}, {}, {{{2, 5}}, {{7, 3}}, {{1, 1}}, {{2, 5}}}};
  EXPECT_EQ(ExpectAgnosticMatchesRef(s), "ref");
}

}  // namespace
}  // namespace ge::exec
