// ModelV2 against the reference interpreter (the oracle) on fresh random inputs: static graphs, symbolic dims at
// changing sizes (kernels prepared once per shape, then reused), value-dependent shapes (Reshape of a computed
// shape), data-dependent ones (NonZero), control flow with captures, sequences; bad inputs are clear errors.
#include "runtime/v2/model_v2.h"

#include <gtest/gtest.h>

#include <random>

#include "base/compare.h"
#include "interpreter/interpreter.h"
#include "ir/text_parser.h"

namespace ge::runtime::v2 {
namespace {

Tensor RandomTensor(DataType dt, const Dims& dims, std::mt19937_64& rng) {
  Tensor t = std::move(Tensor::Create(dt, dims)).value();
  std::uniform_real_distribution<float> u(-2.f, 2.f);
  for (int64_t i = 0; i < t.numel(); ++i) {
    if (dt == DataType::kFloat) t.data<float>()[i] = u(rng);
    if (dt == DataType::kInt64) t.data<int64_t>()[i] = static_cast<int64_t>(rng() % 5);
    if (dt == DataType::kBool) t.data<bool>()[i] = (rng() & 1) != 0;
  }
  return t;
}

struct Pair {
  std::unique_ptr<ir::Model> oracle_model;
  std::unique_ptr<Interpreter> oracle;
  std::unique_ptr<ModelV2> v2;
};

Pair Load(const std::string& text, ModelV2Options options = {}) {
  Pair p;
  auto a = ir::ParseModelText(text);
  auto b = ir::ParseModelText(text);
  EXPECT_TRUE(a.ok() && b.ok()) << a.status().ToString();
  p.oracle_model = std::move(*a);
  p.oracle = std::move(Interpreter::Create(p.oracle_model.get())).value();
  auto m = ModelV2::Load(std::move(*b), options);
  EXPECT_TRUE(m.ok()) << m.status().ToString();
  if (m.ok()) p.v2 = std::move(*m);
  return p;
}

void ExpectSameValue(const Value& got, const Value& want, const std::string& what) {
  ASSERT_EQ(got.kind, want.kind) << what;
  if (want.is_tensor()) {
    Status s = CompareTensors(got.tensor, want.tensor, Tolerance{1e-5, 1e-5}, what);
    EXPECT_TRUE(s.ok()) << s.ToString();
  } else if (want.is_sequence()) {
    ASSERT_EQ(got.sequence.size(), want.sequence.size()) << what;
    for (size_t i = 0; i < want.sequence.size(); ++i) {
      Status s = CompareTensors(got.sequence[i], want.sequence[i], Tolerance{1e-5, 1e-5}, what);
      EXPECT_TRUE(s.ok()) << s.ToString();
    }
  }
}

void ExpectMatchesOracle(Pair& p, const std::vector<Value>& inputs) {
  std::vector<Value> want, got;
  Status so = p.oracle->Run(inputs, &want);
  ASSERT_TRUE(so.ok()) << so.ToString();
  Status sv = p.v2->Execute(inputs, &got);
  ASSERT_TRUE(sv.ok()) << sv.ToString();
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) ExpectSameValue(got[i], want[i], "output " + std::to_string(i));
}

TEST(ModelV2, StaticGraphMatchesTheInterpreter) {
  Pair p = Load(R"(opset "" 17
graph g(%x: float32[2,3], %y: float32[3,4]) {
  const %w: float32[3] = [1, -2, 0.5]
  a: %a = Add(%x, %w)
  r: %r = Relu(%a)
  m: %m = MatMul(%r, %y)
  s: %s = Softmax(%m) {axis = -1}
  return %s, %a
})");
  ASSERT_NE(p.v2, nullptr);
  EXPECT_EQ(p.v2->stats().compute_dynamic, 0u);
  EXPECT_EQ(p.v2->stats().compute_static, 4u);
  std::mt19937_64 rng(1);
  for (int i = 0; i < 3; ++i) {
    ExpectMatchesOracle(p, {Value(RandomTensor(DataType::kFloat, {2, 3}, rng)),
                            Value(RandomTensor(DataType::kFloat, {3, 4}, rng))});
  }
  EXPECT_EQ(p.v2->kernels_prepared(), 4u);  // in Init, once
}

TEST(ModelV2, SymbolicDimsPrepareOncePerShape) {
  Pair p = Load(R"(opset "" 17
graph g(%x: float32[?,4]) {
  const %w: float32[4,2] = [1, 2, 3, 4, 5, 6, 7, 8]
  m: %m = MatMul(%x, %w)
  t: %t = Tanh(%m)
  sh: %sh = Shape(%x)
  const %zero: int64[1] = [0]
  g0: %b = Gather(%sh, %zero) {axis = 0}
  const %two: int64[1] = [2]
  c: %newshape = Concat(%two, %b) {axis = 0}
  tr: %tt = Transpose(%t) {perm = [1, 0]}
  rs: %r = Reshape(%tt, %newshape)
  return %r
})");
  ASSERT_NE(p.v2, nullptr);
  EXPECT_GT(p.v2->stats().compute_dynamic, 0u);
  std::mt19937_64 rng(2);
  for (int64_t n : {1, 3, 1, 7, 3}) ExpectMatchesOracle(p, {Value(RandomTensor(DataType::kFloat, {n, 4}, rng))});
  const uint64_t after_three_sizes = p.v2->kernels_prepared();
  for (int64_t n : {1, 3, 7, 7, 1}) ExpectMatchesOracle(p, {Value(RandomTensor(DataType::kFloat, {n, 4}, rng))});
  EXPECT_EQ(p.v2->kernels_prepared(), after_three_sizes);  // repeated shapes reuse the cached kernels
}

// Kernels that are shape-agnostic for the graph's unknown dims (broadcasting Add, Transpose, a Reshape to a
// computed shape, a reference-adapter Softmax, oneDNN's MatMul with runtime dims) are prepared once, at the first
// run: a new length reuses them. The MatMul's agnostic kernel prefers a specialized one: a length that holds for
// three runs in a row gets its own kernel, once.
TEST(ModelV2, ShapeAgnosticKernelsArePreparedOnce) {
  Pair p = Load(R"(opset "" 17
graph g(%x: float32[?,4]) {
  const %b: float32[4] = [1, 2, 3, 4]
  a: %a = Add(%x, %b)
  const %w: float32[4,3] = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]
  mm: %m = MatMul(%a, %w) @dnnl
  tr: %t = Transpose(%m) {perm = [1, 0]}
  sm: %s = Softmax(%t) {axis = -1}
  sh: %sh = Shape(%x)
  const %zero: int64[1] = [0]
  g0: %n = Gather(%sh, %zero) {axis = 0}
  const %three: int64[1] = [3]
  const %one: int64[1] = [1]
  c: %newshape = Concat(%three, %n, %one) {axis = 0}
  rs: %r = Reshape(%s, %newshape)
  return %r
})");
  ASSERT_NE(p.v2, nullptr);
  std::mt19937_64 rng(3);
  auto run = [&](int64_t n) { ExpectMatchesOracle(p, {Value(RandomTensor(DataType::kFloat, {n, 4}, rng))}); };
  run(5);
  const uint64_t after_first = p.v2->kernels_prepared();
  // The text gives %sh no desc, so g0 and c start on the shape-agnostic ref adapter; their descs never change, and
  // after three runs they get the fixed-dims exec.gather and exec.concat (the ref adapter prefers them), once each.
  run(1);
  run(2);
  EXPECT_EQ(p.v2->kernels_prepared(), after_first + 2);
  for (int64_t n : {9, 17, 3, 40, 6, 11, 25, 33, 7}) run(n);
  EXPECT_EQ(p.v2->kernels_prepared(), after_first + 2);  // every new length on the shape-agnostic kernels
  run(12);
  run(12);
  EXPECT_EQ(p.v2->kernels_prepared(), after_first + 2);  // twice in a row: still the agnostic kernel
  run(12);
  EXPECT_EQ(p.v2->kernels_prepared(), after_first + 3);  // the MatMul specialized for a length that repeats
  run(12);
  run(8);
  run(12);
  EXPECT_EQ(p.v2->kernels_prepared(), after_first + 3);
}

// Shape-derived nodes (Shape → Gather → Concat, Range, the mask's Less) compute once per input shape: skipped while
// the shape repeats, recomputed when it changes; outputs stay right either way.
TEST(ModelV2, ShapeDerivedNodesRecomputeOnlyWhenAShapeChanges) {
  Pair p = Load(R"(opset "" 17
graph g(%x: float32[?,4]) {
  sh: %sh: int64[2] = Shape(%x)
  const %zero: int64[1] = [0]
  g0: %n: int64[1] = Gather(%sh, %zero) {axis = 0}
  const %s0: int64[] = [0]
  const %s1: int64[] = [1]
  sq: %ns: int64[] = Squeeze(%n)
  r: %idx: int64[?] = Range(%s0, %ns, %s1)
  const %two: int64[] = [2]
  l: %mask: bool[?] = Less(%idx, %two)
  const %four: int64[1] = [4]
  c: %newshape: int64[2] = Concat(%four, %n) {axis = 0}
  tr: %t = Transpose(%x) {perm = [1, 0]}
  rs: %r = Reshape(%t, %newshape)
  e: %e = Exp(%r)
  return %e, %mask
})");
  ASSERT_NE(p.v2, nullptr);
  EXPECT_EQ(p.v2->stats().memo_nodes, 6u);  // Shape, Gather, Squeeze, Range, Less, Concat (all of rank <= 1)
  std::mt19937_64 rng(9);
  uint64_t skips = p.v2->memo_skips();
  ExpectMatchesOracle(p, {Value(RandomTensor(DataType::kFloat, {3, 4}, rng))});
  EXPECT_EQ(p.v2->memo_skips(), skips);  // first run: computed
  ExpectMatchesOracle(p, {Value(RandomTensor(DataType::kFloat, {3, 4}, rng))});
  EXPECT_EQ(p.v2->memo_skips(), skips + 6);  // same shape: all six skipped, outputs still right
  skips = p.v2->memo_skips();
  ExpectMatchesOracle(p, {Value(RandomTensor(DataType::kFloat, {5, 4}, rng))});
  EXPECT_EQ(p.v2->memo_skips(), skips);  // a new shape: recomputed
  for (int64_t n : {5, 1, 1, 3, 5}) ExpectMatchesOracle(p, {Value(RandomTensor(DataType::kFloat, {n, 4}, rng))});
  // A Range of 1,000 int64 (8,000 bytes > kMemoKeepBytes) is released after each run: it and the Less reading it
  // recompute; the four small ones are skipped.
  ExpectMatchesOracle(p, {Value(RandomTensor(DataType::kFloat, {1000, 4}, rng))});
  skips = p.v2->memo_skips();
  ExpectMatchesOracle(p, {Value(RandomTensor(DataType::kFloat, {1000, 4}, rng))});
  EXPECT_EQ(p.v2->memo_skips(), skips + 4);
}

TEST(ModelV2, ShapeDerivedMatricesAreMemoizedToo) {
  // A causal mask as exporters write it: Range over the length, Unsqueezes, a comparison of rank 2; then Where
  // over the data (not shape-derived: runs every time).
  Pair p = Load(R"(opset "" 17
graph g(%x: float32[?,?]) {
  sh: %sh: int64[2] = Shape(%x)
  const %one_idx: int64[1] = [1]
  g1: %n: int64[1] = Gather(%sh, %one_idx) {axis = 0}
  sq: %ns: int64[] = Squeeze(%n)
  const %s0: int64[] = [0]
  const %s1: int64[] = [1]
  r: %idx: int64[?] = Range(%s0, %ns, %s1)
  const %a0: int64[1] = [0]
  const %a1: int64[1] = [1]
  u0: %row: int64[1,?] = Unsqueeze(%idx, %a0)
  u1: %col: int64[?,1] = Unsqueeze(%idx, %a1)
  gt: %mask: bool[?,?] = Greater(%row, %col)
  const %neg: float32[] = [-1000]
  w: %y = Where(%mask, %neg, %x)
  return %y
})");
  ASSERT_NE(p.v2, nullptr);
  EXPECT_EQ(p.v2->stats().memo_nodes, 7u);  // Shape, Gather, Squeeze, Range, both Unsqueezes, Greater
  std::mt19937_64 rng(3);
  ExpectMatchesOracle(p, {Value(RandomTensor(DataType::kFloat, {5, 5}, rng))});
  const uint64_t skips = p.v2->memo_skips();
  ExpectMatchesOracle(p, {Value(RandomTensor(DataType::kFloat, {5, 5}, rng))});
  EXPECT_EQ(p.v2->memo_skips(), skips + 7);
  for (int64_t n : {1, 7, 7, 2}) ExpectMatchesOracle(p, {Value(RandomTensor(DataType::kFloat, {n, n}, rng))});
}

// Output shapes are inferred again when any input's shape changed, also on nodes with more inputs than the fast
// path compares by version (a Concat of five, where only the last input changes).
TEST(ModelV2, ShapesAreInferredAgainWhenOnlyTheLastOfManyInputsChanges) {
  Pair p = Load(R"(opset "" 17
graph g(%a: float32[2], %b: float32[2], %c: float32[2], %d: float32[2], %e: float32[?]) {
  c: %y = Concat(%a, %b, %c, %d, %e) {axis = 0}
  return %y
})");
  ASSERT_NE(p.v2, nullptr);
  std::mt19937_64 rng(5);
  std::vector<Value> in;
  for (int i = 0; i < 4; ++i) in.push_back(Value(RandomTensor(DataType::kFloat, {2}, rng)));
  for (int64_t n : {3, 3, 5, 1, 5}) {
    std::vector<Value> run = in;
    run.push_back(Value(RandomTensor(DataType::kFloat, {n}, rng)));
    ExpectMatchesOracle(p, run);
  }
  // The last input going from [3] to a scalar (rank 0) broadcasts the output from [3] back to [1].
  Pair q = Load(R"(opset "" 17
graph g(%a: float32[1], %b: float32[1], %c: float32[1], %d: float32[1], %e: float32[*]) {
  m: %y = Max(%a, %b, %c, %d, %e)
  return %y
})");
  ASSERT_NE(q.v2, nullptr);
  in.clear();
  for (int i = 0; i < 4; ++i) in.push_back(Value(RandomTensor(DataType::kFloat, {1}, rng)));
  for (const Dims& e : {Dims{3}, Dims{}, Dims{3}, Dims{}}) {
    std::vector<Value> run = in;
    run.push_back(Value(RandomTensor(DataType::kFloat, e, rng)));
    ExpectMatchesOracle(q, run);
  }
}

TEST(ModelV2, DataDependentShapes) {
  Pair p = Load(R"(opset "" 17
graph g(%x: float32[?]) {
  const %zero: float32[] = [0]
  gt: %m = Greater(%x, %zero)
  nz: %i = NonZero(%m)
  sq: %s = Squeeze(%i)
  ga: %v = Gather(%x, %s) {axis = 0}
  n: %neg = Neg(%v)
  return %neg
})");
  ASSERT_NE(p.v2, nullptr);
  std::mt19937_64 rng(3);
  for (int64_t n : {5, 9, 5, 2}) ExpectMatchesOracle(p, {Value(RandomTensor(DataType::kFloat, {n}, rng))});
}

TEST(ModelV2, ControlFlowWithCaptures) {
  Pair p = Load(R"(opset "" 17
graph g(%c: bool[], %x: float32[?,2]) {
  const %w: float32[2] = [1, 2]
  e: %e = Exp(%x)
  if: %z = If(%c)
    then_branch = graph t() {
      a: %r = Add(%e, %w)
      return %r
    }
    else_branch = graph f() {
      const %n: int64[] = [3]
      const %t: bool[] = [true]
      loop: %acc = Loop(%n, %t, %x)
        body = graph body(%i: int64[], %cond: bool[], %a: float32[?,2]) {
          m: %s = Mul(%a, %w)
          return %cond, %s
        }
      return %acc
    }
  n: %o = Neg(%z)
  return %o
})");
  ASSERT_NE(p.v2, nullptr);
  EXPECT_EQ(p.v2->stats().control_nodes, 2u);
  std::mt19937_64 rng(4);
  for (int64_t n : {1, 4, 2}) {
    for (bool c : {true, false}) {
      Tensor cond = Tensor::Scalar<bool>(c);
      ExpectMatchesOracle(p, {Value(cond), Value(RandomTensor(DataType::kFloat, {n, 2}, rng))});
    }
  }
}

TEST(ModelV2, Sequences) {
  Pair p = Load(R"(opset "" 17
graph g(%x: float32[?,3], %y: float32[?,3]) {
  sc: %s = SequenceConstruct(%x, %y)
  r: %r = Relu(%x)
  si: %s2 = SequenceInsert(%s, %r)
  cf: %c = ConcatFromSequence(%s2) {axis = 0}
  return %c, %s2
})");
  ASSERT_NE(p.v2, nullptr);
  std::mt19937_64 rng(5);
  for (int64_t n : {2, 1}) {
    ExpectMatchesOracle(p, {Value(RandomTensor(DataType::kFloat, {n, 3}, rng)),
                            Value(RandomTensor(DataType::kFloat, {n + 1, 3}, rng))});
  }
}

TEST(ModelV2, OutputsAreReusedWhenShapesRepeat) {
  Pair p = Load(R"(opset "" 17
graph g(%x: float32[?]) {
  r: %r = Relu(%x)
  return %r
})");
  ASSERT_NE(p.v2, nullptr);
  std::mt19937_64 rng(6);
  std::vector<Value> out;
  ASSERT_TRUE(p.v2->Execute({Value(RandomTensor(DataType::kFloat, {8}, rng))}, &out).ok());
  const void* first = out[0].tensor.raw_data();
  ASSERT_TRUE(p.v2->Execute({Value(RandomTensor(DataType::kFloat, {8}, rng))}, &out).ok());
  EXPECT_EQ(out[0].tensor.raw_data(), first);
  ASSERT_TRUE(p.v2->Execute({Value(RandomTensor(DataType::kFloat, {3}, rng))}, &out).ok());
  EXPECT_EQ(out[0].tensor.dims(), (Dims{3}));
}

TEST(ModelV2, BadInputsAreClearErrors) {
  ModelV2Options o;
  o.input_ranges["x"] = {DimRange{1, 16}, DimRange{}};
  Pair p = Load(R"(opset "" 17
graph g(%x: float32[?,4]) {
  r: %r = Relu(%x)
  return %r
})", o);
  ASSERT_NE(p.v2, nullptr);
  std::mt19937_64 rng(7);
  std::vector<Value> out;
  Status s = p.v2->Execute({Value(RandomTensor(DataType::kFloat, {2, 5}, rng))}, &out);
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument) << s.ToString();
  s = p.v2->Execute({Value(RandomTensor(DataType::kInt64, {2, 4}, rng))}, &out);
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument) << s.ToString();
  s = p.v2->Execute({Value(RandomTensor(DataType::kFloat, {17, 4}, rng))}, &out);
  EXPECT_EQ(s.code(), StatusCode::kOutOfRange) << s.ToString();
  EXPECT_NE(s.message().find("outside the range 1~16"), std::string::npos) << s.message();
  s = p.v2->Execute({}, &out);
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  // The model still runs after refusing.
  ExpectMatchesOracle(p, {Value(RandomTensor(DataType::kFloat, {16, 4}, rng))});
}

TEST(ModelV2, AbsurdComputedSizesFailCleanly) {
  Pair p = Load(R"(opset "" 17
graph g(%n: int64[1]) {
  c: %c = ConstantOfShape(%n)
  return %c
})");
  ASSERT_NE(p.v2, nullptr);
  std::vector<Value> out;
  Status s = p.v2->Execute({Value(Tensor::FromVector<int64_t>({int64_t{1} << 40}, {1}))}, &out);
  EXPECT_FALSE(s.ok());
  EXPECT_EQ(s.code(), StatusCode::kResourceExhausted) << s.ToString();
  s = p.v2->Execute({Value(Tensor::FromVector<int64_t>({3}, {1}))}, &out);
  EXPECT_TRUE(s.ok()) << s.ToString();
}

TEST(ModelV2, ExecuteAfterUnloadIsAClearError) {
  Pair p = Load(R"(opset "" 17
graph g(%x: float32[?,3]) {
  const %w: float32[3] = [1, -2, 0.5]
  m: %y = Mul(%x, %w)
  return %y
})");
  ASSERT_NE(p.v2, nullptr);
  std::mt19937_64 rng(8);
  ExpectMatchesOracle(p, {Value(RandomTensor(DataType::kFloat, {2, 3}, rng))});
  ASSERT_TRUE(p.v2->Unload().ok());
  std::vector<Value> out;
  Status s = p.v2->Execute({Value(RandomTensor(DataType::kFloat, {2, 3}, rng))}, &out);
  EXPECT_EQ(s.code(), StatusCode::kFailedPrecondition) << s.ToString();
  EXPECT_NE(s.message().find("was unloaded"), std::string::npos) << s.message();
  EXPECT_EQ(p.v2->kernels_prepared(), 0u);  // the lowered graphs are gone
  EXPECT_TRUE(p.v2->Unload().ok());         // idempotent
}

TEST(ModelV2, ExecuteTensorsGivesBackExactlyTheOutputs) {
  Pair p = Load(R"(opset "" 17
graph g(%x: float32[?,3]) {
  r: %r: float32[?,3] = Relu(%x)
  n: %n: float32[?,3] = Neg(%x)
  return %r, %n
})");
  ASSERT_NE(p.v2, nullptr);
  std::mt19937_64 rng(9);
  // An empty vector, the previous outputs (reused in place), and more tensors than outputs (the rest dropped).
  std::vector<Tensor> out;
  for (size_t extra : {0, 0, 3}) {
    out.resize(out.size() + extra);
    const Tensor x = RandomTensor(DataType::kFloat, {2, 3}, rng);
    const void* previous = out.empty() ? nullptr : out[0].raw_data();
    Status s = p.v2->ExecuteTensors({x}, &out);
    ASSERT_TRUE(s.ok()) << s.ToString();
    std::vector<Value> want;
    ASSERT_TRUE(p.oracle->Run({Value(x)}, &want).ok());
    ASSERT_EQ(out.size(), 2u);
    for (size_t i = 0; i < out.size(); ++i) ExpectSameValue(Value(out[i]), want[i], "output " + std::to_string(i));
    if (previous != nullptr) {
      EXPECT_EQ(out[0].raw_data(), previous);
    }
  }
}

TEST(ModelV2, ProfileRecordsEveryMainKernelOnlyWhenAsked) {
  const char* text = R"(opset "" 17
graph g(%x: float32[?,3]) {
  r: %r = Relu(%x)
  return %r
})";
  std::mt19937_64 rng(10);
  const Value x(RandomTensor(DataType::kFloat, {2, 3}, rng));
  Pair plain = Load(text);
  ASSERT_NE(plain.v2, nullptr);
  ExpectMatchesOracle(plain, {x});
  EXPECT_TRUE(plain.v2->Profile().empty());
  ModelV2Options o;
  o.profile = true;
  Pair profiled = Load(text, o);
  ASSERT_NE(profiled.v2, nullptr);
  ExpectMatchesOracle(profiled, {x});
  ExpectMatchesOracle(profiled, {x});
  const std::vector<ModelV2::NodeProfile> records = profiled.v2->Profile();
  ASSERT_FALSE(records.empty());
  bool relu = false;
  for (const ModelV2::NodeProfile& r : records) {
    EXPECT_EQ(r.runs, 2u) << r.kernel;
    relu = relu || r.op_type == "Relu";
  }
  EXPECT_TRUE(relu);
}

}  // namespace
}  // namespace ge::runtime::v2
