#include "ops/concat_bytes.h"

#include <gtest/gtest.h>

#include "ir/text_parser.h"

namespace ge::ops {
namespace {

// Whether the only Concat of a graph |x| -> Concat(inputs...) joins bytes once its values are given |format|.
bool Joins(const std::string& text, Format format) {
  auto m = ir::ParseModelText(text);
  EXPECT_TRUE(m.ok()) << m.status().ToString();
  if (!m.ok()) return false;
  const ir::Node* concat = nullptr;
  for (ir::Node* n : (*m)->graph->nodes()) {
    if (n->op_type() == "Concat") concat = n;
    for (ir::Value* v : n->outputs()) v->desc().format = format;
    for (int i = 0; i < n->num_inputs(); ++i) n->input(i)->desc().format = format;
  }
  return concat != nullptr && ConcatJoinsBytes(*concat);
}

std::string Graph(const std::string& a, const std::string& b, const std::string& out, int axis) {
  return "opset \"\" 17\ngraph g(%x: float32" + a + ", %y: float32" + b + ") {\n  ex: %e: float32" + a +
         " = Exp(%x)\n  ey: %f: float32" + b + " = Exp(%y)\n  cat: %z: float32" + out +
         " = Concat(%e, %f) {axis=" + std::to_string(axis) + "}\n  return %z\n}\n";
}

TEST(ConcatJoinsBytes, PlainWhenEveryDimBeforeTheAxisIsOne) {
  EXPECT_TRUE(Joins(Graph("[1,3,5,5]", "[1,7,5,5]", "[1,10,5,5]", 1), Format::kNCHW));
  EXPECT_TRUE(Joins(Graph("[1,3,5,5]", "[1,7,5,5]", "[1,10,5,5]", -3), Format::kND));
  EXPECT_TRUE(Joins(Graph("[2,3]", "[4,3]", "[6,3]", 0), Format::kND));
  EXPECT_TRUE(Joins(Graph("[1,3,9]", "[1,5,9]", "[1,8,9]", 1), Format::kNCHW));
  EXPECT_TRUE(Joins(Graph("[1,1,4,5]", "[1,1,2,5]", "[1,1,6,5]", 2), Format::kNCHW));
  EXPECT_FALSE(Joins(Graph("[2,3,5,5]", "[2,7,5,5]", "[2,10,5,5]", 1), Format::kNCHW));  // batch 2
  EXPECT_FALSE(Joins(Graph("[1,3,4,5]", "[1,3,2,5]", "[1,3,6,5]", 2), Format::kNCHW));   // rows of each channel
  EXPECT_FALSE(Joins(Graph("[1,3,5,5]", "[1,7,5,5]", "[1,10,5,5]", 1), Format::kNHWC));
}

TEST(ConcatJoinsBytes, BlockedOnlyAlongChannelsInWholeBlocks) {
  const Format c16 = Format::kNC1HWC0;
  const Format c8 = WithC0(Format::kNC1HWC0, 8);
  EXPECT_TRUE(Joins(Graph("[1,16,5,5]", "[1,32,5,5]", "[1,48,5,5]", 1), c16));
  EXPECT_TRUE(Joins(Graph("[1,16,5]", "[1,32,5]", "[1,48,5]", 1), c16));
  EXPECT_TRUE(Joins(Graph("[1,8,5,5]", "[1,24,5,5]", "[1,32,5,5]", 1), c8));
  EXPECT_FALSE(Joins(Graph("[1,8,5,5]", "[1,24,5,5]", "[1,32,5,5]", 1), c16));   // partial blocks of 16
  EXPECT_FALSE(Joins(Graph("[1,32,5,5]", "[1,12,5,5]", "[1,44,5,5]", 1), c16));  // the last one too
  EXPECT_FALSE(Joins(Graph("[2,16,5,5]", "[2,32,5,5]", "[2,48,5,5]", 1), c16));
  EXPECT_FALSE(Joins(Graph("[1,16,1,5]", "[1,16,2,5]", "[1,16,3,5]", 2), c16));
}

TEST(ConcatJoinsBytes, MixedFormatsOrAnotherOpDoNot) {
  auto m = ir::ParseModelText(Graph("[1,16,5,5]", "[1,16,5,5]", "[1,32,5,5]", 1)).value();
  for (ir::Node* n : m->graph->nodes()) {
    if (n->op_type() != "Concat") continue;
    EXPECT_TRUE(ConcatJoinsBytes(*n));
    n->input(0)->desc().format = Format::kNCHW;  // ND and NCHW: both row-major
    EXPECT_TRUE(ConcatJoinsBytes(*n));
    n->input(0)->desc().format = Format::kNC1HWC0;
    EXPECT_FALSE(ConcatJoinsBytes(*n));
    n->input(0)->desc().format = Format::kNHWC;
    EXPECT_FALSE(ConcatJoinsBytes(*n));
    n->output(0)->desc().format = Format::kNC1HWC0;
    for (int i = 0; i < n->num_inputs(); ++i) n->input(i)->desc().format = Format::kNC1HWC0;
    EXPECT_TRUE(ConcatJoinsBytes(*n));
    n->input(1)->desc().format = WithC0(Format::kNC1HWC0, 8);  // another block
    EXPECT_FALSE(ConcatJoinsBytes(*n));
  }
  for (ir::Node* n : m->graph->nodes()) {
    if (n->op_type() == "Exp") EXPECT_FALSE(ConcatJoinsBytes(*n));
  }
}

}  // namespace
}  // namespace ge::ops
