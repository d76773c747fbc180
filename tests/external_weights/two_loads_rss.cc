// Loads one .om several times in this process through the public API (libge.so), runs each load once, and reports
// the process's resident memory (VmRSS, and its file-backed and anonymous parts) after each: with external weights
// (ge compile --external_weight=1|2) the loads share one mapping of the weight file, so a second load adds only
// the model's own memory (feature map, kernel scratchpads), not the weights again. Prints one JSON line.
//
// usage: two_loads_rss MODEL.om [--loads=2] [--threads=1] [--weights_bytes=N --max_file_growth_fraction=F]
//   With both it fails when a load after the first adds more than F x N bytes of file-backed RSS (pages of the
//   .om or the weight files mapped again).
// exit: 0 ok; 1 an error or the growth bound broken; 77 the model file is missing.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "ge/model.h"

namespace {

std::string Flag(int argc, char** argv, const char* name, const std::string& fallback) {
  const std::string prefix = std::string("--") + name + "=";
  for (int i = 2; i < argc; ++i) {
    if (std::strncmp(argv[i], prefix.c_str(), prefix.size()) == 0) return argv[i] + prefix.size();
  }
  return fallback;
}

// kB of a /proc/self/status line ("VmRSS:", "RssAnon:", "RssFile:"); -1 when absent.
long StatusKb(const char* key) {
  std::ifstream f("/proc/self/status");
  std::string line;
  while (std::getline(f, line)) {
    if (line.compare(0, std::strlen(key), key) == 0) return std::strtol(line.c_str() + std::strlen(key), nullptr, 10);
  }
  return -1;
}

struct Rss {
  long total, anon, file;
};
Rss Now() { return Rss{StatusKb("VmRSS:"), StatusKb("RssAnon:"), StatusKb("RssFile:")}; }
std::string Json(const Rss& r) {
  return "{\"rss_kb\":" + std::to_string(r.total) + ",\"anon_kb\":" + std::to_string(r.anon) +
         ",\"file_kb\":" + std::to_string(r.file) + "}";
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr,
                 "usage: %s MODEL.om [--loads=2] [--threads=1] [--weights_bytes=N --max_file_growth_fraction=F]\n",
                 argv[0]);
    return 1;
  }
  const std::string path = argv[1];
  if (FILE* f = std::fopen(path.c_str(), "rb")) {
    std::fclose(f);
  } else {
    std::printf("%s does not exist: skipped\n", path.c_str());
    return 77;
  }
  const int loads = std::atoi(Flag(argc, argv, "loads", "2").c_str());
  const double weights_bytes = std::atof(Flag(argc, argv, "weights_bytes", "0").c_str());
  const double max_fraction = std::atof(Flag(argc, argv, "max_file_growth_fraction", "0").c_str());
  ge::OfflineModelOptions options;
  options.intra_op_threads = std::atoi(Flag(argc, argv, "threads", "1").c_str());
  options.max_concurrent_executions = 1;

  std::vector<std::unique_ptr<ge::OfflineModel>> models;
  std::vector<Rss> after;
  const Rss start = Now();
  for (int i = 0; i < loads; ++i) {
    auto m = ge::OfflineModel::LoadFromFile(path, options);
    if (!m.ok()) {
      std::fprintf(stderr, "load %d: %s\n", i + 1, m.status().ToString().c_str());
      return 1;
    }
    std::vector<std::vector<unsigned char>> in, out;
    std::vector<ge::InputBuffer> ib;
    std::vector<ge::OutputBuffer> ob;
    for (const ge::ModelTensorDesc& d : (*m)->inputs()) in.emplace_back(d.bytes, 0);
    for (const ge::ModelTensorDesc& d : (*m)->outputs()) out.emplace_back(d.bytes, 0);
    for (auto& b : in) ib.push_back({b.data(), b.size()});
    for (auto& b : out) ob.push_back({b.data(), b.size()});
    ge::Status s = (*m)->Execute(ib, ob);
    if (!s.ok()) {
      std::fprintf(stderr, "run %d: %s\n", i + 1, s.ToString().c_str());
      return 1;
    }
    models.push_back(std::move(*m));
    after.push_back(Now());
  }
  std::string loads_json = "[";
  bool ok = true;
  for (size_t i = 0; i < after.size(); ++i) {
    const Rss& before = i == 0 ? start : after[i - 1];
    const long growth_kb = after[i].total - before.total;
    const long file_growth_kb = after[i].file - before.file;
    loads_json += (i ? "," : "") + Json(after[i]).substr(0, Json(after[i]).size() - 1) +
                  ",\"growth_kb\":" + std::to_string(growth_kb) +
                  ",\"anon_growth_kb\":" + std::to_string(after[i].anon - before.anon) +
                  ",\"file_growth_kb\":" + std::to_string(file_growth_kb) + "}";
    if (i > 0 && weights_bytes > 0 && max_fraction > 0 && file_growth_kb * 1024.0 > max_fraction * weights_bytes) {
      std::fprintf(stderr, "load %zu added %ld kB of file-backed pages, more than %.3g of the %.0f weight bytes\n",
                   i + 1, file_growth_kb, max_fraction, weights_bytes);
      ok = false;
    }
  }
  std::printf("{\"model\":\"%s\",\"start\":%s,\"loads\":%s]}\n", path.c_str(), Json(start).c_str(),
              loads_json.c_str());
  return ok ? 0 : 1;
}
