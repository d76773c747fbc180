// Public graph type: ge::Graph, what a Session compiles and runs — read from an ONNX file, or built in C++:
// inputs, constants, session variables, any op of ge's op table by name with attributes, variable writes
// (Assign/AssignAdd/AssignSub), VarIsInitializedOp, outputs. Builder calls never fail on the spot: the first error
// is kept (status()) and AddGraph refuses the graph with it. Self-contained header.
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "ge/api.h"
#include "ge/status.h"
#include "ge/tensor.h"
#include "ge/types.h"

namespace ge {

namespace session {
struct GraphAccess;
}  // namespace session

// An attribute value for Graph::Op: int, float, string, tensor, or lists of ints, floats or strings.
class GE_API AttrValue {
 public:
  enum class Kind { kInt, kFloat, kString, kTensor, kInts, kFloats, kStrings };
  AttrValue(int64_t v) : kind_(Kind::kInt), i_(v) {}  // NOLINT: implicit by design
  AttrValue(int v) : kind_(Kind::kInt), i_(v) {}      // NOLINT
  AttrValue(float v) : kind_(Kind::kFloat), f_(v) {}  // NOLINT
  AttrValue(double v) : kind_(Kind::kFloat), f_(static_cast<float>(v)) {}  // NOLINT
  AttrValue(std::string v) : kind_(Kind::kString), s_(std::move(v)) {}     // NOLINT
  AttrValue(const char* v) : kind_(Kind::kString), s_(v) {}                // NOLINT
  AttrValue(Tensor v) : kind_(Kind::kTensor), t_(std::move(v)) {}          // NOLINT
  AttrValue(std::vector<int64_t> v) : kind_(Kind::kInts), ints_(std::move(v)) {}          // NOLINT
  AttrValue(std::vector<float> v) : kind_(Kind::kFloats), floats_(std::move(v)) {}        // NOLINT
  AttrValue(std::vector<std::string> v) : kind_(Kind::kStrings), strings_(std::move(v)) {}  // NOLINT

  Kind kind() const { return kind_; }
  int64_t i() const { return i_; }
  float f() const { return f_; }
  const std::string& s() const { return s_; }
  const Tensor& t() const { return t_; }
  const std::vector<int64_t>& ints() const { return ints_; }
  const std::vector<float>& floats() const { return floats_; }
  const std::vector<std::string>& strings() const { return strings_; }

 private:
  Kind kind_;
  int64_t i_ = 0;
  float f_ = 0;
  std::string s_;
  Tensor t_;
  std::vector<int64_t> ints_;
  std::vector<float> floats_;
  std::vector<std::string> strings_;
};
using Attrs = std::map<std::string, AttrValue>;

class GE_API Graph {
 public:
  // A handle to one value of this graph (an input, constant, variable or op output). Handles of another graph, or
  // default-constructed ones, are errors where a value is expected.
  struct Value {
    int id = -1;
  };

  explicit Graph(const std::string& name = "graph");
  // The graph of an ONNX model file (training info, if any, is kept for the training tools).
  static StatusOr<Graph> FromOnnxFile(const std::string& path);
  // The graph of a file in ge's IR text form (.geir: what `ge compile --dump_graph` writes; it may hold ge's own
  // ops).
  static StatusOr<Graph> FromGeirFile(const std::string& path);
  ~Graph();
  Graph(Graph&&) noexcept;
  Graph& operator=(Graph&&) noexcept;
  Graph(const Graph&) = delete;
  Graph& operator=(const Graph&) = delete;
  // A deep copy (what Session::AddGraphWithCopy keeps).
  StatusOr<Graph> Clone() const;

  const std::string& name() const;
  // The first builder error, or Ok.
  Status status() const;
  // The graph's inputs and outputs by name, in order.
  std::vector<std::string> input_names() const;
  std::vector<std::string> output_names() const;
  // Whether the model carries ONNX training info (include/ge/training.h's LowerTraining turns it into graphs).
  bool has_training_info() const;

  Value Input(const std::string& name, DataType dtype, const std::vector<int64_t>& dims);
  Value Constant(const std::string& name, const Tensor& value);
  // A session variable: every graph of the session that names it shares its memory. `init_value` (GE's
  // `_init_value`) fills it when its memory is first used; without one it starts as zeros.
  Value Variable(const std::string& name, DataType dtype, const std::vector<int64_t>& dims,
                 const Tensor* init_value = nullptr);
  // Any op of ge's op table ("" = ai.onnx); outputs as the op gives them (num_outputs of them).
  std::vector<Value> Op(const std::string& op_type, const std::vector<Value>& inputs, const Attrs& attrs = {},
                        int num_outputs = 1, const std::string& domain = "");
  // Single-output convenience.
  Value Op1(const std::string& op_type, const std::vector<Value>& inputs, const Attrs& attrs = {});
  // Writes to a variable (`ref`: a Variable, or an earlier write's result); the result is the variable after it.
  // Within one run, other readers of `ref` see the value before the write.
  Value Assign(Value ref, Value value);
  Value AssignAdd(Value ref, Value value);
  Value AssignSub(Value ref, Value value);
  // Whether the session has initialized the variable: decided when the graph is compiled.
  Value VarIsInitialized(Value ref);
  void AddOutput(Value v);

 private:
  friend struct session::GraphAccess;
  struct Impl;
  explicit Graph(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace ge
