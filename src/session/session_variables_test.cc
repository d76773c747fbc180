// Session variables declared by several graphs: a declaration with another byte size is refused.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ge/session.h"

namespace ge {
namespace {

Graph ReadsW(const std::string& name, int64_t n) {
  Graph g(name);
  auto w = g.Variable("w", DataType::kFloat, {n});
  auto two = g.Constant("two", Tensor::Scalar<float>(2.0f));
  g.AddOutput(g.Op1("Mul", {w, two}));
  return g;
}

// A graph that declares a session variable with another byte size than it holds is refused, naming both descs;
// the graph compiled for the variable keeps reading all of it. (Same bytes in another shape stay allowed.)
TEST(SessionVariables, AVariableRedeclaredWithOtherBytesIsRefused) {
  ASSERT_TRUE(GEInitialize().ok());
  Session s;
  ASSERT_TRUE(s.AddGraph(1, ReadsW("three", 3)).ok());
  std::vector<Tensor> out;
  ASSERT_TRUE(s.RunGraph(1, {}, out).ok());
  ASSERT_TRUE(s.AddGraph(2, ReadsW("four", 4)).ok());  // checked when it is built
  Status st = s.RunGraph(2, {}, out);
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument) << st.ToString();
  EXPECT_NE(st.message().find("variable 'w' is float32[3]"), std::string::npos) << st.ToString();
  EXPECT_NE(st.message().find("float32[4]"), std::string::npos) << st.ToString();
  ASSERT_TRUE(s.RunGraph(1, {}, out).ok());
  EXPECT_EQ(out[0].dims(), (Dims{3}));
}

}  // namespace
}  // namespace ge
