#include <gtest/gtest.h>

#include "compiler/passes/pass_test_util.h"
#include "compiler/passes/passes.h"

namespace ge::compiler {
namespace {

using testing::RunAndDump;

TEST(IdentityRemovalPass, RemovesIdentitiesAndKeepsOutputNames) {
  bool changed = false;
  std::string out = RunAndDump(CreateIdentityRemovalPass(), R"(opset "" 17
graph g(%x: float32[2]) {
  n: %a = Neg(%x)
  id1: %b = Identity(%a)
  e: %e = Exp(%b)
  id2: %y = Identity(%e)
  id3: %z = Identity(%x)
  return %y, %z
})", &changed);
  EXPECT_TRUE(changed);
  // `e` now produces %y directly; %z comes straight from a graph input, so its Identity stays.
  EXPECT_EQ(out, R"(graph g(%x: float32[2]) {
  n: %a = Neg(%x)
  id3: %z = Identity(%x)
  e: %y = Exp(%a)
  return %y, %z
}
)");
}

TEST(IdentityRemovalPass, DropoutOnlyInInferenceModeWithUnusedMask) {
  std::string out = RunAndDump(CreateIdentityRemovalPass(), R"(opset "" 17
graph g(%x: float32[2]) {
  const %on: bool[] = [true]
  const %off: bool[] = [false]
  n: %a = Neg(%x)
  d1: %b, %m1 = Dropout(%a)
  d2: %c, _ = Dropout(%b, _, %off)
  d3: %d, %m3 = Dropout(%c)
  d4: %e, %m4 = Dropout(%d, _, %on)
  return %e, %m3
})");
  EXPECT_EQ(out, R"(graph g(%x: float32[2]) {
  const %on: bool[] = [true]
  n: %a = Neg(%x)
  d3: %d, %m3 = Dropout(%a)
  d4: %e, %m4 = Dropout(%d, _, %on)
  return %e, %m3
}
)");
}

TEST(IdentityRemovalPass, NoOpCastAndReshape) {
  std::string out = RunAndDump(CreateIdentityRemovalPass(), R"(opset "" 17
graph g(%x: float32[2,3]) {
  const %same: int64[2] = [2, 3]
  const %other: int64[2] = [3, 2]
  c1: %a: float32[2,3] = Cast(%x) {to=1}
  c2: %b: float64[2,3] = Cast(%a) {to=11}
  r1: %c: float64[2,3] = Reshape(%b, %same)
  r2: %d: float64[3,2] = Reshape(%c, %other)
  return %d
})");
  EXPECT_EQ(out, R"(graph g(%x: float32[2,3]) {
  const %other: int64[2] = [3, 2]
  c2: %b: float64[2,3] = Cast(%x) {to=11}
  r2: %d: float64[3,2] = Reshape(%b, %other)
  return %d
}
)");
}

}  // namespace
}  // namespace ge::compiler
