// Session variables in graphs with dynamic shapes (runtime v2): a training step at a symbolic batch size reads
// and writes the session's variables in place, and the session's static graphs (runtime v1) see every write.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "ge/session.h"
#include "session/packed_matmul_check.h"

namespace ge {
namespace {

class DynamicVariablesTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { ASSERT_TRUE(GEInitialize().ok()); }
};

constexpr int64_t kFeatures = 4;
constexpr float kLearningRate = 0.05f;

// One SGD step of a linear model on a batch of any size: pred = x·W + b, err = pred - t, loss = sum(err²);
// W -= lr·xᵀ·err, b -= lr·sum(err), steps += 1. Outputs: loss and the step count after the write.
Graph SgdStep() {
  Graph g("sgd_step");
  Tensor w0 = Tensor::FromVector<float>({0.5f, -0.25f, 1.0f, 0.125f}, {kFeatures, 1});
  Tensor zero = Tensor::Scalar<int64_t>(0);
  auto x = g.Input("x", DataType::kFloat, {-1, kFeatures});
  auto t = g.Input("t", DataType::kFloat, {-1, 1});
  auto w = g.Variable("W", DataType::kFloat, {kFeatures, 1}, &w0);
  auto b = g.Variable("b", DataType::kFloat, {1});  // zeros
  auto steps = g.Variable("steps", DataType::kInt64, {}, &zero);
  auto lr = g.Constant("lr", Tensor::Scalar<float>(kLearningRate));
  auto pred = g.Op1("Add", {g.Op1("MatMul", {x, w}), b});
  auto err = g.Op1("Sub", {pred, t});
  auto loss = g.Op1("ReduceSum", {g.Op1("Mul", {err, err})}, {{"keepdims", 0}});
  auto xt = g.Op1("Transpose", {x}, {{"perm", std::vector<int64_t>{1, 0}}});
  auto grad_w = g.Op1("Mul", {g.Op1("MatMul", {xt, err}), lr});
  auto axes = g.Constant("axes", Tensor::FromVector<int64_t>({0}, {1}));
  auto grad_b = g.Op1("Mul", {g.Op1("ReduceSum", {err, axes}, {{"keepdims", 0}}), lr});
  g.AssignSub(w, grad_w);
  g.AssignSub(b, grad_b);
  auto after = g.AssignAdd(steps, g.Constant("one", Tensor::Scalar<int64_t>(1)));
  g.AddOutput(loss);
  g.AddOutput(after);
  return g;
}

// Static: y = x·W + b at a batch of 2 (runtime v1, the same variables).
Graph Predict2() {
  Graph g("predict2");
  auto x = g.Input("x", DataType::kFloat, {2, kFeatures});
  auto w = g.Variable("W", DataType::kFloat, {kFeatures, 1});
  auto b = g.Variable("b", DataType::kFloat, {1});
  g.AddOutput(g.Op1("Add", {g.Op1("MatMul", {x, w}), b}));
  return g;
}

Tensor Random(std::mt19937* rng, std::vector<int64_t> dims) {
  std::normal_distribution<float> dist(0.f, 1.f);
  int64_t n = 1;
  for (int64_t d : dims) n *= d;
  std::vector<float> v(static_cast<size_t>(n));
  for (float& f : v) f = dist(*rng);
  return Tensor::FromVector<float>(v, dims);
}

// What the step computes, in double: the oracle.
struct Linear {
  std::vector<double> w{0.5, -0.25, 1.0, 0.125};
  double b = 0;
  int64_t steps = 0;

  double Predict(const float* row) const {
    double p = b;
    for (int64_t j = 0; j < kFeatures; ++j) p += row[j] * w[static_cast<size_t>(j)];
    return p;
  }
  double Step(const Tensor& x, const Tensor& t) {
    const int64_t rows = x.dims()[0];
    double loss = 0, grad_b = 0;
    std::vector<double> grad_w(kFeatures, 0.0);
    for (int64_t r = 0; r < rows; ++r) {
      const double err = Predict(x.data<float>() + r * kFeatures) - t.data<float>()[r];
      loss += err * err;
      grad_b += err;
      for (int64_t j = 0; j < kFeatures; ++j) grad_w[static_cast<size_t>(j)] += x.data<float>()[r * kFeatures + j] * err;
    }
    for (size_t j = 0; j < w.size(); ++j) w[j] -= kLearningRate * grad_w[j];
    b -= kLearningRate * grad_b;
    ++steps;
    return loss;
  }
};

void ExpectNear(double want, float got, const std::string& what) {
  ASSERT_TRUE(std::isfinite(got)) << what;
  EXPECT_NEAR(got, want, 1e-4 * (1 + std::fabs(want))) << what;
}

TEST_F(DynamicVariablesTest, TrainingStepAtAnyBatchSizeUpdatesTheSessionsVariables) {
  Session s;
  ASSERT_TRUE(s.AddGraph(1, SgdStep()).ok());
  ASSERT_TRUE(s.AddGraph(2, Predict2()).ok());
  std::mt19937 rng(7);
  Linear oracle;
  for (int64_t rows : {1, 5, 3, 64, 5, 2}) {
    Tensor x = Random(&rng, {rows, kFeatures});
    Tensor t = Random(&rng, {rows, 1});
    const double loss = oracle.Step(x, t);
    std::vector<Tensor> out;
    Status st = s.RunGraph(1, {x, t}, out);
    ASSERT_TRUE(st.ok()) << st.ToString();
    ASSERT_EQ(out.size(), 2u);
    ExpectNear(loss, out[0].data<float>()[0], "loss at batch " + std::to_string(rows));
    ASSERT_EQ(out[1].dtype(), DataType::kInt64);
    EXPECT_EQ(out[1].data<int64_t>()[0], oracle.steps);

    // The static graph (runtime v1) reads what the dynamic one wrote.
    Tensor x2 = Random(&rng, {2, kFeatures});
    std::vector<Tensor> pred;
    st = s.RunGraph(2, {x2}, pred);
    ASSERT_TRUE(st.ok()) << st.ToString();
    for (int64_t r = 0; r < 2; ++r) {
      ExpectNear(oracle.Predict(x2.data<float>() + r * kFeatures), pred.at(0).data<float>()[r], "prediction");
    }
  }
  std::vector<std::string> names{"W", "b", "steps"};
  std::vector<Tensor> values;
  ASSERT_TRUE(s.GetVariables(names, values).ok());
  ASSERT_EQ(values.size(), 3u);
  for (size_t j = 0; j < oracle.w.size(); ++j) ExpectNear(oracle.w[j], values[0].data<float>()[j], "W");
  ExpectNear(oracle.b, values[1].data<float>()[0], "b");
  EXPECT_EQ(values[2].data<int64_t>()[0], oracle.steps);
}

// A static graph's write is what the next dynamic run reads.
TEST_F(DynamicVariablesTest, DynamicGraphReadsWhatAStaticGraphWrote) {
  Session s;
  Graph reset("reset");
  auto w = reset.Variable("W", DataType::kFloat, {kFeatures, 1});
  reset.AddOutput(reset.Assign(w, reset.Constant("w1", Tensor::FromVector<float>({1, 2, 3, 4}, {kFeatures, 1}))));
  Graph read("read");
  auto x = read.Input("x", DataType::kFloat, {-1, kFeatures});
  read.AddOutput(read.Op1("MatMul", {x, read.Variable("W", DataType::kFloat, {kFeatures, 1})}));
  ASSERT_TRUE(s.AddGraph(1, read).ok());
  ASSERT_TRUE(s.AddGraph(2, reset).ok());
  std::vector<Tensor> out;
  Tensor ones = Tensor::FromVector<float>(std::vector<float>(3 * kFeatures, 1.f), {3, kFeatures});
  ASSERT_TRUE(s.RunGraph(1, {ones}, out).ok());  // zeros: never written
  for (int64_t r = 0; r < 3; ++r) EXPECT_EQ(out.at(0).data<float>()[r], 0.f);
  ASSERT_TRUE(s.RunGraph(2, {}, out).ok());
  ASSERT_TRUE(s.RunGraph(1, {ones}, out).ok());
  ASSERT_EQ(out.at(0).dims(), (std::vector<int64_t>{3, 1}));
  for (int64_t r = 0; r < 3; ++r) EXPECT_EQ(out.at(0).data<float>()[r], 10.f);
}


// A static MatMul keeps its variable operand packed per write version: a dynamic graph's write must reach it.
TEST_F(DynamicVariablesTest, StaticReadersOfAPackedVariableSeeDynamicWrites) {
  Session s;
  std::vector<float> w_values(64 * 48);
  for (size_t i = 0; i < w_values.size(); ++i) w_values[i] = static_cast<float>(i % 7) * 0.25f - 0.5f;
  const Tensor w0 = Tensor::FromVector<float>(w_values, {64, 48});
  Graph mm("mm");
  mm.AddOutput(mm.Op1("MatMul", {mm.Input("x", DataType::kFloat, {4, 64}),
                                 mm.Variable("w", DataType::kFloat, {64, 48}, &w0)}));
  Graph grow("grow");  // w += the sum over a batch of any size of step tensors
  auto steps = grow.Input("steps", DataType::kFloat, {-1, 64, 48});
  auto axes = grow.Constant("axes", Tensor::FromVector<int64_t>({0}, {1}));
  grow.AddOutput(grow.AssignAdd(grow.Variable("w", DataType::kFloat, {64, 48}),
                                grow.Op1("ReduceSum", {steps, axes}, {{"keepdims", 0}})));
  ASSERT_TRUE(s.AddGraph(1, mm).ok());
  ASSERT_TRUE(s.AddGraph(2, grow).ok());
  auto check = [&](float scale) { testing::ExpectPackedMatMulScaled(s, w_values, scale); };
  auto grow_by = [&](int64_t copies) {
    std::vector<float> v;
    for (int64_t c = 0; c < copies; ++c) v.insert(v.end(), w_values.begin(), w_values.end());
    std::vector<Tensor> out;
    Status st = s.RunGraph(2, {Tensor::FromVector<float>(v, {copies, 64, 48})}, out);
    ASSERT_TRUE(st.ok()) << st.ToString();
  };
  check(1);
  grow_by(1);
  check(2);
  grow_by(3);
  check(5);
}

// Variable acceleration stored a variable in another desc for a static graph: a dynamic graph, which reads
// variables as declared, is refused naming the variable, both descs and the option that avoids it.
TEST_F(DynamicVariablesTest, AVariableStoredInAnotherDescIsAClearError) {
  Session s;
  Tensor w0 = Tensor::FromVector<float>({1, 2, 3, 4}, {4});
  Graph half("half");
  half.AddOutput(half.Op1("Cast", {half.Variable("w", DataType::kFloat, {4}, &w0)},
                          {{"to", static_cast<int64_t>(DataType::kFloat16)}}));
  Graph read("read");
  read.AddOutput(read.Op1("Add", {read.Input("x", DataType::kFloat, {-1, 4}),
                                  read.Variable("w", DataType::kFloat, {4})}));
  ASSERT_TRUE(s.AddGraph(1, half).ok());
  ASSERT_TRUE(s.AddGraph(2, read).ok());
  std::vector<Tensor> out;
  ASSERT_TRUE(s.RunGraph(1, {}, out).ok());
  Status st = s.RunGraph(2, {Tensor::FromVector<float>({0, 0, 0, 0}, {1, 4})}, out);
  if (st.ok()) GTEST_SKIP() << "variable acceleration kept w as declared: nothing to refuse";
  EXPECT_EQ(st.code(), StatusCode::kFailedPrecondition) << st.ToString();
  EXPECT_NE(st.message().find("'w'"), std::string::npos) << st.ToString();
  EXPECT_NE(st.message().find("ge.exec.variable_acc=0"), std::string::npos) << st.ToString();

  Session plain(Options{{"ge.exec.variable_acc", "0"}});
  ASSERT_TRUE(plain.AddGraph(1, half).ok());
  ASSERT_TRUE(plain.AddGraph(2, read).ok());
  ASSERT_TRUE(plain.RunGraph(1, {}, out).ok());
  st = plain.RunGraph(2, {Tensor::FromVector<float>({0, 0, 0, 0}, {1, 4})}, out);
  ASSERT_TRUE(st.ok()) << st.ToString();
  for (int j = 0; j < 4; ++j) EXPECT_EQ(out.at(0).data<float>()[j], static_cast<float>(j + 1));
}

// The same rule for a dynamic graph compiled with CompileGraph, also once it has run: a later change of a shared
// variable's desc by another graph's compile reaches its next RunGraph (refused as above), never a stale model that
// reads the old bytes.
TEST_F(DynamicVariablesTest, ACompiledDynamicGraphSeesALaterDescChangeOfItsVariable) {
  for (const bool ran_before : {false, true}) {
    SCOPED_TRACE(ran_before ? "ran before the change" : "compiled, not run, before the change");
    Session s;
    Tensor w0 = Tensor::FromVector<float>({1, 2, 3, 4}, {4});
    Graph read("read");
    read.AddOutput(
        read.Op1("Sub", {read.Input("x", DataType::kFloat, {-1, 4}), read.Variable("w", DataType::kFloat, {4}, &w0)}));
    Graph half("half");  // w = 2 * w through float16: its compile stores w as float16
    auto w = half.Variable("w", DataType::kFloat, {4});
    auto h = half.Op1("Cast", {w}, {{"to", static_cast<int64_t>(DataType::kFloat16)}});
    half.AddOutput(half.Op1("Cast", {h}, {{"to", static_cast<int64_t>(DataType::kFloat)}}));
    half.Assign(w, half.Op1("Cast", {half.Op1("Add", {h, h})}, {{"to", static_cast<int64_t>(DataType::kFloat)}}));
    ASSERT_TRUE(s.AddGraph(2, read).ok());
    ASSERT_TRUE(s.CompileGraph(2).ok());
    const Tensor x = Tensor::FromVector<float>({0, 0, 0, 0}, {1, 4});
    std::vector<Tensor> out;
    if (ran_before) {
      ASSERT_TRUE(s.RunGraph(2, {x}, out).ok());
      EXPECT_EQ(out.at(0).data<float>()[3], -4.0f);
    }
    ASSERT_TRUE(s.AddGraph(1, half).ok());
    ASSERT_TRUE(s.RunGraph(1, {}, out).ok());
    if (!s.IsGraphNeedRebuild(2)) GTEST_SKIP() << "variable acceleration kept w as declared: nothing changed";
    out.clear();
    Status st = s.RunGraph(2, {x}, out);
    EXPECT_EQ(st.code(), StatusCode::kFailedPrecondition) << st.ToString();
    EXPECT_NE(st.message().find("ge.exec.variable_acc=0"), std::string::npos) << st.ToString();
    EXPECT_TRUE(out.empty());
  }
}

}  // namespace
}  // namespace ge
