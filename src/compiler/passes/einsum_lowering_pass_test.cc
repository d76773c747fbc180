#include <gtest/gtest.h>

#include "compiler/passes/pass_test_util.h"
#include "compiler/passes/passes.h"

namespace ge::compiler {
namespace {

using testing::ModelsAgree;
using testing::Parse;
using testing::RunOnePass;

std::string Net(const std::string& inputs, const std::string& body) {
  return "opset \"\" 17\ngraph net(" + inputs + ") {\n  " + body + "\n  return %y\n}";
}

int CountOps(const ir::Graph& g, ops::OpId op) {
  int n = 0;
  for (const ir::Node* node : g.nodes()) n += ops::IsOp(node, op) ? 1 : 0;
  return n;
}

struct Lowerable {
  const char* inputs;
  const char* equation;
  int transposes;  // expected Transpose nodes after lowering
};

// Matrix products in every arrangement real models write them: MaxViT's 5-D attention, batched and plain products,
// transposed operands, outer products, matrix-vector and dot products, several free or contracted labels, an
// ellipsis with broadcasting, and a one-input permutation. Each must leave no Einsum and agree with the reference
// Einsum on random inputs.
TEST(EinsumLoweringPass, MatrixProductsBecomeMatMul) {
  const Lowerable cases[] = {
      {"%a: float32[2,3,4,5,8], %b: float32[2,3,4,6,8]", "bghid,bghjd->bghij", 1},
      {"%a: float32[2,3,4,5,6], %b: float32[2,3,4,6,8]", "bghij,bghjd->bghid", 0},
      {"%a: float32[5,7], %b: float32[7,3]", "ij,jk->ik", 0},
      {"%a: float32[4,5,7], %b: float32[4,7,3]", "bij,bjk->bik", 0},
      {"%a: float32[5,7], %b: float32[3,7]", "ij,kj->ik", 1},
      {"%a: float32[7,5], %b: float32[7,3]", "ji,jk->ik", 1},
      {"%a: float32[4,5], %b: float32[4,3]", "bi,bj->bij", 0},
      {"%a: float32[5,7], %b: float32[7]", "ij,j->i", 0},
      {"%a: float32[7], %b: float32[7]", "i,i->", 0},
      {"%a: float32[2,3,7], %b: float32[7,4]", "abc,cd->abd", 0},
      {"%a: float32[2,3,7,5], %b: float32[5,7,4]", "abcd,dce->abe", 1},
      {"%a: float32[2,1,3,4], %b: float32[5,4,6]", "...ij,...jk->...ik", 2},
      {"%a: float32[1,8,6,4], %b: float32[1,8,5,4]", "bhid,bhjd->bhji", 2},
      {"%a: float32[3,5,7]", "abc->cab", 1},
  };
  for (const Lowerable& c : cases) {
    SCOPED_TRACE(c.equation);
    const bool two = std::string(c.inputs).find("%b") != std::string::npos;
    const std::string text =
        Net(c.inputs, std::string("e: %y = Einsum(%a") + (two ? ", %b" : "") + ") {equation=\"" + c.equation + "\"}");
    auto before = Parse(text);
    auto after = Parse(text);
    ASSERT_TRUE(before && after);
    auto r = RunOnePass(CreateEinsumLoweringPass(), *after);
    ASSERT_TRUE(r.status.ok()) << r.status.ToString();
    EXPECT_TRUE(r.changed);
    const ir::Graph& g = *after->graph;
    EXPECT_EQ(CountOps(g, ops::OpId::kEinsum), 0);
    EXPECT_EQ(CountOps(g, ops::OpId::kMatMul), two ? 1 : 0);
    EXPECT_EQ(CountOps(g, ops::OpId::kTranspose), c.transposes);
    EXPECT_TRUE(ModelsAgree(*before, *after, 1e-5));
  }
}

TEST(EinsumLoweringPass, LeavesWhatIsNotAProduct) {
  const char* cases[][2] = {
      {"%a: float32[4,4]", "ii->i"},                        // a diagonal
      {"%a: float32[4,5]", "ij->i"},                        // a sum over one input
      {"%a: float32[4,5], %b: float32[5,6]", "ij,jk->i"},   // k summed out of B alone
      {"%a: float32[4,5], %b: float32[4,5]", "ij,ij->ij"},  // element-wise
      {"%a: float32[4,?], %b: float32[?,6]", "ij,jk->ik"},  // unknown dims
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c[1]);
    const bool two = std::string(c[0]).find("%b") != std::string::npos;
    auto m = Parse(Net(c[0], std::string("e: %y = Einsum(%a") + (two ? ", %b" : "") + ") {equation=\"" + c[1] + "\"}"));
    ASSERT_NE(m, nullptr);
    auto r = RunOnePass(CreateEinsumLoweringPass(), *m);
    ASSERT_TRUE(r.status.ok()) << r.status.ToString();
    EXPECT_FALSE(r.changed);
  }
}

}  // namespace
}  // namespace ge::compiler
