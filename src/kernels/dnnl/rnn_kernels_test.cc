#include "kernels/dnnl/dnnl_test_util.h"
#include "kernels/exec/kernel_variant.h"
#include "kernels/exec/packed_gemm.h"

namespace ge::dnnl_kernels::testing {
namespace {

struct RnnShape {
  int64_t seq, batch, input, hidden;
};

struct RnnForm {
  const char* op = "LSTM";
  const char* direction = "forward";
  int64_t linear_before_reset = 0;  // GRU
  bool bias = true, initial_h = true, initial_c = true, peephole = false;
  std::vector<bool> outputs = {true, true, true};  // Y, Y_h (, Y_c)
  bool on_dnnl = true;  // kernel_variant "dnnl": oneDNN's LSTM / GRU, not ge's exec.lstm / exec.gru
};

// One LSTM / GRU node: X [seq, batch, input]; constant W, R, B, P; initial states as graph inputs.
Case RnnCase(const RnnShape& s, const RnnForm& f, std::mt19937& rng) {
  const bool lstm = std::string(f.op) == "LSTM";
  const int64_t dirs = std::string(f.direction) == "bidirectional" ? 2 : 1;
  const int64_t gh = (lstm ? 4 : 3) * s.hidden;
  std::vector<Tensor> in = {RandomTensor({s.seq, s.batch, s.input}, rng, -1, 1),
                            RandomTensor({dirs, gh, s.input}, rng, -0.5, 0.5),
                            RandomTensor({dirs, gh, s.hidden}, rng, -0.5, 0.5),
                            f.bias ? RandomTensor({dirs, 2 * gh}, rng, -0.5, 0.5) : Tensor(),
                            Tensor(),
                            f.initial_h ? RandomTensor({dirs, s.batch, s.hidden}, rng, -1, 1) : Tensor()};
  std::vector<bool> consts = {false, true, true, true, true, false};
  if (lstm) {
    in.push_back(f.initial_c ? RandomTensor({dirs, s.batch, s.hidden}, rng, -1, 1) : Tensor());
    in.push_back(f.peephole ? RandomTensor({dirs, 3 * s.hidden}, rng, -0.5, 0.5) : Tensor());
    consts.push_back(false);
    consts.push_back(true);
  }
  while (!in.empty() && !in.back().valid()) in.pop_back();
  ir::AttrMap a = Attrs({{"hidden_size", AV::Int(s.hidden)}, {"direction", AV::String(f.direction)}});
  if (!lstm) a.Set("linear_before_reset", AV::Int(f.linear_before_reset));
  if (f.on_dnnl) a.Set(exec::kKernelVariantAttr, AV::String("dnnl"));
  Case c(f.op, std::move(in), consts, a);
  c.num_outputs = lstm ? 3 : 2;
  c.output_present.assign(f.outputs.begin(), f.outputs.begin() + c.num_outputs);
  while (c.num_outputs > 1 && !c.output_present[c.num_outputs - 1]) c.output_present.resize(--c.num_outputs);
  return c;
}

std::string Describe(const RnnShape& s, const RnnForm& f) {
  return std::string(f.op) + " " + f.direction + " lbr " + std::to_string(f.linear_before_reset) + " seq " +
         std::to_string(s.seq) + " batch " + std::to_string(s.batch) + " input " + std::to_string(s.input) +
         " hidden " + std::to_string(s.hidden) + (f.bias ? " B" : "") + (f.initial_h ? " h0" : "") +
         (f.initial_c ? " c0" : "") + (f.peephole ? " P" : "");
}

const RnnShape kShapes[] = {{5, 1, 13, 7}, {4, 3, 13, 7}, {1, 3, 8, 16}, {6, 2, 32, 24}};
const char* kDirections[] = {"forward", "reverse", "bidirectional"};

TEST(DnnlRnn, LstmDirectionsShapesAndOptionalInputs) {
  std::mt19937 rng(71);
  for (const RnnShape& s : kShapes) {
    for (const char* dir : kDirections) {
      for (int variant = 0; variant < 4; ++variant) {
        RnnForm f;
        f.direction = dir;
        f.bias = variant != 1;
        f.initial_h = variant != 2;
        f.initial_c = variant != 2 && variant != 3;  // 3: initial_h without initial_c
        f.peephole = variant == 3;
        SCOPED_TRACE(Describe(s, f));
        ExpectDnnlMatchesRef(RnnCase(s, f, rng));
      }
    }
  }
}

TEST(DnnlRnn, GruBothResetFormsDirectionsAndShapes) {
  std::mt19937 rng(72);
  for (const RnnShape& s : kShapes) {
    for (const char* dir : kDirections) {
      for (int64_t lbr : {0, 1}) {
        for (int variant = 0; variant < 3; ++variant) {
          RnnForm f;
          f.op = "GRU";
          f.direction = dir;
          f.linear_before_reset = lbr;
          f.bias = variant != 1;
          f.initial_h = variant != 2;
          SCOPED_TRACE(Describe(s, f));
          ExpectDnnlMatchesRef(RnnCase(s, f, rng));
        }
      }
    }
  }
}

TEST(DnnlRnn, OmittedOutputs) {
  std::mt19937 rng(73);
  const RnnShape s = {4, 3, 13, 7};
  const std::vector<std::vector<bool>> sets = {
      {true, false, false}, {false, true, false}, {false, false, true}, {false, true, true}, {true, false, true}};
  for (const char* op : {"LSTM", "GRU"}) {
    for (const char* dir : {"forward", "bidirectional"}) {
      for (const std::vector<bool>& outs : sets) {
        RnnForm f;
        f.op = op;
        f.direction = dir;
        f.linear_before_reset = 1;
        f.outputs = outs;
        if (std::string(op) == "GRU" && !outs[0] && !outs[1]) continue;  // GRU has no Y_c
        SCOPED_TRACE(Describe(s, f) + " outputs " + std::to_string(outs[0]) + std::to_string(outs[1]) +
                     std::to_string(outs[2]));
        ExpectDnnlMatchesRef(RnnCase(s, f, rng));
      }
    }
  }
}

TEST(DnnlRnn, FullSequenceLensAndDefaultActivationsAccepted) {
  std::mt19937 rng(74);
  const RnnShape s = {5, 3, 13, 7};
  Case c = RnnCase(s, RnnForm(), rng);
  Tensor lens = Tensor::Create(DataType::kInt32, {3}).value();
  for (int i = 0; i < 3; ++i) lens.data<int32_t>()[i] = 5;
  c.inputs[4] = lens;
  ExpectDnnlMatchesRef(c);
  RnnForm bi;
  bi.op = "GRU";
  bi.direction = "bidirectional";
  Case g = RnnCase(s, bi, rng);
  g.attrs.Set("activations", AV::Strings({"Sigmoid", "Tanh", "Sigmoid", "Tanh"}));
  ExpectDnnlMatchesRef(g);
}

TEST(DnnlRnn, LongSequenceOnThreadPool) {
  std::mt19937 rng(75);
  auto pool = rt::ThreadPool::Create(2);
  ASSERT_TRUE(pool.ok());
  for (const char* op : {"LSTM", "GRU"}) {
    RnnForm f;
    f.op = op;
    f.direction = "bidirectional";
    f.linear_before_reset = 1;
    Case c = RnnCase({100, 3, 64, 128}, f, rng);
    c.threads = 2;
    ExpectDnnlMatchesRef(c, 1e-4, pool->get());
    // Steps large enough to be split over both threads.
    Case big = RnnCase({3, 8, 64, 512}, f, rng);
    big.threads = 2;
    ExpectDnnlMatchesRef(big, 1e-4, pool->get());
  }
}

// Without a variant, LSTMs and GRUs go to ge's own kernels (exec/lstm_kernel.h, exec/gru_kernel.h), any batch.
TEST(DnnlRnn, LstmAndGruOnGeKernels) {
  if (!exec::PackedGemmAvailable()) GTEST_SKIP() << "no AVX2 + FMA";
  std::mt19937 rng(77);
  for (const char* dir : kDirections) {
    for (int variant = 0; variant < 3; ++variant) {
      RnnForm f;
      f.direction = dir;
      f.on_dnnl = false;
      f.bias = variant != 1;
      f.initial_h = f.initial_c = variant != 2;
      f.peephole = variant == 1;
      const RnnShape s = {variant == 2 ? 1 : 9, 1, 13, 7};
      SCOPED_TRACE(Describe(s, f));
      ExpectDnnlMatchesRef(RnnCase(s, f, rng), 1e-4, nullptr, "exec.lstm");
    }
    RnnForm f;
    f.direction = dir;
    f.on_dnnl = false;
    f.outputs = {false, true, false};
    ExpectDnnlMatchesRef(RnnCase({5, 1, 16, 32}, f, rng), 1e-4, nullptr, "exec.lstm");
    ExpectDnnlMatchesRef(RnnCase({5, 2, 16, 32}, f, rng), 1e-4, nullptr, "exec.lstm");
    for (int64_t lbr : {0, 1}) {
      RnnForm g;
      g.op = "GRU";
      g.direction = dir;
      g.on_dnnl = false;
      g.linear_before_reset = lbr;
      g.outputs = {true, true};
      ExpectDnnlMatchesRef(RnnCase({5, 1, 16, 32}, g, rng), 1e-4, nullptr, "exec.gru");
      ExpectDnnlMatchesRef(RnnCase({4, 3, 13, 7}, g, rng), 1e-4, nullptr, "exec.gru");
    }
  }
}

TEST(DnnlRnn, DeclinesUnsupportedForms) {
  std::mt19937 rng(76);
  const RnnShape s = {4, 3, 13, 7};
  {
    Case c = RnnCase(s, RnnForm(), rng);
    c.is_const[1] = false;  // W from the graph
    ExpectDeclined(c);
  }
  {
    Case c = RnnCase(s, RnnForm(), rng);
    c.attrs.Set("clip", AV::Float(1.5f));
    ExpectDeclined(c);
  }
  {
    Case c = RnnCase(s, RnnForm(), rng);
    c.attrs.Set("input_forget", AV::Int(1));
    ExpectDeclined(c);
  }
  {
    Case c = RnnCase(s, RnnForm(), rng);
    c.attrs.Set("activations", AV::Strings({"Sigmoid", "Relu", "Tanh"}));
    ExpectDeclined(c);
  }
  {
    RnnForm f;
    f.op = "GRU";
    Case c = RnnCase(s, f, rng);
    c.attrs.Set("activations", AV::Strings({"HardSigmoid", "Tanh"}));
    ExpectDeclined(c);
  }
  {
    Case c = RnnCase({3, 4, 13, 7}, RnnForm(), rng);  // X read as [batch, seq, input]
    c.opset = 14;
    c.attrs.Set("layout", AV::Int(1));
    c.inputs.resize(5);  // no initial states: their layout-1 shape differs
    ExpectDeclined(c);
  }
  {
    Case c = RnnCase(s, RnnForm(), rng);
    Tensor lens = Tensor::Create(DataType::kInt32, {3}).value();
    for (int i = 0; i < 3; ++i) lens.data<int32_t>()[i] = 4 - i;  // ragged
    c.inputs[4] = lens;
    ExpectDeclined(c);
  }
  {
    Case c = RnnCase(s, RnnForm(), rng);
    Tensor lens = Tensor::Create(DataType::kInt32, {3}).value();
    for (int i = 0; i < 3; ++i) lens.data<int32_t>()[i] = 4;
    c.inputs[4] = lens;
    c.is_const[4] = false;  // lengths known only at run
    ExpectDeclined(c);
  }
}

}  // namespace
}  // namespace ge::dnnl_kernels::testing
