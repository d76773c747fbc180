#include <gtest/gtest.h>

#include "compiler/passes/pass_test_util.h"
#include "compiler/passes/passes.h"

namespace ge::compiler {
namespace {

using testing::ModelsAgree;
using testing::Parse;
using testing::RunOnePass;

// A ShuffleNet block as torch exports it: concat, channel shuffle (groups 2), chunk(2) as two Slices; and a shuffle
// whose result is read whole.
const char* kBlock = R"(opset "" 13
graph block(%a: float32[1,4,3,3], %b: float32[1,4,3,3]) {
  const %s1: int64[5] = [1, 2, 4, 3, 3]
  const %s2: int64[4] = [1, 8, 3, 3]
  const %zero: int64[1] = [0]
  const %half: int64[1] = [4]
  const %all: int64[1] = [8]
  const %axis: int64[1] = [1]
  const %s3: int64[5] = [1, 2, 2, 3, 3]
  const %s4: int64[4] = [1, 4, 3, 3]
  cat: %x: float32[1,8,3,3] = Concat(%a, %b) {axis=1}
  r1: %r: float32[1,2,4,3,3] = Reshape(%x, %s1)
  t: %tr: float32[1,4,2,3,3] = Transpose(%r) {perm=[0,2,1,3,4]}
  r2: %y: float32[1,8,3,3] = Reshape(%tr, %s2)
  lo: %y0: float32[1,4,3,3] = Slice(%y, %zero, %half, %axis)
  hi: %y1: float32[1,4,3,3] = Slice(%y, %half, %all, %axis)
  r3: %q: float32[1,2,2,3,3] = Reshape(%y1, %s3)
  t2: %qt: float32[1,2,2,3,3] = Transpose(%q) {perm=[0,2,1,3,4]}
  r4: %z: float32[1,4,3,3] = Reshape(%qt, %s4)
  return %y0, %z
})";

TEST(ChannelShuffleFusionPass, ConcatShuffleAndSlicesBecomeOneNode) {
  auto before = Parse(kBlock);
  auto after = Parse(kBlock);
  ASSERT_TRUE(before && after);
  auto r = RunOnePass(CreateChannelShuffleFusionPass(), *after);
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_TRUE(r.changed);
  const std::string dump = ir::DumpText(*after->graph);
  EXPECT_NE(dump.find("t: %y0: float32[1,4,3,3], %y1: float32[1,4,3,3] = ge::ChannelShuffle(%a, %b) {groups=2}"), std::string::npos) << dump;
  EXPECT_NE(dump.find("t2: %z: float32[1,4,3,3] = ge::ChannelShuffle(%y1) {groups=2}"), std::string::npos) << dump;
  EXPECT_EQ(after->graph->num_nodes(), 2);
  EXPECT_TRUE(ModelsAgree(*before, *after, 0.0));
}

TEST(ChannelShuffleFusionPass, LeavesOtherTransposesAlone) {
  // A transpose of other axes, and a shuffle whose intermediate is a graph output.
  const char* text = R"(opset "" 13
graph g(%x: float32[1,8,3,3]) {
  const %s1: int64[5] = [1, 2, 4, 3, 3]
  const %s2: int64[4] = [1, 8, 3, 3]
  r1: %r: float32[1,2,4,3,3] = Reshape(%x, %s1)
  t: %tr: float32[1,2,4,3,3] = Transpose(%r) {perm=[0,1,2,4,3]}
  r2: %y: float32[1,8,3,3] = Reshape(%tr, %s2)
  r3: %q: float32[1,2,4,3,3] = Reshape(%x, %s1)
  t2: %qt: float32[1,4,2,3,3] = Transpose(%q) {perm=[0,2,1,3,4]}
  r4: %z: float32[1,8,3,3] = Reshape(%qt, %s2)
  return %y, %z, %qt
})";
  auto m = Parse(text);
  ASSERT_TRUE(m);
  auto r = RunOnePass(CreateChannelShuffleFusionPass(), *m);
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_FALSE(r.changed) << ir::DumpText(*m->graph);
}

}  // namespace
}  // namespace ge::compiler
