// Every error the single-op API reports is a Status with a code and a message naming what is wrong; nothing throws
// or aborts.
#include <gtest/gtest.h>

#include "single_op/single_op_test_util.h"

namespace ge::single_op {
namespace {

using testing::RandomFloats;

const std::vector<OpTensorDesc> kAdd16 = {{DataType::kFloat, {16}}, {DataType::kFloat, {16}}};

// The status of a failed Create, or Internal("created") when it succeeded.
Status CreateError(const std::string& op, const std::vector<OpTensorDesc>& in, const Attrs& attrs = {},
                   const SingleOpOptions& opt = {}) {
  auto r = SingleOp::Create(op, in, attrs, opt);
  return r.ok() ? Internal("created") : r.status();
}

#define EXPECT_ERROR(status_expr, want_code, text)                          \
  do {                                                                      \
    const Status s_ = (status_expr);                                        \
    EXPECT_EQ(s_.code(), want_code) << s_.ToString();                       \
    EXPECT_NE(s_.message().find(text), std::string::npos) << s_.ToString(); \
  } while (0)

TEST(SingleOpErrors, UnknownOp) {
  EXPECT_ERROR(CreateError("Addd", kAdd16), StatusCode::kNotFound, "unknown op 'Addd'");
  SingleOpOptions ge_domain;
  ge_domain.domain = "ge";
  EXPECT_ERROR(CreateError("Add", kAdd16, {}, ge_domain), StatusCode::kNotFound, "ge::Add");
  EXPECT_ERROR(DynamicSingleOp::Create("NoSuchOp").status(), StatusCode::kNotFound, "NoSuchOp");
}

TEST(SingleOpErrors, OpThatRunsOnlyInAModel) {
  SingleOpOptions ge_domain;
  ge_domain.domain = "ge";
  EXPECT_ERROR(CreateError("TransData", {{DataType::kFloat, {1, 16, 2, 2}}}, {}, ge_domain),
               StatusCode::kUnimplemented, "ge::TransData");
  EXPECT_ERROR(CreateError("SequenceConstruct", {{DataType::kFloat, {2}}}), StatusCode::kUnimplemented,
               "only inside a model");
  EXPECT_ERROR(CreateError("If", {{DataType::kBool, {}}}), StatusCode::kUnimplemented, "only inside a model");
  EXPECT_ERROR(DynamicSingleOp::Create("Loop").status(), StatusCode::kUnimplemented, "subgraphs");
}

TEST(SingleOpErrors, WrongNumberOfInputs) {
  EXPECT_ERROR(CreateError("Add", {{DataType::kFloat, {16}}}), StatusCode::kInvalidArgument, "takes 2 inputs, got 1");
  EXPECT_ERROR(CreateError("Add", {kAdd16[0], kAdd16[0], kAdd16[0]}), StatusCode::kInvalidArgument, "got 3");
  EXPECT_ERROR(CreateError("Relu", {}), StatusCode::kInvalidArgument, "got 0");
  // An omitted required input counts as missing.
  EXPECT_ERROR(CreateError("Add", {kAdd16[0], OpTensorDesc()}), StatusCode::kInvalidArgument, "got 1");
  auto dyn = DynamicSingleOp::Create("Add");
  ASSERT_TRUE(dyn.ok());
  std::vector<Tensor> out;
  EXPECT_ERROR((*dyn)->Run({RandomFloats({2}, 1)}, &out), StatusCode::kInvalidArgument, "takes 2 inputs");
}

TEST(SingleOpErrors, DtypeOrShapeMismatch) {
  EXPECT_ERROR(CreateError("Add", {{DataType::kFloat, {16}}, {DataType::kInt64, {16}}}),
               StatusCode::kInvalidArgument, "");
  EXPECT_ERROR(CreateError("Add", {{DataType::kFloat, {3}}, {DataType::kFloat, {4}}}), StatusCode::kInvalidArgument,
               "");
  EXPECT_ERROR(CreateError("MatMul", {{DataType::kFloat, {2, 3}}, {DataType::kFloat, {4, 5}}}),
               StatusCode::kInvalidArgument, "");
  // Tensors that differ from the static descs.
  auto op = SingleOp::Create("Add", kAdd16);
  ASSERT_TRUE(op.ok());
  std::vector<Tensor> out;
  const Tensor f16 = RandomFloats({16}, 1);
  EXPECT_ERROR((*op)->Run({f16, RandomFloats({17}, 2)}, &out), StatusCode::kInvalidArgument,
               "input tensor 1 is float32[17], the op takes float32[16]");
  EXPECT_ERROR((*op)->Run({f16, Tensor::Create(DataType::kInt32, {16}).value()}, &out),
               StatusCode::kInvalidArgument, "int32[16]");
  EXPECT_ERROR((*op)->Run({f16, Tensor()}, &out), StatusCode::kInvalidArgument, "no storage");
  EXPECT_ERROR((*op)->Run({f16}, &out), StatusCode::kInvalidArgument, "got 1 input tensors");
}

TEST(SingleOpErrors, BadDescs) {
  EXPECT_ERROR(CreateError("Relu", {{DataType::kFloat, {2, -3}}}), StatusCode::kInvalidArgument, "negative dim");
  EXPECT_ERROR(CreateError("Relu", {{static_cast<DataType>(99), {2}}}), StatusCode::kInvalidArgument, "dtype");
  EXPECT_ERROR(CreateError("Relu", {{DataType::kFloat, {int64_t{1} << 40, int64_t{1} << 40}}}),
               StatusCode::kInvalidArgument, "too large");
  OpTensorDesc wrong = OpTensorDesc::Constant(Tensor::FromVector<int64_t>({4, 4}, {2}));
  wrong.dims = {3};
  EXPECT_ERROR(CreateError("Reshape", {{DataType::kFloat, {16}}, wrong}), StatusCode::kInvalidArgument,
               "its constant is int64[2]");
  // A shape operand given at run time: the output shape is unknown at prepare.
  EXPECT_ERROR(CreateError("Reshape", {{DataType::kFloat, {16}}, {DataType::kInt64, {2}}}),
               StatusCode::kInvalidArgument, "OpTensorDesc::Constant");
}

TEST(SingleOpErrors, Attributes) {
  const std::vector<OpTensorDesc> x = {{DataType::kFloat, {2, 3}}};
  EXPECT_ERROR(CreateError("Relu", x, {{"alpha", 0.5}}), StatusCode::kInvalidArgument, "no attribute 'alpha'");
  EXPECT_ERROR(CreateError("Transpose", x, {{"perm", "0,1"}}), StatusCode::kInvalidArgument,
               "attribute 'perm' must be a list of ints, got a string");
  EXPECT_ERROR(CreateError("Softmax", x, {{"axis", 0.5}}), StatusCode::kInvalidArgument,
               "'axis' must be an int, got a float");
  EXPECT_ERROR(CreateError("Cast", x), StatusCode::kInvalidArgument, "attribute 'to' (an int) is required");
  EXPECT_ERROR(CreateError("LeakyRelu", x, {{"alpha", std::vector<float>{1.f}}}), StatusCode::kInvalidArgument,
               "must be a float");
  EXPECT_ERROR(DynamicSingleOp::Create("Relu", {{"beta", 1}}).status(), StatusCode::kInvalidArgument, "'beta'");
  // A value the schema allows but the kernel cannot use is the kernel's error, still a Status.
  EXPECT_ERROR(CreateError("Transpose", x, {{"perm", std::vector<int64_t>{0, 0}}}), StatusCode::kInvalidArgument, "");
  EXPECT_ERROR(CreateError("Softmax", x, {{"axis", 5}}), StatusCode::kInvalidArgument, "");
}

TEST(SingleOpErrors, BuffersTooSmallOrNull) {
  auto op = SingleOp::Create("Add", kAdd16);
  ASSERT_TRUE(op.ok());
  std::vector<float> a(16), b(16), c(16);
  EXPECT_ERROR((*op)->Run({{a.data(), 60}, {b.data(), 64}}, {{c.data(), 64}}), StatusCode::kInvalidArgument,
               "input 0 buffer holds 60 bytes, float32[16] needs 64");
  EXPECT_ERROR((*op)->Run({{a.data(), 64}, {b.data(), 64}}, {{c.data(), 32}}), StatusCode::kInvalidArgument,
               "output 0 buffer holds 32 bytes");
  EXPECT_ERROR((*op)->Run({{a.data(), 64}, {nullptr, 64}}, {{c.data(), 64}}), StatusCode::kInvalidArgument,
               "input 1 (float32[16]) has a null data pointer");
  EXPECT_ERROR((*op)->Run({{a.data(), 64}, {b.data(), 64}}, {{nullptr, 64}}), StatusCode::kInvalidArgument,
               "output 0 (float32[16]) has a null data pointer");
  EXPECT_ERROR((*op)->Run(nullptr, 2, nullptr, 1), StatusCode::kInvalidArgument, "input buffer array is null");
  const InputBuffer in[2] = {{a.data(), 64}, {b.data(), 64}};
  EXPECT_ERROR((*op)->Run(in, 2, nullptr, 1), StatusCode::kInvalidArgument, "output buffer array is null");
  EXPECT_ERROR((*op)->Run({{a.data(), 64}}, {{c.data(), 64}}), StatusCode::kInvalidArgument, "got 1 input buffers");
  EXPECT_ERROR((*op)->Run({{a.data(), 64}, {b.data(), 64}}, {}), StatusCode::kInvalidArgument,
               "got 0 output buffers");
  EXPECT_ERROR((*op)->Run({RandomFloats({16}, 1), RandomFloats({16}, 2)}, nullptr), StatusCode::kInvalidArgument,
               "outputs vector is null");
  // Larger buffers are fine.
  std::vector<float> big(32);
  EXPECT_TRUE((*op)->Run({{big.data(), 128}, {b.data(), 64}}, {{big.data() + 16, 64}}).ok());
  // The dynamic form checks the same.
  auto dyn = DynamicSingleOp::Create("Add");
  ASSERT_TRUE(dyn.ok());
  EXPECT_ERROR((*dyn)->Run(kAdd16, {{a.data(), 64}, {b.data(), 8}}, {{c.data(), 64}}), StatusCode::kInvalidArgument,
               "input 1 buffer holds 8 bytes");
  EXPECT_ERROR((*dyn)->Run(kAdd16, {{a.data(), 64}, {b.data(), 64}}, {{nullptr, 64}}), StatusCode::kInvalidArgument,
               "null data pointer");
}

TEST(SingleOpErrors, Options) {
  SingleOpOptions o;
  o.options["ge.engine.cuda"] = "0";
  EXPECT_ERROR(CreateError("Add", kAdd16, {}, o), StatusCode::kInvalidArgument, "no engine 'cuda'");
  o.options = {{"ge.engine.dnnl", "off"}};
  EXPECT_ERROR(CreateError("Add", kAdd16, {}, o), StatusCode::kInvalidArgument, "must be 0 or 1");
  o.options = {{"ge.exec.precision_mode", "fp8"}};
  EXPECT_ERROR(CreateError("Add", kAdd16, {}, o), StatusCode::kInvalidArgument, "fp32 or allow_bf16");
  o.options = {{"ge.graphRunMode", "1"}};
  EXPECT_ERROR(CreateError("Add", kAdd16, {}, o), StatusCode::kInvalidArgument, "option 'ge.graphRunMode' is read by the session, not here");
  o.options = {{"ge.engine.dnl", "0"}};
  EXPECT_ERROR(CreateError("Add", kAdd16, {}, o), StatusCode::kInvalidArgument, "no engine 'dnl'; did you mean 'ge.engine.dnnl'?");
  o = {};
  o.opset = 0;
  EXPECT_ERROR(CreateError("Add", kAdd16, {}, o), StatusCode::kInvalidArgument, "opset 0");
  o = {};
  o.intra_op_threads = -1;
  EXPECT_ERROR(CreateError("Add", kAdd16, {}, o), StatusCode::kInvalidArgument, "intra_op_threads");
  o = {};
  o.cache_capacity = 0;
  EXPECT_ERROR(DynamicSingleOp::Create("Add", {}, o).status(), StatusCode::kInvalidArgument, "cache_capacity");
  o = {};
  o.num_outputs = 3;
  EXPECT_ERROR(CreateError("Add", kAdd16, {}, o), StatusCode::kInvalidArgument, "num_outputs 3");
}

}  // namespace
}  // namespace ge::single_op
