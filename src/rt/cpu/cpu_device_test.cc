#include "rt/cpu/cpu_device.h"

#include <gtest/gtest.h>

#include "rt/cpu/test_util.h"

namespace ge::rt {
namespace {
using namespace testing;  // NOLINT

TEST(CpuDevice, PoolsFollowOptions) {
  DeviceOptions o;
  o.device_memory_limit = 1 << 20;
  o.host_memory_limit = 4096;
  o.intra_op_threads = 3;
  auto dev = CpuDevice::Create(o);
  ASSERT_TRUE(dev.ok());
  CpuDevice& d = **dev;
  EXPECT_EQ(d.thread_pool().num_threads(), 3);
  EXPECT_EQ(d.pool(MemType::kDevice).type(), MemType::kDevice);
  EXPECT_EQ(d.pool(MemType::kRdma).type(), MemType::kRdma);
  EXPECT_TRUE(d.pool(MemType::kRdma).options().pin);
  EXPECT_EQ(d.pool(MemType::kDevice).stats().limit_bytes, size_t{1} << 20);

  auto p = d.Malloc(MemType::kHost, 4096);
  ASSERT_TRUE(p.ok());
  auto q = d.Malloc(MemType::kHost, 1);
  EXPECT_EQ(q.status().code(), StatusCode::kResourceExhausted);
  EXPECT_NE(q.status().message().find("host"), std::string::npos);
  auto r = d.Malloc(MemType::kDevice, 4096);  // pools are independent
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(d.Free(MemType::kDevice, *p).code(), StatusCode::kInvalidArgument);  // wrong pool
  EXPECT_TRUE(d.Free(MemType::kHost, *p).ok());
  EXPECT_TRUE(d.Free(MemType::kDevice, *r).ok());
}

TEST(CpuDevice, RejectsBadHugePagePolicy) {
  DeviceOptions o;
  o.huge_page_policy = 3;
  EXPECT_EQ(CpuDevice::Create(o).status().code(), StatusCode::kInvalidArgument);
  o.huge_page_policy = 2;
  o.huge_page_min_bytes = size_t{4} << 20;
  auto dev = CpuDevice::Create(o);
  ASSERT_TRUE(dev.ok());
  EXPECT_EQ((*dev)->pool(MemType::kDevice).options().huge_page_policy, HugePagePolicy::kPrefer1G);
  auto p = (*dev)->Malloc(MemType::kDevice, size_t{4} << 20);
  ASSERT_TRUE(p.ok());
  EXPECT_TRUE((*dev)->Free(MemType::kDevice, *p).ok());
}

TEST(CpuDevice, IndependentDevicesDoNotShareState) {
  auto d1 = MakeDevice(1);
  auto d2 = MakeDevice(1);
  auto p = d1->Malloc(MemType::kDevice, 100);
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(d2->pool(MemType::kDevice).stats().live_blocks, 0u);
  EXPECT_TRUE(d1->Free(MemType::kDevice, *p).ok());
}

}  // namespace
}  // namespace ge::rt
