#include "kernels/dnnl/dnnl_test_util.h"

namespace ge::dnnl_kernels::testing {
namespace {

TEST(DnnlSoftmax, Axes) {
  std::mt19937 rng(41);
  for (const char* op : {"Softmax", "LogSoftmax"}) {
    for (int64_t axis : {-1, 0, 1, 2}) {
      SCOPED_TRACE(std::string(op) + " axis " + std::to_string(axis));
      Case c(op, {RandomTensor({3, 4, 5}, rng)}, {}, Attrs({{"axis", AV::Int(axis)}}));
      ExpectDnnlMatchesRef(c);
      c.opset = 11;  // coerced to 2-D at axis
      ExpectDnnlMatchesRef(c);
    }
    Case d(op, {RandomTensor({2, 1000}, rng, -10, 10)});
    ExpectDnnlMatchesRef(d);
    d.opset = 12;
    ExpectDnnlMatchesRef(d);
  }
}

// Over a middle axis (a segmentation head's channels) the softmax runs optimized on a transposed buffer, never on
// oneDNN's reference loop.
TEST(DnnlSoftmax, MiddleAxisIsNotReference) {
  std::mt19937 rng(43);
  for (const char* op : {"Softmax", "LogSoftmax"}) {
    for (const Dims& x : {Dims{1, 21, 16, 16}, Dims{2, 7, 3, 5}, Dims{1, 5, 33}}) {
      Case c(op, {RandomTensor(x, rng, -8, 8)}, {}, Attrs({{"axis", AV::Int(1)}}));
      SCOPED_TRACE(CaseName(c));
      ExpectDnnlMatchesRef(c);
      auto p = PrepareCase(c);
      ASSERT_TRUE(p.ok() && (*p)->kernel != nullptr);
      EXPECT_EQ(std::string((*p)->kernel->impl_name()).find("ref"), std::string::npos) << (*p)->kernel->impl_name();
    }
  }
}

TEST(DnnlLayerNorm, AxesScaleAndBias) {
  std::mt19937 rng(42);
  for (int64_t axis : {-1, -2, 1}) {
    SCOPED_TRACE("axis " + std::to_string(axis));
    const Dims x = {2, 3, 16};
    const Dims tail(x.begin() + (axis < 0 ? axis + 3 : axis), x.end());
    ir::AttrMap a = Attrs({{"axis", AV::Int(axis)}, {"epsilon", AV::Float(1e-3f)}});
    ExpectDnnlMatchesRef(Case("LayerNormalization",
                              {RandomTensor(x, rng), RandomTensor(tail, rng), RandomTensor(tail, rng)},
                              {false, true, true}, a));
    ExpectDnnlMatchesRef(Case("LayerNormalization", {RandomTensor(x, rng), RandomTensor(tail, rng)}, {false, false},
                              a));
  }
  // A Scale without the normalized dims' leading unit dim still covers every normalized element.
  ExpectDnnlMatchesRef(Case("LayerNormalization", {RandomTensor({4, 1, 8}, rng), RandomTensor({8}, rng)}, {},
                            Attrs({{"axis", AV::Int(1)}})));
}

TEST(DnnlLayerNorm, Declines) {
  std::mt19937 rng(43);
  // Mean and InvStdDev outputs in use.
  Case c("LayerNormalization", {RandomTensor({2, 8}, rng), RandomTensor({8}, rng)});
  c.num_outputs = 3;
  ExpectDeclined(c);
  // Scale broadcast over the normalized dims.
  ExpectDeclined(Case("LayerNormalization", {RandomTensor({2, 3, 8}, rng), RandomTensor({8}, rng)}, {},
                      Attrs({{"axis", AV::Int(1)}})));
}

TEST(DnnlLayerNorm, UnusedStatisticsOutputs) {
  std::mt19937 rng(44);
  Case c("LayerNormalization", {RandomTensor({3, 10}, rng), RandomTensor({10}, rng), RandomTensor({10}, rng)});
  c.num_outputs = 3;
  c.output_present = {true, false, false};
  ExpectDnnlMatchesRef(c);
}

TEST(DnnlBatchNorm, Inference) {
  std::mt19937 rng(45);
  for (const Dims& x : {Dims{2, 4, 5, 6}, Dims{3, 4}, Dims{2, 4, 7}, Dims{1, 4, 2, 3, 4}}) {
    Case c("BatchNormalization", {RandomTensor(x, rng), RandomTensor({4}, rng), RandomTensor({4}, rng),
                                  RandomTensor({4}, rng), RandomTensor({4}, rng, 0.5, 2)},
           {false, true, true, true, true}, Attrs({{"epsilon", AV::Float(1e-3f)}}));
    ExpectDnnlMatchesRef(c);
    c.is_const = {false, false, true, true, true};  // parameters not all constant: oneDNN's batch normalization
    ExpectDnnlMatchesRef(c);
  }
  Case t("BatchNormalization", {RandomTensor({2, 4, 3, 3}, rng), RandomTensor({4}, rng), RandomTensor({4}, rng),
                                RandomTensor({4}, rng), RandomTensor({4}, rng, 0.5, 2)},
         {}, Attrs({{"training_mode", AV::Int(1)}}));
  ExpectDeclined(t);
}

TEST(DnnlBatchNorm, FusedActivation) {
  std::mt19937 rng(46);
  for (const char* act : {"Relu", "Sigmoid", "Clip"}) {
    ir::AttrMap a = Attrs({{"epsilon", AV::Float(1e-3f)}, {"activation", AV::String(act)}});
    if (std::string(act) == "Clip") a.Set("activation_params", AV::Floats({-0.5f, 0.75f}));
    Case c("FusedBatchNormalization",
           {RandomTensor({2, 4, 5, 6}, rng), RandomTensor({4}, rng), RandomTensor({4}, rng), RandomTensor({4}, rng),
            RandomTensor({4}, rng, 0.5, 2)},
           {false, true, true, true, true}, a, "ge");
    c.opset = 1;
    ExpectDnnlMatchesRef(c);
  }
}

}  // namespace
}  // namespace ge::dnnl_kernels::testing
