#include "rt/cpu/cpu_quota.h"

#include <gtest/gtest.h>
#include <sched.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace ge::rt {
namespace {

namespace fs = std::filesystem;

// A fake /sys/fs/cgroup under a fresh temporary folder, removed at the end.
class CgroupTree : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/ge_cgroup_XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    root_ = tmpl;
  }
  void TearDown() override { fs::remove_all(root_); }
  void Write(const std::string& rel, const std::string& text) {
    fs::create_directories(fs::path(root_ + rel).parent_path());
    std::ofstream(root_ + rel) << text;
  }
  std::string root_;
};

TEST_F(CgroupTree, V2QuotaRoundsUp) {
  Write("/app/cpu.max", "150000 100000\n");
  EXPECT_EQ(CgroupCpuLimit(root_, "0::/app\n"), 2);
  Write("/app/cpu.max", "100000 100000\n");
  EXPECT_EQ(CgroupCpuLimit(root_, "0::/app\n"), 1);
  Write("/app/cpu.max", "20000 100000\n");  // a fifth of a CPU is still one thread
  EXPECT_EQ(CgroupCpuLimit(root_, "0::/app\n"), 1);
  Write("/app/cpu.max", "390000 99000\n");  // every digit counts: 3.94 CPUs
  EXPECT_EQ(CgroupCpuLimit(root_, "0::/app\n"), 4);
}

TEST_F(CgroupTree, V2MaxIsNoLimit) {
  Write("/app/cpu.max", "max 100000\n");
  EXPECT_EQ(CgroupCpuLimit(root_, "0::/app\n"), 0);
}

TEST_F(CgroupTree, V2AncestorLimitApplies) {
  Write("/kubepods/cpu.max", "300000 100000\n");
  Write("/kubepods/pod1/cpu.max", "max 100000\n");
  Write("/kubepods/pod1/ctr/cpu.max", "500000 100000\n");
  EXPECT_EQ(CgroupCpuLimit(root_, "0::/kubepods/pod1/ctr\n"), 3);
}

TEST_F(CgroupTree, V1QuotaOverPeriod) {
  Write("/cpu,cpuacct/docker/abc/cpu.cfs_quota_us", "250000\n");
  Write("/cpu,cpuacct/docker/abc/cpu.cfs_period_us", "100000\n");
  EXPECT_EQ(CgroupCpuLimit(root_, "12:memory:/docker/abc\n4:cpu,cpuacct:/docker/abc\n"), 3);
}

TEST_F(CgroupTree, V1MinusOneIsNoLimit) {
  Write("/cpu,cpuacct/docker/abc/cpu.cfs_quota_us", "-1\n");
  Write("/cpu,cpuacct/docker/abc/cpu.cfs_period_us", "100000\n");
  EXPECT_EQ(CgroupCpuLimit(root_, "4:cpu,cpuacct:/docker/abc\n"), 0);
}

TEST_F(CgroupTree, V1ControllerOtherThanCpuIgnored) {
  Write("/cpu,cpuacct/x/cpu.cfs_quota_us", "100000\n");
  Write("/cpu,cpuacct/x/cpu.cfs_period_us", "100000\n");
  EXPECT_EQ(CgroupCpuLimit(root_, "4:cpuset:/x\n"), 0);
  EXPECT_EQ(CgroupCpuLimit(root_, "4:cpuacct,cpu:/x\n"), 1);
}

TEST_F(CgroupTree, GarbageAndMissingFilesImposeNothing) {
  Write("/a/cpu.max", "lots of cpus\n");
  Write("/b/cpu.max", "99999999999999999999999 100000\n");
  Write("/c/cpu.max", "100000 0\n");
  for (const char* text :
       {"0::/a\n", "0::/b\n", "0::/c\n", "0::/missing\n", "garbage", "", "0::relative\n", "0::/../../etc\n"}) {
    EXPECT_EQ(CgroupCpuLimit(root_, text), 0) << text;
  }
}

TEST(UsableCpuCount, NeverMoreThanTheAffinityMask) {
  cpu_set_t set;
  CPU_ZERO(&set);
  ASSERT_EQ(sched_getaffinity(0, sizeof(set), &set), 0);
  const int n = UsableCpuCount();
  EXPECT_GE(n, 1);
  EXPECT_LE(n, CPU_COUNT(&set));
}

TEST(UsableCpuCount, FollowsANarrowedAffinityMask) {
  cpu_set_t saved;
  CPU_ZERO(&saved);
  ASSERT_EQ(sched_getaffinity(0, sizeof(saved), &saved), 0);
  int first = -1;
  for (int c = 0; c < CPU_SETSIZE && first < 0; ++c) {
    if (CPU_ISSET(c, &saved)) first = c;
  }
  ASSERT_GE(first, 0);
  cpu_set_t one;
  CPU_ZERO(&one);
  CPU_SET(first, &one);
  ASSERT_EQ(sched_setaffinity(0, sizeof(one), &one), 0);
  const int n = UsableCpuCount();
  ASSERT_EQ(sched_setaffinity(0, sizeof(saved), &saved), 0);
  EXPECT_EQ(n, 1);
}

}  // namespace
}  // namespace ge::rt
