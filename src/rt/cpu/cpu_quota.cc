#include "rt/cpu/cpu_quota.h"

#include <sched.h>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <sstream>
#include <thread>
#include <vector>

namespace ge::rt {
namespace {

bool ReadFile(const std::string& path, std::string* out) {
  std::ifstream f(path);
  if (!f) return false;
  std::ostringstream ss;
  ss << f.rdbuf();
  *out = ss.str();
  return true;
}

// Parses a non-negative decimal at the start of |s| (after spaces); false if there is none or it overflows.
bool ParseCount(const std::string& s, int64_t* value) {
  size_t i = s.find_first_not_of(" \t");
  if (i == std::string::npos || s[i] < '0' || s[i] > '9') return false;
  int64_t v = 0;
  for (; i < s.size() && s[i] >= '0' && s[i] <= '9'; ++i) {
    if (v > (INT64_MAX - 9) / 10) return false;
    v = v * 10 + (s[i] - '0');
  }
  *value = v;
  return true;
}

// ceil(quota / period) CPUs, or 0 where there is no limit.
int CpusOf(int64_t quota, int64_t period) {
  if (quota <= 0 || period <= 0) return 0;
  const int64_t cpus = (quota + period - 1) / period;
  return static_cast<int>(std::min<int64_t>(std::max<int64_t>(cpus, 1), 1 << 20));
}

// cgroup v2: "cpu.max" holds "max PERIOD" or "QUOTA PERIOD".
int V2Limit(const std::string& dir) {
  std::string text;
  if (!ReadFile(dir + "/cpu.max", &text)) return 0;
  std::istringstream in(text);
  std::string quota, period;
  in >> quota >> period;
  int64_t q = 0, p = 0;
  if (quota == "max" || !ParseCount(quota, &q) || !ParseCount(period, &p)) return 0;
  return CpusOf(q, p);
}

// cgroup v1: cpu.cfs_quota_us (-1: none) over cpu.cfs_period_us.
int V1Limit(const std::string& dir) {
  std::string quota, period;
  if (!ReadFile(dir + "/cpu.cfs_quota_us", &quota) || !ReadFile(dir + "/cpu.cfs_period_us", &period)) return 0;
  int64_t q = 0, p = 0;
  if (!ParseCount(quota, &q) || !ParseCount(period, &p)) return 0;  // "-1" does not parse: no limit
  return CpusOf(q, p);
}

int Tighter(int a, int b) {
  if (a == 0) return b;
  if (b == 0) return a;
  return std::min(a, b);
}

// The tightest limit on |rel| ("/a/b") or an ancestor, each looked up under |base| with |limit_of|.
int TightestOnPath(const std::string& base, std::string rel, int (*limit_of)(const std::string&)) {
  int limit = 0;
  while (!rel.empty() && rel.back() == '/') rel.pop_back();
  for (;;) {
    limit = Tighter(limit, limit_of(base + rel));
    if (rel.empty()) return limit;
    const size_t slash = rel.rfind('/');
    rel = slash == std::string::npos ? std::string() : rel.substr(0, slash);
  }
}

bool HasController(const std::string& list, const std::string& name) {
  std::istringstream in(list);
  std::string item;
  while (std::getline(in, item, ',')) {
    if (item == name) return true;
  }
  return false;
}

}  // namespace

int CgroupCpuLimit(const std::string& cgroup_root, const std::string& proc_self_cgroup) {
  int limit = 0;
  std::istringstream lines(proc_self_cgroup);
  std::string line;
  while (std::getline(lines, line)) {
    // "ID:CONTROLLERS:PATH"; v2's unified line is "0::PATH".
    const size_t a = line.find(':');
    const size_t b = a == std::string::npos ? std::string::npos : line.find(':', a + 1);
    if (b == std::string::npos) continue;
    const std::string controllers = line.substr(a + 1, b - a - 1);
    std::string path = line.substr(b + 1);
    if (path.empty() || path[0] != '/') continue;
    if (path.find("/..") != std::string::npos) continue;  // never walk out of the root
    if (controllers.empty()) {
      limit = Tighter(limit, TightestOnPath(cgroup_root, path, V2Limit));
    } else if (HasController(controllers, "cpu")) {
      // v1 mounts the cpu controller at cpu,cpuacct (Debian) or cpu.
      for (const char* mount : {"/cpu,cpuacct", "/cpu"}) {
        limit = Tighter(limit, TightestOnPath(cgroup_root + mount, path, V1Limit));
      }
    }
  }
  return limit;
}

int UsableCpuCount() {
  int cpus = 0;
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) == 0) cpus = CPU_COUNT(&set);
  if (cpus <= 0) cpus = static_cast<int>(std::thread::hardware_concurrency());
  std::string self;
  if (ReadFile("/proc/self/cgroup", &self)) {
    const int quota = CgroupCpuLimit("/sys/fs/cgroup", self);
    if (quota > 0) cpus = std::min(cpus, quota);
  }
  return std::max(cpus, 1);
}

}  // namespace ge::rt
