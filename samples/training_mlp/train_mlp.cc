// Trains a small MLP (P = Relu(X @ W1 + B1) @ W2 + B2, loss = mean((P - Y)^2), momentum) with ge's public session
// API: a training graph and an evaluation graph built in C++ share the session's variables; the trained variables
// go to a checkpoint that a second session restores and evaluates bit for bit. See README.md.
//
//   train_mlp --data=DIR [--steps=100] [--epochs_print=10] [--save_variables=DIR2] [--checkpoint=FILE]
//
// DIR holds X.npy, Y.npy and init/{W1,B1,W2,B2}.npy (float32, as tests/training/make_mlp_training.py writes them).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <vector>

#include "ge/graph.h"
#include "ge/session.h"
#include "ge/status.h"
#include "ge/tensor.h"

namespace {

using ge::DataType;
using ge::Graph;
using ge::Status;
using ge::StatusOr;
using ge::Tensor;
using Value = ge::Graph::Value;

constexpr uint32_t kTrainGraph = 1;
constexpr uint32_t kEvalGraph = 2;

// The hyperparameters of tests/training/make_mlp_training.py (ONNX Momentum, mode "standard").
constexpr float kLearningRate = 0.05f;
constexpr float kAlpha = 0.9f;
constexpr float kBeta = 0.1f;
constexpr float kNormCoefficient = 0.001f;

const std::vector<std::string> kParams = {"W1", "B1", "W2", "B2"};
const std::map<std::string, ge::Dims> kParamDims = {{"W1", {8, 16}}, {"B1", {16}}, {"W2", {16, 4}}, {"B2", {4}}};

struct Args {
  std::string data;
  int steps = 100;
  int epochs_print = 10;
  std::string save_variables;
  std::string checkpoint;  // default: DATA/train_mlp.ckpt
};

struct Data {
  Tensor x, y;
  std::map<std::string, Tensor> init;  // W1, B1, W2, B2
};

// ---------------------------------------------------------------------------------------------------------------
// .npy files: float32, little-endian (the host's order: this sample assumes a little-endian machine), C order.

std::string DimsText(const ge::Dims& dims) {
  std::string s = "[";
  for (size_t i = 0; i < dims.size(); ++i) s += (i ? "," : "") + std::to_string(dims[i]);
  return s + "]";
}

StatusOr<ge::Dims> ParseNpyShape(const std::string& header, const std::string& path) {
  const size_t key = header.find("'shape':");
  const size_t open = header.find('(', key);
  const size_t close = header.find(')', open);
  if (key == std::string::npos || open == std::string::npos || close == std::string::npos) {
    return ge::DataLoss(path + ": .npy header has no shape");
  }
  ge::Dims dims;
  const std::string list = header.substr(open + 1, close - open - 1);
  size_t pos = 0;
  while (pos < list.size()) {
    while (pos < list.size() && (list[pos] == ' ' || list[pos] == ',')) ++pos;
    if (pos == list.size()) break;
    char* end = nullptr;
    const long long d = std::strtoll(list.c_str() + pos, &end, 10);
    if (end == list.c_str() + pos || d < 0) return ge::DataLoss(path + ": bad .npy shape (" + list + ")");
    dims.push_back(d);
    pos = static_cast<size_t>(end - list.c_str());
  }
  return dims;
}

StatusOr<Tensor> ReadNpy(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return ge::NotFound("cannot open " + path);
  const std::string bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  if (bytes.size() < 10 || bytes.compare(0, 6, "\x93NUMPY") != 0) return ge::DataLoss(path + ": not an .npy file");
  const size_t len_bytes = bytes[6] == 1 ? 2 : 4;  // version 1 has a 2-byte header length, later versions 4
  size_t header_len = 0;
  for (size_t i = 0; i < len_bytes && 8 + i < bytes.size(); ++i) {
    header_len |= size_t{static_cast<unsigned char>(bytes[8 + i])} << (8 * i);
  }
  const size_t data_at = 8 + len_bytes + header_len;
  if (data_at > bytes.size()) return ge::DataLoss(path + ": truncated .npy header");
  const std::string header = bytes.substr(8 + len_bytes, header_len);
  if (header.find("'descr': '<f4'") == std::string::npos ||
      header.find("'fortran_order': False") == std::string::npos) {
    return ge::InvalidArgument(path + ": only float32 little-endian C-order .npy files are supported");
  }
  StatusOr<ge::Dims> dims = ParseNpyShape(header, path);
  if (!dims.ok()) return dims.status();
  StatusOr<Tensor> t = Tensor::Create(DataType::kFloat, *dims);
  if (!t.ok()) return t.status().WithContext(path);
  if (bytes.size() - data_at != t->nbytes()) {
    return ge::DataLoss(path + ": " + std::to_string(bytes.size() - data_at) + " data bytes for shape " +
                        DimsText(*dims));
  }
  std::memcpy(t->raw_data(), bytes.data() + data_at, t->nbytes());
  return t;
}

Status WriteNpy(const std::string& path, const Tensor& t) {
  if (t.dtype() != DataType::kFloat) return ge::Unimplemented(path + ": only float32 tensors are written");
  std::string shape = "(";
  for (int64_t d : t.dims()) shape += std::to_string(d) + ",";
  shape += ")";
  std::string header = "{'descr': '<f4', 'fortran_order': False, 'shape': " + shape + ", }";
  header.append(63 - (10 + header.size()) % 64, ' ');  // the data starts 64-byte aligned
  header += '\n';
  const uint16_t len = static_cast<uint16_t>(header.size());
  std::ofstream f(path, std::ios::binary);
  f.write("\x93NUMPY\x01\x00", 8);
  f.put(static_cast<char>(len & 0xff)).put(static_cast<char>(len >> 8));
  f.write(header.data(), static_cast<std::streamsize>(header.size()));
  f.write(static_cast<const char*>(t.raw_data()), static_cast<std::streamsize>(t.nbytes()));
  return f ? Status::Ok() : ge::Internal("cannot write " + path);
}

StatusOr<Tensor> ReadNpyWithDims(const std::string& path, const ge::Dims& dims) {
  StatusOr<Tensor> t = ReadNpy(path);
  if (t.ok() && t->dims() != dims) {
    return ge::InvalidArgument(path + " has shape " + DimsText(t->dims()) + ", expected " + DimsText(dims));
  }
  return t;
}

StatusOr<Data> ReadData(const std::string& dir) {
  Data data;
  StatusOr<Tensor> x = ReadNpy(dir + "/X.npy");
  if (!x.ok()) return x.status();
  const int64_t batch = x->rank() == 2 ? x->dim(0) : -1;
  if (x->rank() != 2 || x->dim(1) != kParamDims.at("W1")[0]) {
    return ge::InvalidArgument(dir + "/X.npy must be [batch," + std::to_string(kParamDims.at("W1")[0]) + "], got " +
                               DimsText(x->dims()));
  }
  StatusOr<Tensor> y = ReadNpyWithDims(dir + "/Y.npy", {batch, kParamDims.at("W2")[1]});
  if (!y.ok()) return y.status();
  data.x = *x;
  data.y = *y;
  for (const std::string& p : kParams) {
    StatusOr<Tensor> w = ReadNpyWithDims(dir + "/init/" + p + ".npy", kParamDims.at(p));
    if (!w.ok()) return w.status();
    data.init[p] = *w;
  }
  return data;
}

// ---------------------------------------------------------------------------------------------------------------
// Graphs

Value ScalarConstant(Graph& g, const std::string& name, float v) { return g.Constant(name, Tensor::Scalar<float>(v)); }

struct Forward {
  Value z;     // X @ W1 + B1
  Value h;     // Relu(z)
  Value diff;  // P - Y
  Value loss;
};

Forward BuildForward(Graph& g, Value x, Value y, const std::map<std::string, Value>& w) {
  Forward f;
  f.z = g.Op1("Add", {g.Op1("MatMul", {x, w.at("W1")}), w.at("B1")});
  f.h = g.Op1("Relu", {f.z});
  const Value p = g.Op1("Add", {g.Op1("MatMul", {f.h, w.at("W2")}), w.at("B2")});
  f.diff = g.Op1("Sub", {p, y});
  // Opset 17: ReduceMean takes its axes as an attribute; none means all.
  f.loss = g.Op1("ReduceMean", {g.Op1("Mul", {f.diff, f.diff})}, {{"keepdims", 0}});
  return f;
}

// The gradients of the loss with respect to W1, B1, W2, B2.
std::map<std::string, Value> BuildBackward(Graph& g, const Forward& f, Value x,
                                           const std::map<std::string, Value>& w, float grad_scale) {
  const Value dp = g.Op1("Mul", {f.diff, ScalarConstant(g, "grad_scale", grad_scale)});
  // Opset 13+: ReduceSum takes its axes as an input.
  const Value axis0 = g.Constant("axis0", Tensor::FromVector<int64_t>({0}, {1}));
  const ge::Attrs no_keepdims = {{"keepdims", 0}};
  const Value dh = g.Op1("MatMul", {dp, g.Op1("Transpose", {w.at("W2")})});
  const Value positive = g.Op1("Greater", {f.z, ScalarConstant(g, "zero", 0.0f)});
  const Value relu_mask = g.Op1("Cast", {positive}, {{"to", static_cast<int64_t>(DataType::kFloat)}});
  const Value dz = g.Op1("Mul", {dh, relu_mask});
  return {{"W1", g.Op1("MatMul", {g.Op1("Transpose", {x}), dz})},
          {"B1", g.Op1("ReduceSum", {dz, axis0}, no_keepdims)},
          {"W2", g.Op1("MatMul", {g.Op1("Transpose", {f.h}), dp})},
          {"B2", g.Op1("ReduceSum", {dp, axis0}, no_keepdims)}};
}

struct MomentumConstants {
  Value alpha, norm_coefficient, learning_rate;
};

// ONNX Momentum, mode "standard": V' = alpha * V + beta_adj * (norm_coefficient * W + G); W' = W - R * V'.
void BuildMomentumUpdate(Graph& g, const MomentumConstants& c, Value beta_adj, Value w, Value v, Value grad) {
  const Value regularized = g.Op1("Add", {g.Op1("Mul", {c.norm_coefficient, w}), grad});
  const Value v_new = g.Op1("Add", {g.Op1("Mul", {c.alpha, v}), g.Op1("Mul", {beta_adj, regularized})});
  g.Assign(v, v_new);
  g.Assign(w, g.Op1("Sub", {w, g.Op1("Mul", {c.learning_rate, v_new})}));
}

// Graph 1: one full-batch step; output: the loss before the update. Declares the variables with their initial
// values: W1..B2 from the data directory, the velocities V_* zeros, and `beta_adj`, Momentum's beta adjusted for
// the step: 1 on the first step, kBeta afterwards. A variable rather than a separate first-step graph, so that the
// step count lives in the session (and its checkpoints) instead of in the caller's loop.
Graph BuildTrainingGraph(const Data& data) {
  Graph g("mlp_train");
  const Value x = g.Input("X", DataType::kFloat, data.x.dims());
  const Value y = g.Input("Y", DataType::kFloat, data.y.dims());
  std::map<std::string, Value> w, v;
  for (const std::string& p : kParams) {
    w[p] = g.Variable(p, DataType::kFloat, kParamDims.at(p), &data.init.at(p));
    v[p] = g.Variable("V_" + p, DataType::kFloat, kParamDims.at(p));
  }
  const Tensor one = Tensor::Scalar<float>(1.0f);
  const Value beta_adj = g.Variable("beta_adj", DataType::kFloat, {}, &one);

  const Forward f = BuildForward(g, x, y, w);
  const float grad_scale = 2.0f / static_cast<float>(data.y.numel());  // d mean(D^2) / dD = 2 D / numel
  const std::map<std::string, Value> grads = BuildBackward(g, f, x, w, grad_scale);
  const MomentumConstants c{ScalarConstant(g, "alpha", kAlpha), ScalarConstant(g, "norm_coefficient", kNormCoefficient),
                            ScalarConstant(g, "learning_rate", kLearningRate)};
  for (const std::string& p : kParams) BuildMomentumUpdate(g, c, beta_adj, w[p], v[p], grads.at(p));
  g.Assign(beta_adj, ScalarConstant(g, "beta", kBeta));  // the updates above still read the value before this
  g.AddOutput(f.loss);
  return g;
}

// Graph 2: the loss of the session's current W1..B2 (declared by name only: the values are the session's).
Graph BuildEvalGraph(const Data& data) {
  Graph g("mlp_eval");
  const Value x = g.Input("X", DataType::kFloat, data.x.dims());
  const Value y = g.Input("Y", DataType::kFloat, data.y.dims());
  std::map<std::string, Value> w;
  for (const std::string& p : kParams) w[p] = g.Variable(p, DataType::kFloat, kParamDims.at(p));
  g.AddOutput(BuildForward(g, x, y, w).loss);
  return g;
}

// ---------------------------------------------------------------------------------------------------------------
// Running

StatusOr<float> RunForLoss(ge::Session& session, uint32_t graph_id, const Data& data) {
  std::vector<Tensor> outputs;
  if (Status s = session.RunGraph(graph_id, {data.x, data.y}, outputs); !s.ok()) return s;
  if (outputs.size() != 1 || outputs[0].dtype() != DataType::kFloat || outputs[0].numel() != 1) {
    return ge::Internal("graph " + std::to_string(graph_id) + " did not return one float32 loss");
  }
  return outputs[0].data<float>()[0];
}

// Runs the steps; returns the evaluation loss of the trained variables. The evaluation graph first runs after a
// training step: the training graph declares the initial values, which fill the variables on their first use.
StatusOr<float> Train(ge::Session& session, const Data& data, const Args& args) {
  for (int step = 1; step <= args.steps; ++step) {
    StatusOr<float> train_loss = RunForLoss(session, kTrainGraph, data);
    if (!train_loss.ok()) return train_loss.status();
    if (step % args.epochs_print != 0 && step != args.steps) continue;
    StatusOr<float> eval_loss = RunForLoss(session, kEvalGraph, data);
    if (!eval_loss.ok()) return eval_loss.status();
    std::printf("epoch %d: train loss %.9g, eval loss %.9g\n", step, *train_loss, *eval_loss);
  }
  return RunForLoss(session, kEvalGraph, data);
}

// A second session restores the checkpoint and evaluates it: the loss must equal `expected` bit for bit.
Status CheckRestoredSession(const std::string& checkpoint, const Data& data, float expected) {
  ge::Session restored;
  if (Status s = restored.status(); !s.ok()) return s.WithContext("second session");
  if (Status s = restored.RestoreCheckpoint(checkpoint); !s.ok()) return s.WithContext("RestoreCheckpoint");
  if (Status s = restored.AddGraph(kEvalGraph, BuildEvalGraph(data)); !s.ok()) return s.WithContext("AddGraph");
  StatusOr<float> loss = RunForLoss(restored, kEvalGraph, data);
  if (!loss.ok()) return loss.status().WithContext("restored session");
  const bool same = std::memcmp(&*loss, &expected, sizeof expected) == 0;
  std::printf("restored session: eval loss %.9g, %s\n", *loss,
              same ? "bit-identical to the trained session's" : "DIFFERENT from the trained session's");
  return same ? Status::Ok() : ge::Internal("the restored session's loss differs");
}

Status SaveVariables(ge::Session& session, const std::string& dir) {
  std::vector<std::string> names;  // empty: every variable of the session
  std::vector<Tensor> values;
  if (Status s = session.GetVariables(names, values); !s.ok()) return s.WithContext("GetVariables");
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return ge::Internal("cannot create " + dir + ": " + ec.message());
  for (size_t i = 0; i < names.size(); ++i) {
    if (Status s = WriteNpy(dir + "/" + names[i] + ".npy", values[i]); !s.ok()) return s;
  }
  std::printf("%zu variables written to %s\n", names.size(), dir.c_str());
  return Status::Ok();
}

Status Run(const Args& args) {
  StatusOr<Data> data = ReadData(args.data);
  if (!data.ok()) return data.status();
  ge::Session session(ge::Options{{"ge.graphRunMode", "1"}});
  if (Status s = session.status(); !s.ok()) return s.WithContext("session");
  if (Status s = session.AddGraph(kTrainGraph, BuildTrainingGraph(*data)); !s.ok()) return s.WithContext("AddGraph");
  if (Status s = session.AddGraph(kEvalGraph, BuildEvalGraph(*data)); !s.ok()) return s.WithContext("AddGraph");

  StatusOr<float> eval_loss = Train(session, *data, args);
  if (!eval_loss.ok()) return eval_loss.status();
  if (Status s = session.SaveCheckpoint(args.checkpoint); !s.ok()) return s.WithContext("SaveCheckpoint");
  std::printf("checkpoint written to %s\n", args.checkpoint.c_str());
  if (Status s = CheckRestoredSession(args.checkpoint, *data, *eval_loss); !s.ok()) return s;
  return args.save_variables.empty() ? Status::Ok() : SaveVariables(session, args.save_variables);
}

// ---------------------------------------------------------------------------------------------------------------

bool ParseInt(const std::string& text, int min, int* out) {
  char* end = nullptr;
  const long v = std::strtol(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || v < min || v > 1000000000) return false;
  *out = static_cast<int>(v);
  return true;
}

bool ParseArgs(int argc, char** argv, Args* args) {
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const size_t eq = arg.find('=');
    if (arg.rfind("--", 0) != 0 || eq == std::string::npos) return false;
    const std::string key = arg.substr(2, eq - 2), value = arg.substr(eq + 1);
    if (key == "data") {
      args->data = value;
    } else if (key == "steps") {
      if (!ParseInt(value, 1, &args->steps)) return false;
    } else if (key == "epochs_print") {
      if (!ParseInt(value, 1, &args->epochs_print)) return false;
    } else if (key == "save_variables") {
      args->save_variables = value;
    } else if (key == "checkpoint") {
      args->checkpoint = value;
    } else {
      return false;
    }
  }
  if (args->checkpoint.empty()) args->checkpoint = args->data + "/train_mlp.ckpt";
  return !args->data.empty();
}

}  // namespace

int main(int argc, char** argv) {
  Args args;
  if (!ParseArgs(argc, argv, &args)) {
    std::fprintf(stderr,
                 "usage: %s --data=DIR [--steps=100] [--epochs_print=10] [--save_variables=DIR2] "
                 "[--checkpoint=FILE]\n",
                 argv[0]);
    return 2;
  }
  if (Status s = ge::GEInitialize(); !s.ok()) {
    std::fprintf(stderr, "train_mlp: GEInitialize: %s\n", s.ToString().c_str());
    return 1;
  }
  const Status result = Run(args);  // every session is gone when Run returns
  if (!result.ok()) std::fprintf(stderr, "train_mlp: %s\n", result.ToString().c_str());
  if (Status s = ge::GEFinalize(); !s.ok()) {
    std::fprintf(stderr, "train_mlp: GEFinalize: %s\n", s.ToString().c_str());
    return 1;
  }
  return result.ok() ? 0 : 1;
}
