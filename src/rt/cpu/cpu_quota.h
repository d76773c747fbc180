// How many CPUs this process may really use: the CPUs its affinity mask allows, capped by its cgroup's CPU quota
// (a container limited to 1 CPU on a 16-core host gets 1, not 16). The default intra-op thread count.
#pragma once
#include <string>

namespace ge::rt {

// min(CPUs in the affinity mask, ceil(tightest cgroup quota on the path to the root)); at least 1. Reads
// /proc/self/cgroup and /sys/fs/cgroup; a file that is missing or unreadable imposes no limit.
int UsableCpuCount();

// The tightest CPU limit, in CPUs (rounded up, >= 1), that the cgroup v2 "cpu.max" or v1 "cpu.cfs_quota_us" /
// "cpu.cfs_period_us" files under |cgroup_root| impose on the cgroup that |proc_self_cgroup| (the text of
// /proc/self/cgroup) names, or on any of its ancestors; 0 when none does. Separated from UsableCpuCount for tests.
int CgroupCpuLimit(const std::string& cgroup_root, const std::string& proc_self_cgroup);

}  // namespace ge::rt
