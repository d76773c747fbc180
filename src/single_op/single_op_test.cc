// The static form against the reference kernels on random inputs: element-wise with broadcasting, MatMul, Conv with
// attributes, Softmax with an axis, Transpose with a perm, reductions, constant shape operands, omitted optional
// inputs, several outputs; engine choice and the options that change it; buffers and tensors; a thread pool.
#include <gtest/gtest.h>

#include "single_op/single_op_test_util.h"

namespace ge::single_op {
namespace {

using testing::DescsOf;
using testing::RandomFloats;
using testing::RefOutputs;

const Tolerance kExact = Tolerance::Exact();
const Tolerance kClose = {1e-5, 1e-4, true};

// Creates the static op for `inputs` (constants where is_const), runs it on raw buffers and on tensors, and
// compares both with the reference kernels.
void ExpectMatchesRef(const std::string& op_type, const std::vector<Tensor>& inputs, const Attrs& attrs,
                      const Tolerance& tol, const std::vector<bool>& is_const = {}, const SingleOpOptions& opt = {},
                      const std::string& want_engine = "") {
  SCOPED_TRACE(op_type);
  std::vector<OpTensorDesc> descs;
  std::vector<Tensor> runtime;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const bool c = i < is_const.size() && is_const[i];
    if (!inputs[i].valid()) {
      descs.emplace_back();
    } else if (c) {
      descs.push_back(OpTensorDesc::Constant(inputs[i]));
    } else {
      descs.emplace_back(inputs[i].dtype(), inputs[i].dims());
      runtime.push_back(inputs[i]);
    }
  }
  auto op = SingleOp::Create(op_type, descs, attrs, opt);
  ASSERT_TRUE(op.ok()) << op.status().ToString();
  if (!want_engine.empty()) {
    EXPECT_EQ((*op)->engine(), want_engine) << (*op)->kernel_impl();
  }
  const int n_out = static_cast<int>((*op)->outputs().size());
  const std::vector<Tensor> want = RefOutputs(op_type, inputs, attrs, n_out, opt.opset);
  ASSERT_EQ(want.size(), static_cast<size_t>(n_out));

  // Raw buffers.
  std::vector<InputBuffer> in;
  for (const Tensor& t : runtime) in.push_back({t.raw_data(), t.nbytes()});
  std::vector<Tensor> got_buf;
  std::vector<OutputBuffer> out;
  for (const OpTensorDesc& d : (*op)->outputs()) {
    got_buf.push_back(Tensor::Create(d.dtype, d.dims).value());
    out.push_back({got_buf.back().raw_data(), got_buf.back().nbytes()});
  }
  ASSERT_TRUE((*op)->Run(in, out).ok());
  for (int i = 0; i < n_out; ++i) EXPECT_TRUE(TensorsMatch(got_buf[i], want[i], tol)) << "output " << i;

  // Tensors, twice: the second run writes into the same output tensors.
  std::vector<Tensor> got;
  ASSERT_TRUE((*op)->Run(runtime, &got).ok());
  ASSERT_EQ(got.size(), static_cast<size_t>(n_out));
  const void* first = got[0].raw_data();
  ASSERT_TRUE((*op)->Run(runtime, &got).ok());
  EXPECT_EQ(got[0].raw_data(), first);
  for (int i = 0; i < n_out; ++i) EXPECT_TRUE(TensorsMatch(got[i], want[i], tol)) << "output " << i;
}

TEST(SingleOp, AddSameShapeIsGeExecKernel) {
  auto op = SingleOp::Create("Add", {{DataType::kFloat, {16}}, {DataType::kFloat, {16}}});
  ASSERT_TRUE(op.ok()) << op.status().ToString();
  EXPECT_EQ((*op)->engine(), "ref");
  EXPECT_EQ((*op)->kernel_impl(), "exec.binary_f32");
  ASSERT_EQ((*op)->inputs().size(), 2u);
  ASSERT_EQ((*op)->outputs().size(), 1u);
  EXPECT_EQ((*op)->outputs()[0].dims, (Dims{16}));
  EXPECT_EQ((*op)->output_names(), std::vector<std::string>{"C"});
  EXPECT_EQ((*op)->input_bytes(0), 64u);
  EXPECT_EQ((*op)->output_bytes(0), 64u);
  ExpectMatchesRef("Add", {RandomFloats({16}, 1), RandomFloats({16}, 2)}, {}, kExact);
}

TEST(SingleOp, AddBroadcasts) {
  ExpectMatchesRef("Add", {RandomFloats({2, 3, 4}, 3), RandomFloats({4}, 4)}, {}, kExact);
  ExpectMatchesRef("Add", {RandomFloats({2, 1, 4}, 5), RandomFloats({1, 3, 1}, 6)}, {}, kExact);
  ExpectMatchesRef("Mul", {RandomFloats({}, 7), RandomFloats({5, 2}, 8)}, {}, kExact);
}

TEST(SingleOp, Relu) {
  ExpectMatchesRef("Relu", {RandomFloats({2, 3, 4}, 9)}, {}, kExact, {}, {}, "ref");
  auto op = SingleOp::Create("Relu", {{DataType::kFloat, {2, 3, 4}}});
  ASSERT_TRUE(op.ok()) << op.status().ToString();
  EXPECT_EQ((*op)->kernel_impl(), "exec.unary_f32");
}

TEST(SingleOp, MatMul) {
  ExpectMatchesRef("MatMul", {RandomFloats({3, 5}, 10), RandomFloats({5, 7}, 11)}, {}, kClose, {}, {}, "dnnl");
  ExpectMatchesRef("MatMul", {RandomFloats({2, 3, 5}, 12), RandomFloats({5, 4}, 13)}, {}, kClose);
  SingleOpOptions ref_only;
  ref_only.options["ge.engine.dnnl"] = "0";
  ExpectMatchesRef("MatMul", {RandomFloats({3, 5}, 10), RandomFloats({5, 7}, 11)}, {}, kClose, {}, ref_only, "ref");
}

TEST(SingleOp, ConvWithAttributes) {
  const std::vector<Tensor> in = {RandomFloats({1, 3, 9, 9}, 14), RandomFloats({4, 3, 3, 3}, 15),
                                  RandomFloats({4}, 16)};
  const Attrs attrs = {{"strides", std::vector<int64_t>{2, 2}},
                       {"pads", std::vector<int64_t>{1, 1, 1, 1}},
                       {"kernel_shape", std::vector<int64_t>{3, 3}}};
  ExpectMatchesRef("Conv", in, attrs, kClose, {}, {}, "dnnl");
  ExpectMatchesRef("Conv", in, attrs, kClose, {false, true, true});  // constant weights and bias
  SingleOpOptions ref_only;
  ref_only.options["ge.engine.dnnl"] = "0";
  ExpectMatchesRef("Conv", in, attrs, kClose, {}, ref_only, "ref");
  const std::vector<Tensor> grouped = {RandomFloats({2, 4, 6, 6}, 17), RandomFloats({4, 2, 3, 3}, 18)};
  ExpectMatchesRef("Conv", grouped, {{"group", 2}, {"dilations", std::vector<int64_t>{2, 2}}}, kClose);
}

TEST(SingleOp, SoftmaxWithAxis) {
  ExpectMatchesRef("Softmax", {RandomFloats({2, 3, 4}, 19)}, {{"axis", 1}}, kClose);
  ExpectMatchesRef("Softmax", {RandomFloats({2, 3, 4}, 20)}, {}, kClose);  // opset 17: the last axis
  SingleOpOptions opset11;
  opset11.opset = 11;  // axis 1 coerces to 2-D: softmax over dims 1..
  ExpectMatchesRef("Softmax", {RandomFloats({2, 3, 4}, 21)}, {{"axis", 1}}, kClose, {}, opset11);
}

TEST(SingleOp, TransposeWithPerm) {
  ExpectMatchesRef("Transpose", {RandomFloats({2, 3, 4}, 22)}, {{"perm", std::vector<int64_t>{2, 0, 1}}}, kExact);
  ExpectMatchesRef("Transpose", {RandomFloats({2, 3, 4}, 23)}, {}, kExact);  // reversed
}

TEST(SingleOp, Reductions) {
  ExpectMatchesRef("ReduceMean", {RandomFloats({2, 3, 4}, 24)},
                   {{"axes", std::vector<int64_t>{1}}, {"keepdims", 0}}, kClose);
  ExpectMatchesRef("ReduceMax", {RandomFloats({2, 3, 4}, 25)}, {{"axes", std::vector<int64_t>{2}}}, kExact);
  const Tensor axes = Tensor::FromVector<int64_t>({0, 2}, {2});
  ExpectMatchesRef("ReduceSum", {RandomFloats({2, 3, 4}, 26), axes}, {}, kClose, {false, true});
}

TEST(SingleOp, ConstantShapeOperand) {
  const Tensor shape = Tensor::FromVector<int64_t>({-1, 4}, {2});
  ExpectMatchesRef("Reshape", {RandomFloats({2, 3, 4}, 27), shape}, {}, kExact, {false, true});
  auto op = SingleOp::Create("Reshape", {{DataType::kFloat, {2, 3, 4}}, OpTensorDesc::Constant(shape)});
  ASSERT_TRUE(op.ok()) << op.status().ToString();
  EXPECT_EQ((*op)->inputs().size(), 1u);  // the shape is not passed to Run
  EXPECT_EQ((*op)->outputs()[0].dims, (Dims{6, 4}));
}

TEST(SingleOp, OmittedOptionalInput) {
  // Clip(x, <no min>, max): the middle input is omitted.
  const Tensor max = Tensor::Scalar<float>(0.25f);
  ExpectMatchesRef("Clip", {RandomFloats({3, 5}, 28), Tensor(), max}, {}, kExact, {false, false, true});
  ExpectMatchesRef("Clip", {RandomFloats({3, 5}, 29), Tensor(), max}, {}, kExact);  // max at run time
}

TEST(SingleOp, TwoOutputsWithSchemaNames) {
  const Tensor k = Tensor::FromVector<int64_t>({3}, {1});
  ExpectMatchesRef("TopK", {RandomFloats({2, 7}, 30), k}, {{"axis", 1}}, kExact, {false, true});
  auto op = SingleOp::Create("TopK", {{DataType::kFloat, {2, 7}}, OpTensorDesc::Constant(k)});
  ASSERT_TRUE(op.ok()) << op.status().ToString();
  EXPECT_EQ((*op)->output_names(), (std::vector<std::string>{"Values", "Indices"}));
  EXPECT_EQ((*op)->outputs()[1].dtype, DataType::kInt64);
}

TEST(SingleOp, IntAttributeWhereAFloatIsWanted) {
  ExpectMatchesRef("LeakyRelu", {RandomFloats({4, 4}, 31)}, {{"alpha", 2}}, kExact);
}

TEST(SingleOp, OneValueWhereAListIsWanted) {
  auto one = SingleOp::Create("ReduceMax", {{DataType::kFloat, {2, 3, 4}}}, {{"axes", 2}});
  auto list = SingleOp::Create("ReduceMax", {{DataType::kFloat, {2, 3, 4}}}, {{"axes", std::vector<int64_t>{2}}});
  ASSERT_TRUE(one.ok()) << one.status().ToString();
  ASSERT_TRUE(list.ok()) << list.status().ToString();
  const Tensor x = RandomFloats({2, 3, 4}, 37);
  std::vector<Tensor> a, b;
  ASSERT_TRUE((*one)->Run({x}, &a).ok());
  ASSERT_TRUE((*list)->Run({x}, &b).ok());
  EXPECT_EQ(a[0].dims(), (Dims{2, 3, 1}));
  EXPECT_TRUE(TensorsMatch(a[0], b[0], kExact));
}

TEST(SingleOp, EmptyTensor) {
  ExpectMatchesRef("Add", {RandomFloats({0, 3}, 32), RandomFloats({3}, 33)}, {}, kExact);
}

TEST(SingleOp, IntegerAddOnTheReferenceAdapter) {
  const Tensor a = Tensor::FromVector<int32_t>({1, 2, 3, 4}, {4});
  const Tensor b = Tensor::FromVector<int32_t>({10, 20, 30, 40}, {4});
  ExpectMatchesRef("Add", {a, b}, {}, kExact);
}

TEST(SingleOp, LargeAddSplitsOverThePool) {
  SingleOpOptions opt;
  opt.intra_op_threads = 2;
  ExpectMatchesRef("Add", {RandomFloats({300000}, 34), RandomFloats({300000}, 35)}, {}, kExact, {}, opt);
}

TEST(SingleOp, InputConstantsAreCopied) {
  Tensor shape = Tensor::FromVector<int64_t>({4, 6}, {2});
  auto op = SingleOp::Create("Reshape", {{DataType::kFloat, {24}}, OpTensorDesc::Constant(shape)});
  ASSERT_TRUE(op.ok()) << op.status().ToString();
  shape.data<int64_t>()[0] = 999;  // the op keeps its own copy
  const Tensor x = RandomFloats({24}, 36);
  std::vector<Tensor> out;
  ASSERT_TRUE((*op)->Run({x}, &out).ok());
  EXPECT_EQ(out[0].dims(), (Dims{4, 6}));
  EXPECT_TRUE(TensorsMatch(out[0], x.Reshaped({4, 6}).value(), kExact));
}

}  // namespace
}  // namespace ge::single_op
