// VarManager against the rules of seed 000 and ge_facts.md §5, one test per rule, on the recording device (so
// every allocation and copy the manager makes is counted).
#include "var/var_manager.h"

#include <gtest/gtest.h>

#include <cstring>

#include "rt/testing/recording_device.h"
#include "var/var_test_util.h"

namespace ge::var {
namespace {

constexpr uint64_t kGiB = uint64_t{1} << 30;

using testing::Desc;
using testing::Var;

class VarManagerTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(vm_.Init({}).ok()); }
  uint64_t DeviceMallocs() const { return device_.record().mallocs[static_cast<int>(rt::MemType::kDevice)]; }

  rt::testing::RecordingDevice device_;
  VarManager vm_{7, &device_};
};

TEST(VarKey, NameFormatAndDtypeWithoutSeparatorBeforeTheFormat) {
  EXPECT_EQ(VarKey("w", Desc({2}, DataType::kFloat, Format::kND)), "w0_1");
  EXPECT_EQ(VarKey("w", Desc({2}, DataType::kFloat, Format::kNHWC)), "w2_1");
}

TEST_F(VarManagerTest, MemoryBudgetSplitsInto26And5Of32) {
  EXPECT_EQ(vm_.graph_mem_max_size(), 26 * kGiB);  // defaults
  EXPECT_EQ(vm_.var_mem_max_size(), 5 * kGiB);
  VarManager b(1, &device_);
  ASSERT_TRUE(b.Init({0, 32 * kGiB}).ok());
  EXPECT_EQ(b.graph_mem_max_size(), 26 * kGiB);
  EXPECT_EQ(b.var_mem_max_size(), 5 * kGiB);
  ASSERT_TRUE(b.Init({0, 64 * kGiB}).ok());  // idempotent: the first Init wins
  EXPECT_EQ(b.var_mem_max_size(), 5 * kGiB);
  VarManager c(2, &device_);
  EXPECT_EQ(c.Init({0, 257 * kGiB}).code(), StatusCode::kInvalidArgument);
  VarManager d(3, &device_);
  EXPECT_EQ(d.AssignVarMem(Var("w", Desc({4}))).status().code(), StatusCode::kFailedPrecondition);  // no Init
}

TEST_F(VarManagerTest, OffsetsGrowByAlignedSizePlusTwoGuards) {
  auto a = vm_.AssignVarMem(Var("a", Desc({10})));  // 40 bytes -> 512 + 1024
  auto b = vm_.AssignVarMem(Var("b", Desc({200})));  // 800 bytes -> 1024 + 1024
  auto c = vm_.AssignVarMem(Var("c", Desc({1})));
  ASSERT_TRUE(a.ok() && b.ok() && c.ok());
  EXPECT_EQ(*a, kVarMemoryLogicBase);
  EXPECT_EQ(*b, kVarMemoryLogicBase + 512 + 1024);
  EXPECT_EQ(*c, kVarMemoryLogicBase + 512 + 1024 + 1024 + 1024);
  EXPECT_EQ(vm_.GetVarMemSize(rt::MemType::kDevice), 512 + 1024 + 1024 + 1024 + 512 + 1024);
  EXPECT_EQ(DeviceMallocs(), 0u);  // logical only: no device memory at compile time
}

TEST_F(VarManagerTest, LimitIsTheSessionsVariableMemory) {
  VarManager small(9, &device_);
  ASSERT_TRUE(small.Init({0, 32 * 1024}).ok());  // 5/32 of 32 KiB = 5 KiB of variables
  ASSERT_TRUE(small.AssignVarMem(Var("a", Desc({512}))).ok());  // 2048 + 1024
  Status s = small.AssignVarMem(Var("b", Desc({512}))).status();
  EXPECT_EQ(s.code(), StatusCode::kResourceExhausted);
  EXPECT_NE(s.message().find("'b'"), std::string::npos) << s.message();
}

TEST_F(VarManagerTest, SameNameReusesRekeysOnFormatChangeAndGrowsAnew) {
  const uint64_t w = vm_.AssignVarMem(Var("w", Desc({4, 4}))).value();
  EXPECT_EQ(vm_.AssignVarMem(Var("w", Desc({4, 4}))).value(), w);  // rule 1: same name, same format
  // Rule 4: another format of the same size re-keys onto the same memory.
  const TensorDesc nhwc = Desc({1, 4, 2, 2}, DataType::kFloat, Format::kNHWC);
  EXPECT_EQ(vm_.AssignVarMem(Var("w", nhwc)).value(), w);
  EXPECT_TRUE(vm_.IsVarExist("w", nhwc));
  EXPECT_TRUE(vm_.IsVarExist("w", Desc({4, 4})));
  EXPECT_EQ(vm_.GetCurVarDesc("w").value().format, Format::kNHWC);
  // Rule 3: a larger desc needs new memory.
  const uint64_t bigger = vm_.AssignVarMem(Var("w", Desc({64, 64}))).value();
  EXPECT_NE(bigger, w);
  EXPECT_FALSE(vm_.IsVarExist("nope"));
}

TEST_F(VarManagerTest, ConstantsWithIdenticalBytesShareMemory) {
  Tensor a = Tensor::FromVector<float>({1, 2, 3, 4}, {4});
  Tensor same = Tensor::FromVector<float>({1, 2, 3, 4}, {4});
  Tensor other = Tensor::FromVector<float>({1, 2, 3, 5}, {4});
  VarRequest ra = Var("c1", Desc({4}));
  ra.kind = VarKind::kConstant;
  ra.value = &a;
  VarRequest rs = ra, ro = ra;
  rs.name = "c2";
  rs.value = &same;
  ro.name = "c3";
  ro.value = &other;
  const uint64_t l1 = vm_.AssignVarMem(ra).value();
  EXPECT_EQ(vm_.AssignVarMem(rs).value(), l1);
  EXPECT_NE(vm_.AssignVarMem(ro).value(), l1);
  // Wrong byte count for the desc.
  Tensor three = Tensor::FromVector<float>({1, 2, 3}, {3});
  VarRequest bad = ra;
  bad.name = "c4";
  bad.value = &three;
  EXPECT_EQ(vm_.AssignVarMem(bad).status().code(), StatusCode::kInvalidArgument);
}

TEST_F(VarManagerTest, FileConstantsDeduplicateByPathAndOffset) {
  VarRequest f1 = Var("f1", Desc({8}));
  f1.kind = VarKind::kFileConstant;
  f1.file_key = "weights.bin:0";
  VarRequest f2 = f1, f3 = f1;
  f2.name = "f2";
  f3.name = "f3";
  f3.file_key = "weights.bin:32";
  const uint64_t l1 = vm_.AssignVarMem(f1).value();
  EXPECT_EQ(vm_.AssignVarMem(f2).value(), l1);
  EXPECT_NE(vm_.AssignVarMem(f3).value(), l1);
}

TEST_F(VarManagerTest, FileConstantReuseRequiresEnoughSize) {
  VarRequest small = Var("small", Desc({8}));
  small.kind = VarKind::kFileConstant;
  small.file_key = "weights.bin:0";
  VarRequest large = small, same = small;
  large.name = "large";
  large.desc = Desc({1024});  // same file range, 4096 bytes: the 32-byte block cannot hold it
  same.name = "same";
  const uint64_t l_small = vm_.AssignVarMem(small).value();
  const uint64_t l_large = vm_.AssignVarMem(large).value();
  EXPECT_NE(l_large, l_small);
  EXPECT_GE(vm_.GetVarMemSize(rt::MemType::kDevice), (512 + 1024) + (4096 + 1024));
  EXPECT_EQ(vm_.AssignVarMem(same).value(), l_small);  // a request that fits still shares the block
}

TEST_F(VarManagerTest, OnlyFileConstantsShareAFileRangesMemory) {
  VarRequest f = Var("f", Desc({8}));
  f.kind = VarKind::kFileConstant;
  f.file_key = "weights.bin:0";
  VarRequest v = f;  // a variable that happens to carry the same key: its own memory
  v.name = "v";
  v.kind = VarKind::kVariable;
  const uint64_t lf = vm_.AssignVarMem(f).value();
  EXPECT_NE(vm_.AssignVarMem(v).value(), lf);
  VarRequest c = v;
  c.name = "c";
  c.kind = VarKind::kConstant;
  EXPECT_NE(vm_.AssignVarMem(c).value(), lf);
}

TEST_F(VarManagerTest, RestoreChecksBaseLimitAndFormatSize) {
  const TensorDesc d = Desc({16});
  EXPECT_EQ(vm_.RestoreVarMem("v", d, kVarMemoryLogicBase - 1).code(), StatusCode::kDataLoss);
  EXPECT_EQ(vm_.RestoreVarMem("v", d, kVarMemoryLogicBase + 5 * kGiB - 8).code(), StatusCode::kDataLoss);
  ASSERT_TRUE(vm_.RestoreVarMem("v", d, kVarMemoryLogicBase + 4096).ok());
  EXPECT_TRUE(vm_.RestoreVarMem("v", d, kVarMemoryLogicBase + 4096).ok());  // again: same place, fine
  EXPECT_EQ(vm_.RestoreVarMem("v", d, kVarMemoryLogicBase + 8192).code(), StatusCode::kFailedPrecondition);
  // The same variable in a format needing more bytes: recompile.
  Status s = vm_.RestoreVarMem("v", Desc({1, 32, 1, 1}, DataType::kFloat, Format::kNHWC), kVarMemoryLogicBase + 4096);
  EXPECT_EQ(s.code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(s.message().find("recompile"), std::string::npos) << s.message();
  // ... and one needing no more bytes may take the memory.
  EXPECT_TRUE(vm_.RestoreVarMem("v", Desc({1, 16, 1, 1}, DataType::kFloat, Format::kNHWC), kVarMemoryLogicBase + 4096).ok());
  // Later assignments go past the restored range.
  EXPECT_GE(vm_.AssignVarMem(Var("after", d)).value(), kVarMemoryLogicBase + 4096 + 512 + 1024);
}

// Restoring a known variable at its own address with other dims (the key has no dims) makes those dims current.
TEST_F(VarManagerTest, RestoreAtTheSameAddressMakesTheRestoredDescCurrent) {
  const uint64_t l = kVarMemoryLogicBase + 4096;
  ASSERT_TRUE(vm_.RestoreVarMem("v", Desc({16}), l).ok());
  ASSERT_TRUE(vm_.RestoreVarMem("v", Desc({4, 4}), l).ok());
  auto cur = vm_.GetCurVarDesc("v");
  ASSERT_TRUE(cur.ok()) << cur.status().ToString();
  EXPECT_EQ(cur->shape.dims(), (Dims{4, 4}));
}

TEST_F(VarManagerTest, LazyDeviceMemoryWithGuardsOnBothSides) {
  const uint64_t l = vm_.AssignVarMem(Var("w", Desc({100}))).value();  // 400 bytes
  EXPECT_EQ(DeviceMallocs(), 0u);
  auto p = vm_.GetVarMemoryAddr(l, rt::MemType::kDevice);
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  EXPECT_EQ(DeviceMallocs(), 1u);
  EXPECT_EQ(device_.record().live_bytes[static_cast<int>(rt::MemType::kDevice)], 512u + 1024u);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(*p) % 512, 0u);
  EXPECT_EQ(vm_.GetVarMemoryAddr(l, rt::MemType::kDevice).value(), *p);  // cached
  EXPECT_EQ(DeviceMallocs(), 1u);
  EXPECT_EQ(vm_.GetVarMemoryAddr(l + 40, rt::MemType::kDevice).value(), static_cast<char*>(*p) + 40);  // inner
  std::memset(*p, 0x5A, 400);
  const auto* lo = static_cast<const unsigned char*>(*p) - 512;
  for (int i = 0; i < 512; ++i) ASSERT_EQ(lo[i], 0) << "front guard " << i;
  const auto* hi = static_cast<const unsigned char*>(*p) + 512;
  for (int i = 0; i < 512; ++i) ASSERT_EQ(hi[i], 0) << "back guard " << i;
  EXPECT_EQ(vm_.GetVarMemoryAddr(l + 400, rt::MemType::kDevice).status().code(), StatusCode::kNotFound);
  EXPECT_EQ(vm_.GetVarMemoryAddr(kVarMemoryLogicBase - 1, rt::MemType::kDevice).status().code(), StatusCode::kNotFound);
  ASSERT_TRUE(vm_.FreeVarMemory().ok());
  EXPECT_EQ(device_.record().live_bytes[static_cast<int>(rt::MemType::kDevice)], 0u);
}

// A manager without a device (compile-time only) has allocated nothing, so freeing touches no device.
TEST_F(VarManagerTest, FreeWithoutADeviceFreesNothing) {
  VarManager no_device(8, nullptr);
  ASSERT_TRUE(no_device.Init({}).ok());
  const uint64_t l = no_device.AssignVarMem(Var("w", Desc({4}))).value();
  EXPECT_EQ(no_device.GetVarMemoryAddr(l, rt::MemType::kDevice).status().code(), StatusCode::kFailedPrecondition);
  EXPECT_TRUE(no_device.FreeVarMemory().ok());
}

TEST_F(VarManagerTest, FreeingTwiceFreesEachBlockOnce) {
  const uint64_t a = vm_.AssignVarMem(Var("a", Desc({4}))).value();
  ASSERT_TRUE(vm_.AssignVarMem(Var("never_used", Desc({4}))).ok());
  ASSERT_TRUE(vm_.GetVarMemoryAddr(a, rt::MemType::kDevice).ok());
  ASSERT_TRUE(vm_.FreeVarMemory().ok());
  ASSERT_TRUE(vm_.FreeVarMemory().ok());
  EXPECT_EQ(device_.record().frees[static_cast<int>(rt::MemType::kDevice)], 1u);
  EXPECT_EQ(device_.record().bad_frees, 0u);
}

TEST_F(VarManagerTest, InitValueIsCheckedAndCopiedAtFirstAllocation) {
  const uint64_t l = vm_.AssignVarMem(Var("w", Desc({2, 2}))).value();
  EXPECT_EQ(vm_.SetInitValue("w", Tensor::FromVector<float>({1, 2, 3, 4}, {4})).code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(vm_.SetInitValue("w", Tensor::FromVector<int32_t>({1, 2, 3, 4}, {2, 2})).code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(vm_.SetInitValue("nope", Tensor::FromVector<float>({1}, {1})).code(), StatusCode::kNotFound);
  ASSERT_TRUE(vm_.SetInitValue("w", Tensor::FromVector<float>({1, 2, 3, 4}, {2, 2})).ok());
  auto p = vm_.GetVarMemoryAddr(l, rt::MemType::kDevice);
  ASSERT_TRUE(p.ok());
  const float want[4] = {1, 2, 3, 4};
  EXPECT_EQ(std::memcmp(*p, want, sizeof want), 0);
  EXPECT_EQ(device_.record().memcpys[static_cast<int>(rt::MemcpyKind::kHostToDevice)], 1u);
  // A constant's bytes are its initial value.
  Tensor c = Tensor::FromVector<float>({9, 8}, {2});
  VarRequest rc = Var("c", Desc({2}));
  rc.kind = VarKind::kConstant;
  rc.value = &c;
  const uint64_t lc = vm_.AssignVarMem(rc).value();
  EXPECT_EQ(static_cast<float*>(vm_.GetVarMemoryAddr(lc, rt::MemType::kDevice).value())[1], 8.f);
}

// VarIsInitializedOp folding asks this: an init value, or a mark (a restore, an earlier graph's write).
TEST_F(VarManagerTest, InitializedMeansInitValueOrMarked) {
  ASSERT_TRUE(vm_.AssignVarMem(Var("a", Desc({2}))).ok());
  ASSERT_TRUE(vm_.AssignVarMem(Var("b", Desc({2}))).ok());
  EXPECT_FALSE(vm_.IsVarInitialized("a"));
  EXPECT_FALSE(vm_.IsVarInitialized("unknown"));
  ASSERT_TRUE(vm_.SetInitValue("a", Tensor::FromVector<float>({1, 2}, {2})).ok());
  EXPECT_TRUE(vm_.IsVarInitialized("a"));
  EXPECT_FALSE(vm_.IsVarInitialized("b"));
  vm_.SetVarInitialized("b");
  EXPECT_TRUE(vm_.IsVarInitialized("b"));
  // Batch copies share their key variable's state.
  vm_.SetBatchVariablesKeyName("b_batch_1", "b");
  EXPECT_TRUE(vm_.IsVarInitialized("b_batch_1"));
}

TEST_F(VarManagerTest, ExternalVariableMemoryAndPlaceholders) {
  const uint64_t a = vm_.AssignVarMem(Var("a", Desc({4}))).value();
  const uint64_t b = vm_.AssignVarMem(Var("b", Desc({4}))).value();
  std::vector<char> small(64), mem(8192);
  EXPECT_EQ(vm_.SetExternalVar(small.data(), small.size()).code(), StatusCode::kInvalidArgument);
  ASSERT_TRUE(vm_.SetExternalVar(mem.data(), mem.size()).ok());
  EXPECT_EQ(vm_.GetVarMemoryAddr(a, rt::MemType::kDevice).value(), mem.data());
  EXPECT_EQ(vm_.GetVarMemoryAddr(b, rt::MemType::kDevice).value(), mem.data() + (b - kVarMemoryLogicBase));
  EXPECT_EQ(DeviceMallocs(), 0u);
  // A ConstPlaceHolder addresses the caller's memory.
  float user[3] = {1, 2, 3};
  VarRequest ph = Var("ph", Desc({3}));
  ph.kind = VarKind::kConstPlaceHolder;
  ph.external = user;
  const uint64_t lp = vm_.AssignVarMem(ph).value();
  EXPECT_EQ(vm_.GetVarMemoryAddr(lp, rt::MemType::kDevice).value(), static_cast<void*>(user));
}

TEST_F(VarManagerTest, HostAndRdmaVariables) {
  VarRequest h = Var("h", Desc({16}));
  h.mem_type = rt::MemType::kHost;
  const uint64_t lh = vm_.AssignVarMem(h).value();
  EXPECT_EQ(device_.record().mallocs[static_cast<int>(rt::MemType::kHost)], 1u);
  void* ph = vm_.GetVarMemoryAddr(lh, rt::MemType::kHost).value();
  EXPECT_EQ(reinterpret_cast<uint64_t>(ph), lh);  // host memory: the logical address is the memory's
  for (int i = 0; i < 16; ++i) EXPECT_EQ(static_cast<float*>(ph)[i], 0.f);  // zeroed
  VarRequest r = Var("r", Desc({16}));
  r.mem_type = rt::MemType::kRdma;
  const uint64_t lr = vm_.AssignVarMem(r).value();
  EXPECT_EQ(reinterpret_cast<uint64_t>(vm_.GetVarMemoryAddr(lr, rt::MemType::kRdma).value()), lr);
  EXPECT_EQ(vm_.RestoreVarMem("hh", Desc({4}), lh, rt::MemType::kHost).code(), StatusCode::kFailedPrecondition);
}

TEST_F(VarManagerTest, ReadyAndLoadedStatePerDevice) {
  const TensorDesc d = Desc({4});
  const uint64_t l = vm_.AssignVarMem(Var("w", d)).value();
  EXPECT_FALSE(vm_.IsVarReady("w", d, 0));
  vm_.SetVarIsReady("w", d, 0);
  EXPECT_TRUE(vm_.IsVarReady("w", d, 0));
  EXPECT_FALSE(vm_.IsVarReady("w", d, 1));
  EXPECT_FALSE(vm_.CheckAndSetVarLoaded(0, l));
  EXPECT_TRUE(vm_.CheckAndSetVarLoaded(0, l));
  EXPECT_FALSE(vm_.CheckAndSetVarLoaded(1, l));
}

TEST_F(VarManagerTest, TransRoadsGraphIdsBatchNamesAndRenew) {
  const uint64_t w = vm_.AssignVarMem(Var("w", Desc({1, 4, 2, 2}))).value();
  const TensorDesc nc1hwc0 = Desc({1, 4, 2, 2}, DataType::kFloat, Format::kNC1HWC0);
  EXPECT_EQ(vm_.RenewCurVarDesc("w", Desc({64, 64})).code(), StatusCode::kFailedPrecondition);  // too big
  ASSERT_TRUE(vm_.SetTransRoad("w", {TransStep{"TransData", Desc({1, 4, 2, 2}), nc1hwc0}}).ok());
  EXPECT_EQ(vm_.GetTransRoad("w").size(), 1u);
  EXPECT_EQ(vm_.SetTransRoad("nope", {}).code(), StatusCode::kNotFound);
  vm_.SetChangedGraphId("w", 3);
  vm_.SetAllocatedGraphId("w", 1);
  vm_.SetAllocatedGraphId("w", 2);  // the first graph that allocated it stays
  uint32_t g = 0;
  ASSERT_TRUE(vm_.GetChangedGraphId("w", &g));
  EXPECT_EQ(g, 3u);
  ASSERT_TRUE(vm_.GetAllocatedGraphId("w", &g));
  EXPECT_EQ(g, 1u);
  // Multi-batch: "w_batch1" is keyed as "w" and shares its memory.
  vm_.SetBatchVariablesKeyName("w_batch1", "w");
  EXPECT_EQ(vm_.AssignVarMem(Var("w_batch1", Desc({1, 4, 2, 2}))).value(), w);
  // A renewed format may use the variable's aligned room (64 bytes hold 512): NC1HWC0 pads 4 channels to 16.
  ASSERT_TRUE(vm_.RenewCurVarDesc("w", Desc({1, 4, 2, 2}, DataType::kFloat, Format::kNC1HWC0)).ok());
  EXPECT_TRUE(vm_.GetVarMemoryAddr(w + 255, rt::MemType::kDevice).ok());  // the padded bytes are addressable
  ASSERT_TRUE(vm_.RenewCurVarDesc("w", Desc({1, 2, 2, 4}, DataType::kFloat, Format::kNHWC)).ok());
  EXPECT_EQ(vm_.GetCurVarDesc("w").value().format, Format::kNHWC);
  EXPECT_EQ(vm_.GetVarAddr("w", Desc({1, 2, 2, 4}, DataType::kFloat, Format::kNHWC)).value().logical, w);
}

TEST(VarManagerPool, OneManagerPerSessionAndSessionsAreIsolated) {
  rt::testing::RecordingDevice device;
  VarManagerPool pool(&device);
  auto a = pool.Instance(1), b = pool.Instance(2);
  EXPECT_EQ(pool.Instance(1), a);
  EXPECT_NE(a, b);
  ASSERT_TRUE(a->Init({}).ok() && b->Init({}).ok());
  EXPECT_EQ(a->AssignVarMem(Var("w", Desc({4}))).value(), kVarMemoryLogicBase);
  EXPECT_EQ(b->AssignVarMem(Var("other", Desc({4}))).value(), kVarMemoryLogicBase);  // its own space
  EXPECT_FALSE(b->IsVarExist("w"));
  EXPECT_EQ(pool.size(), 2u);
  pool.Destroy(1);
  EXPECT_EQ(pool.size(), 1u);
  EXPECT_EQ(a->session_id(), 1u);  // still usable by whoever holds it
}

}  // namespace
}  // namespace ge::var
