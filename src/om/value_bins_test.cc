#include "om/value_bins.h"

#include <gtest/gtest.h>

namespace ge::om {
namespace {

TEST(ValueBins, ParsesGesFormat) {
  auto bins = ParseValueBins(
      R"( {"value_bins": [ {"value_bin_id":"vec", "value_bin_file":"./data/vec.bin"},
                           {"value_bin_file":"/abs/w\u002ebin","value_bin_id":"w"} ]} )");
  ASSERT_TRUE(bins.ok()) << bins.status().ToString();
  EXPECT_EQ(bins->size(), 2u);
  EXPECT_EQ(bins->at("vec"), "./data/vec.bin");
  EXPECT_EQ(bins->at("w"), "/abs/w.bin");
  auto empty = ParseValueBins(R"({"value_bins":[]})");
  ASSERT_TRUE(empty.ok());
  EXPECT_TRUE(empty->empty());
}

TEST(ValueBins, RejectsEverythingElseNamingIt) {
  for (const char* bad : {"", "[]", "{}", R"({"bins":[]})", R"({"value_bins":{}})",
                          R"({"value_bins":[{"value_bin_id":"a"}]})",
                          R"({"value_bins":[{"value_bin_id":"","value_bin_file":"f"}]})",
                          R"({"value_bins":[{"value_bin_id":"a","value_bin_file":"f","x":"y"}]})",
                          R"({"value_bins":[{"value_bin_id":"a","value_bin_file":"f"},{"value_bin_id":"a","value_bin_file":"g"}]})",
                          R"({"value_bins":[{"value_bin_id":"a","value_bin_file":"f"}]} trailing)",
                          R"({"value_bins":[{"value_bin_id":"a","value_bin_file":"f\u0000"}]})",
                          R"({"value_bins":[{"value_bin_id":"a","value_bin_file":"f)", R"({"value_bins":[{"value_bin_id":1}]})"}) {
    auto r = ParseValueBins(bad);
    EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument) << bad;
    EXPECT_NE(r.status().message().find("ge.exec.value_bins"), std::string::npos) << bad;
  }
}

TEST(ValueBins, RepeatedKeyIsRefused) {
  for (const char* key : {"value_bin_id", "value_bin_file"}) {
    const std::string json =
        std::string(R"({"value_bins":[{"value_bin_id":"a","value_bin_file":"f",")") + key + R"(":"g"}]})";
    auto r = ParseValueBins(json);
    EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument) << json;
    EXPECT_NE(r.status().message().find("repeated key '" + std::string(key) + "'"), std::string::npos)
        << r.status().ToString();
  }
}

TEST(ValueBins, StringEndingInABackslashIsUnterminated) {
  auto r = ParseValueBins(R"({"value_bins":[{"value_bin_id":"a\)");
  EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(r.status().message().find("unterminated string"), std::string::npos) << r.status().ToString();
}

}  // namespace
}  // namespace ge::om
