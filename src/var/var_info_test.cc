// VAR_INFO round trip and its bad inputs.
#include "var/var_info.h"

#include <gtest/gtest.h>

#include "rt/testing/recording_device.h"
#include "var/var_test_util.h"
#include "var/var_info.pb.h"

namespace ge::var {
namespace {

using testing::Desc;
using testing::Var;

TEST(VarInfo, RoundTripRestoresLogicalAddressesDescsRoadsAndGraphIds) {
  rt::testing::RecordingDevice device;
  VarManager a(1, &device);
  ASSERT_TRUE(a.Init({}).ok());
  const uint64_t w = a.AssignVarMem(Var("w", Desc({8, 8}))).value();
  const uint64_t b = a.AssignVarMem(Var("b", Desc({8}))).value();
  const TensorDesc nhwc = Desc({1, 8, 2, 4}, Format::kNHWC);
  ASSERT_EQ(a.AssignVarMem(Var("w", nhwc)).value(), w);  // re-keyed: the current desc is NHWC
  ASSERT_TRUE(a.SetTransRoad("w", {TransStep{"TransData", Desc({8, 8}), nhwc}}).ok());
  a.SetChangedGraphId("w", 4);
  a.SetAllocatedGraphId("b", 2);
  const std::string bytes = SerializeVarInfo(a).value();

  VarManager r(2, &device);  // another session loading the model
  ASSERT_TRUE(r.Init({}).ok());
  ASSERT_TRUE(RestoreVarInfo(bytes.data(), bytes.size(), &r).ok());
  EXPECT_EQ(r.GetVarAddr("w", nhwc).value().logical, w);
  EXPECT_EQ(r.GetVarAddr("b", Desc({8})).value().logical, b);
  EXPECT_EQ(r.GetCurVarDesc("w").value().format, Format::kNHWC);
  ASSERT_EQ(r.GetTransRoad("w").size(), 1u);
  EXPECT_EQ(r.GetTransRoad("w")[0].node_type, "TransData");
  uint32_t g = 0;
  ASSERT_TRUE(r.GetChangedGraphId("w", &g));
  EXPECT_EQ(g, 4u);
  ASSERT_TRUE(r.GetAllocatedGraphId("b", &g));
  EXPECT_EQ(g, 2u);
  // New variables of the loading session go past the restored ones.
  EXPECT_GT(r.AssignVarMem(Var("c", Desc({4}))).value(), b);
  // Restoring the same info again is harmless; serializing the restored manager gives the same tables.
  ASSERT_TRUE(RestoreVarInfo(bytes.data(), bytes.size(), &r).ok());
  // Restored variables get device memory like any other.
  EXPECT_TRUE(r.GetVarMemoryAddr(w, rt::MemType::kDevice).ok());
}

TEST(VarInfo, BadInputsAreClearErrors) {
  rt::testing::RecordingDevice device;
  VarManager a(1, &device);
  ASSERT_TRUE(a.Init({}).ok());
  ASSERT_TRUE(a.AssignVarMem(Var("w", Desc({8, 8}))).ok());
  const std::string good = SerializeVarInfo(a).value();
  VarManager r(2, &device);
  ASSERT_TRUE(r.Init({0, 32 * 1024}).ok());  // 5 KiB of variables
  const std::string junk = "\xff\xff\xff garbage";
  EXPECT_EQ(RestoreVarInfo(junk.data(), junk.size(), &r).code(), StatusCode::kDataLoss);
  auto mutate = [&](auto edit) {
    proto::VarManagerInfo info;
    EXPECT_TRUE(info.ParseFromString(good));
    edit(&info);
    std::string out;
    info.SerializeToString(&out);
    VarManager m(3, &device);
    EXPECT_TRUE(m.Init({}).ok());
    return RestoreVarInfo(out.data(), out.size(), &m);
  };
  EXPECT_EQ(mutate([](proto::VarManagerInfo* i) { i->set_version(9); }).code(), StatusCode::kDataLoss);
  EXPECT_EQ(mutate([](proto::VarManagerInfo* i) { i->set_var_mem_logic_base(1); }).code(), StatusCode::kDataLoss);
  EXPECT_EQ(mutate([](proto::VarManagerInfo* i) {
              (*i->mutable_var_resource()->mutable_var_addr_mgr_map())["w0_1"].set_address(5);
            }).code(),
            StatusCode::kDataLoss);
  EXPECT_EQ(mutate([](proto::VarManagerInfo* i) { i->mutable_var_resource()->mutable_var_addr_mgr_map()->clear(); })
                .code(),
            StatusCode::kDataLoss);
  EXPECT_EQ(mutate([](proto::VarManagerInfo* i) {
              (*i->mutable_var_resource()->mutable_cur_var_tensor_desc_map())["w"].set_format(999);
            }).code(),
            StatusCode::kDataLoss);
  // A variable past the loading session's variable memory: the restore bounds name it.
  VarManager big(4, &device);
  ASSERT_TRUE(big.Init({}).ok());
  ASSERT_TRUE(big.AssignVarMem(Var("pad", Desc({4096}))).ok());
  ASSERT_TRUE(big.AssignVarMem(Var("late", Desc({16}))).ok());
  const std::string far = SerializeVarInfo(big).value();
  Status s = RestoreVarInfo(far.data(), far.size(), &r);
  EXPECT_EQ(s.code(), StatusCode::kDataLoss);
  EXPECT_NE(s.message().find("past the session's variable memory"), std::string::npos) << s.message();
}

}  // namespace
}  // namespace ge::var
