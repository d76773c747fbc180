// FileConstant nodes in a session graph (seed 000 "FileConstant 外置权重"): read from their file in place — by
// file_path, or by file_id through ge.exec.value_bins — planned as constants (no task reads the file per run), and
// clear errors for an unknown id, a malformed option and a file that changed.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <unistd.h>
#include <string>
#include <vector>

#include "ge/session.h"

namespace ge {
namespace {

class FileConstantTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { ASSERT_TRUE(GEInitialize().ok()); }
  void SetUp() override {
    path_ = ::testing::TempDir() + "/ge_file_constant_" + std::to_string(::getpid()) + ".bin";
    std::ofstream f(path_, std::ios::binary);
    f.write("0123456", 7);  // an unaligned offset, as ONNX external data often has
    const float w[4] = {1.5f, -2, 4, 0.25f};
    f.write(reinterpret_cast<const char*>(w), sizeof w);
  }
  void TearDown() override { std::remove(path_.c_str()); }

  // out = x * file constant [4]
  Graph Scale(const Attrs& where) {
    Graph g("scale");
    auto x = g.Input("x", DataType::kFloat, {4});
    Attrs attrs = where;
    attrs.emplace("dtype", static_cast<int64_t>(DataType::kFloat));
    attrs.emplace("shape", std::vector<int64_t>{4});
    attrs.emplace("offset", static_cast<int64_t>(7));
    attrs.emplace("length", static_cast<int64_t>(16));
    auto w = g.Op("FileConstant", {}, attrs, 1, "ge")[0];
    g.AddOutput(g.Op1("Mul", {x, w}));
    return g;
  }
  std::string Bins(const std::string& id) const {
    return R"({"value_bins":[{"value_bin_id":")" + id + R"(","value_bin_file":")" + path_ + R"("}]})";
  }

  std::string path_;
};

std::vector<float> Values(const Tensor& t) { return {t.data<float>(), t.data<float>() + t.numel()}; }

TEST_F(FileConstantTest, ByPathAndById) {
  const Tensor x = Tensor::FromVector<float>({1, 2, 3, 4}, {4});
  for (int by_id = 0; by_id < 2; ++by_id) {
    Options options;
    if (by_id) options["ge.exec.value_bins"] = Bins("weights");
    Session s(options);
    ASSERT_TRUE(s.status().ok()) << s.status().ToString();
    ASSERT_TRUE(s.AddGraph(1, Scale(by_id ? Attrs{{"file_id", "weights"}} : Attrs{{"file_path", path_}})).ok());
    std::vector<Tensor> out;
    Status st = s.RunGraph(1, {x}, out);
    ASSERT_TRUE(st.ok()) << st.ToString();
    EXPECT_EQ(Values(out[0]), (std::vector<float>{1.5f, -4, 12, 1})) << "by_id " << by_id;
    CompiledGraphSummary summary;
    ASSERT_TRUE(s.GetCompiledGraphSummary(1, &summary).ok());
    EXPECT_LT(summary.const_memory_size, 16u);  // the weights stay in the file
  }
}

TEST_F(FileConstantTest, ErrorsNameTheProblem) {
  const Tensor x = Tensor::FromVector<float>({1, 2, 3, 4}, {4});
  std::vector<Tensor> out;
  {
    Session s;  // no value_bins: the id names no file
    ASSERT_TRUE(s.AddGraph(1, Scale({{"file_id", "weights"}})).ok());
    Status st = s.RunGraph(1, {x}, out);
    EXPECT_EQ(st.code(), StatusCode::kNotFound) << st.ToString();
    EXPECT_NE(st.message().find("ge.exec.value_bins"), std::string::npos) << st.message();
  }
  {
    Session s(Options{{std::string("ge.exec.value_bins"), std::string("{\"value_bins\":[")}});
    EXPECT_EQ(s.status().code(), StatusCode::kInvalidArgument) << s.status().ToString();
  }
  {
    Session s;
    ASSERT_TRUE(s.AddGraph(1, Scale({{"file_path", path_ + ".missing"}})).ok());
    Status st = s.RunGraph(1, {x}, out);
    EXPECT_EQ(st.code(), StatusCode::kNotFound) << st.ToString();
    EXPECT_NE(st.message().find(".missing"), std::string::npos) << st.message();
  }
}

}  // namespace
}  // namespace ge
