#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "base/data_type.h"
#include "base/npy.h"
#include "base/shape.h"
#include "base/status.h"
#include "base/tensor.h"

namespace ge {
namespace {

StatusOr<int> Half(int x) {
  if (x % 2) return InvalidArgument("odd");
  return x / 2;
}

Status UseHalf(int x, int* out) {
  GE_ASSIGN_OR_RETURN(*out, Half(x));
  return Status::Ok();
}

TEST(Status, CarriesCodeAndMessage) {
  int v = 0;
  EXPECT_TRUE(UseHalf(4, &v).ok());
  EXPECT_EQ(v, 2);
  Status s = UseHalf(3, &v);
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(s.ToString(), "INVALID_ARGUMENT: odd");
  EXPECT_EQ(s.WithContext("node n").message(), "node n: odd");
}

TEST(DataType, SizesAndNames) {
  EXPECT_EQ(DataTypeSize(DataType::kFloat16), 2u);
  EXPECT_EQ(DataTypeSize(DataType::kComplex128), 16u);
  EXPECT_STREQ(DataTypeName(DataType::kBFloat16), "bfloat16");
  EXPECT_EQ(*DataTypeFromName("int64"), DataType::kInt64);
  EXPECT_FALSE(DataTypeFromName("int3").ok());
  EXPECT_EQ(static_cast<int>(DataType::kBFloat16), 16);  // ONNX TensorProto numbering
}

TEST(Float16, RoundTripsAndRounds) {
  for (float f : {0.0f, 1.0f, -2.5f, 65504.0f, 6.1035156e-05f, 5.9604645e-08f}) {
    EXPECT_EQ(static_cast<float>(float16(f)), f) << f;
  }
  EXPECT_TRUE(std::isinf(static_cast<float>(float16(70000.0f))));
  EXPECT_TRUE(std::isnan(static_cast<float>(float16(NAN))));
  EXPECT_EQ(static_cast<float>(float16(1.0009765625f + 0.0001f)), 1.0009765625f);
  EXPECT_EQ(static_cast<float>(bfloat16(1.0f)), 1.0f);
  EXPECT_EQ(static_cast<float>(bfloat16(3.140625f)), 3.140625f);
}

TEST(Shape, SymbolicAndChecked) {
  Shape s;
  s.AddDim(1);
  s.AddDim(kUnknownDim, "batch");
  s.AddDim(kUnknownDim);
  EXPECT_EQ(s.ToString(), "[1,batch,?]");
  EXPECT_FALSE(s.IsFullyKnown());
  EXPECT_EQ(Shape::UnknownRank().ToString(), "[*]");
  EXPECT_EQ(*CheckedNumElements({2, 3, 4}), 24);
  EXPECT_FALSE(CheckedNumElements({int64_t{1} << 40, int64_t{1} << 40}).ok());
  EXPECT_FALSE(CheckedNumElements({-1, 2}).ok());
}

TEST(Tensor, CreateRefusesAbsurdSizes) {
  auto t = Tensor::Create(DataType::kFloat, {1000000, 1000000});
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.status().code(), StatusCode::kResourceExhausted);
}

TEST(Tensor, ReshapeSharesStorageCloneDoesNot) {
  Tensor t = Tensor::FromVector<float>({1, 2, 3, 4, 5, 6}, {2, 3});
  Tensor r = *t.Reshaped({3, 2});
  r.data<float>()[0] = 42;
  EXPECT_EQ(t.data<float>()[0], 42);
  Tensor c = *t.Clone();
  c.data<float>()[1] = -1;
  EXPECT_EQ(t.data<float>()[1], 2);
  EXPECT_FALSE(t.Reshaped({4}).ok());
  EXPECT_EQ(t.ToInt64Vector(), (std::vector<int64_t>{42, 2, 3, 4, 5, 6}));
}

TEST(Tensor, Strings) {
  Tensor t = *Tensor::Create(DataType::kString, {2});
  t.data<std::string>()[0] = "hello";
  Tensor c = *t.Clone();
  EXPECT_EQ(c.data<std::string>()[0], "hello");
  EXPECT_EQ(c.data<std::string>()[1], "");
}

TEST(Npy, RoundTrip) {
  std::string path = ::testing::TempDir() + "/ge_npy_test.npy";
  Tensor t = Tensor::FromVector<int32_t>({1, -2, 3, -4, 5, -6}, {3, 2});
  ASSERT_TRUE(WriteNpy(path, t).ok());
  auto r = ReadNpy(path);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->dtype(), DataType::kInt32);
  EXPECT_EQ(r->dims(), (Dims{3, 2}));
  EXPECT_EQ(r->data<int32_t>()[3], -4);
  Tensor s = Tensor::Scalar<double>(2.5);
  ASSERT_TRUE(WriteNpy(path, s).ok());
  EXPECT_EQ(ReadNpy(path)->dims(), Dims{});
  std::remove(path.c_str());
}

TEST(Npy, RejectsBadFiles) {
  EXPECT_FALSE(ParseNpy("not numpy at all", "x").ok());
  std::string hdr = "\x93NUMPY\x01";
  hdr += '\0';
  std::string h = "{'descr': '<f4', 'fortran_order': False, 'shape': (1000000,), }";
  hdr += static_cast<char>(h.size());
  hdr += '\0';
  hdr += h;
  auto r = ParseNpy(hdr + "abcd", "x");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("shorter"), std::string::npos);
}

}  // namespace
}  // namespace ge
