#include "base/edit_distance.h"

#include <gtest/gtest.h>

namespace ge {
namespace {

TEST(EditDistance, CountsEachKindOfEditOnce) {
  EXPECT_EQ(EditDistance("", ""), 0u);
  EXPECT_EQ(EditDistance("abc", "abc"), 0u);
  EXPECT_EQ(EditDistance("", "abc"), 3u);
  EXPECT_EQ(EditDistance("abc", ""), 3u);
  EXPECT_EQ(EditDistance("disableReuseMemry", "disableReuseMemory"), 1u);    // insertion
  EXPECT_EQ(EditDistance("disableReuseMemoryy", "disableReuseMemory"), 1u);  // deletion
  EXPECT_EQ(EditDistance("fusian", "fusion"), 1u);                           // substitution
  EXPECT_EQ(EditDistance("fusoin", "fusion"), 1u);                           // adjacent transposition
  EXPECT_EQ(EditDistance("kitten", "sitting"), 3u);
}

TEST(EditDistance, IgnoresCase) {
  EXPECT_EQ(EditDistance("ge.Fusion", "ge.fusion"), 0u);
  EXPECT_EQ(EditDistance("GE.EXEC.DEVICEID", "ge.exec.deviceId"), 0u);
}

TEST(EditDistance, IsSymmetric) {
  for (const auto& [a, b] : {std::pair<const char*, const char*>{"ge.engine.dnnl", "ge.engnie.dnl"},
                             {"output_dir", "outptu_dri"},
                             {"a", "ba"}}) {
    EXPECT_EQ(EditDistance(a, b), EditDistance(b, a)) << a << " " << b;
  }
}

TEST(ClosestName, PicksTheNearestWithinATypo) {
  const std::vector<std::string> names = {"ge.exec.disableReuseMemory", "ge.fusion", "ge.format.activation"};
  EXPECT_EQ(ClosestName("ge.exec.disableReuseMemry", names), "ge.exec.disableReuseMemory");
  EXPECT_EQ(ClosestName("ge.fusoin", names), "ge.fusion");
  EXPECT_EQ(ClosestName("ge.Format.Activation", names), "ge.format.activation");
}

TEST(ClosestName, NothingWhenEveryNameIsFar) {
  const std::vector<std::string> names = {"model", "output", "input_shape"};
  EXPECT_EQ(ClosestName("zzzzzzzz", names), "");
  EXPECT_EQ(ClosestName("x", {}), "");
  EXPECT_EQ(ClosestName("outptu", names), "output");  // a transposition: 1 edit
  EXPECT_EQ(ClosestName("mdl", names), "model");      // 2 edits: within the floor of 2
  EXPECT_EQ(ClosestName("moxxxx", names), "");        // 4 edits from "model", more than 6 / 3
}

TEST(ClosestName, TiesGoToTheEarlierName) {
  EXPECT_EQ(ClosestName("cat", {"bat", "hat"}), "bat");
  EXPECT_EQ(ClosestName("cat", {"hat", "bat"}), "hat");
}

}  // namespace
}  // namespace ge
