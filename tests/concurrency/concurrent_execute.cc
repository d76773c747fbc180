// One loaded model, several threads calling Execute (issue 10, "reentrant loaded models"), through the public API
// only (libge.so, include/ge): every output of every concurrent request must be bit-identical to what a
// single-threaded run of the same input gave. Prints the throughput of both as one JSON line (the best of
// `rounds` alternating rounds of each); it never fails on speed (machines here are shared and noisy; the figure
// is for the closing note and benchmarks).
//
// usage: concurrent_execute MODEL.om [--threads=2] [--requests=1000] [--baseline_requests=200] [--inputs=8] [--rounds=5]
// exit: 0 all identical; 1 a mismatch or an error; 77 the model file is missing (the model zoo was skipped).
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "ge/model.h"

namespace {

struct Request {
  std::vector<std::vector<unsigned char>> inputs;  // per model input
  std::vector<std::vector<unsigned char>> want;    // per model output, from the single-threaded run
};

long Flag(int argc, char** argv, const char* name, long fallback) {
  const std::string prefix = std::string("--") + name + "=";
  for (int i = 2; i < argc; ++i) {
    if (std::strncmp(argv[i], prefix.c_str(), prefix.size()) == 0) return std::strtol(argv[i] + prefix.size(), nullptr, 10);
  }
  return fallback;
}

// Fills a buffer with values a real input could hold: floats from N(0, 1), other types with small integers.
void Fill(const ge::ModelTensorDesc& d, std::mt19937& rng, std::vector<unsigned char>* bytes) {
  bytes->assign(d.bytes, 0);
  if (d.dtype == ge::DataType::kFloat) {
    std::normal_distribution<float> n(0.f, 1.f);
    auto* f = reinterpret_cast<float*>(bytes->data());
    for (size_t i = 0; i < d.bytes / sizeof(float); ++i) f[i] = n(rng);
  } else {
    for (unsigned char& b : *bytes) b = static_cast<unsigned char>(rng() % 4);
  }
}

ge::Status Run(ge::OfflineModel& m, const Request& r, std::vector<std::vector<unsigned char>>* out) {
  std::vector<ge::InputBuffer> in;
  for (const auto& b : r.inputs) in.push_back({b.data(), b.size()});
  std::vector<ge::OutputBuffer> ob;
  for (auto& b : *out) ob.push_back({b.data(), b.size()});
  return m.Execute(in, ob);
}

double Seconds(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s MODEL.om [--threads=2] [--requests=1000] [--baseline_requests=200] [--inputs=8] [--rounds=5]\n",
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
  const int threads = static_cast<int>(Flag(argc, argv, "threads", 2));
  const long requests = Flag(argc, argv, "requests", 1000);
  const long baseline_requests = Flag(argc, argv, "baseline_requests", 200);
  const int num_inputs = static_cast<int>(Flag(argc, argv, "inputs", 8));
  const int rounds = static_cast<int>(Flag(argc, argv, "rounds", 5));
  if (threads < 1 || requests < 1 || baseline_requests < 1 || num_inputs < 1 || rounds < 1 || rounds > requests) {
    std::fprintf(stderr, "--threads, --requests, --baseline_requests, --inputs and --rounds must be >= 1 (rounds <= requests)\n");
    return 1;
  }

  ge::OfflineModelOptions options;
  options.intra_op_threads = 1;  // one thread per execution: the concurrency is across requests
  options.max_concurrent_executions = threads;
  auto loaded = ge::OfflineModel::LoadFromFile(path, options);
  if (!loaded.ok()) {
    std::fprintf(stderr, "load: %s\n", loaded.status().ToString().c_str());
    return 1;
  }
  ge::OfflineModel& model = **loaded;

  // Distinct inputs with their single-threaded outputs.
  std::mt19937 rng(20261201);
  std::vector<Request> reqs(static_cast<size_t>(num_inputs));
  for (Request& r : reqs) {
    for (const ge::ModelTensorDesc& d : model.inputs()) Fill(d, rng, &r.inputs.emplace_back());
    for (const ge::ModelTensorDesc& d : model.outputs()) r.want.emplace_back(d.bytes, 0);
    const ge::Status s = Run(model, r, &r.want);
    if (!s.ok()) {
      std::fprintf(stderr, "single-threaded run: %s\n", s.ToString().c_str());
      return 1;
    }
  }

  // Baseline throughput: one thread, the same requests in turn (every output checked too).
  std::atomic<long> mismatches{0}, failures{0};
  auto serve = [&](long first, long count, long stride) {
    std::vector<std::vector<unsigned char>> got;
    for (const ge::ModelTensorDesc& d : model.outputs()) got.emplace_back(d.bytes, 0);
    for (long i = first; i < count; i += stride) {
      const Request& r = reqs[static_cast<size_t>(i) % reqs.size()];
      for (auto& g : got) std::memset(g.data(), 0xA5, g.size());
      const ge::Status s = Run(model, r, &got);
      if (!s.ok()) {
        if (failures.fetch_add(1) == 0) std::fprintf(stderr, "request %ld: %s\n", i, s.ToString().c_str());
        continue;
      }
      for (size_t o = 0; o < got.size(); ++o) {
        if (std::memcmp(got[o].data(), r.want[o].data(), got[o].size()) != 0) {
          if (mismatches.fetch_add(1) == 0) std::fprintf(stderr, "request %ld: output %zu differs\n", i, o);
        }
      }
    }
  };
  // Both modes alternate in `rounds` rounds (noise on a shared machine hits both alike); each mode's best round
  // counts, as in bench/ab.py.
  double best_single = 0, best_concurrent = 0;
  const long single_per_round = std::max(1L, baseline_requests / rounds);
  const long concurrent_per_round = std::max(1L, requests / rounds);
  long served = 0;
  for (int round = 0; round < rounds; ++round) {
    auto t0 = std::chrono::steady_clock::now();
    serve(0, single_per_round, 1);
    best_single = std::max(best_single, static_cast<double>(single_per_round) / Seconds(t0));
    const long count = round + 1 == rounds ? requests - served : concurrent_per_round;
    t0 = std::chrono::steady_clock::now();
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; ++t) pool.emplace_back(serve, t, count, threads);
    for (std::thread& t : pool) t.join();
    best_concurrent = std::max(best_concurrent, static_cast<double>(count) / Seconds(t0));
    served += count;
  }
  std::printf("{\"model\":\"%s\",\"threads\":%d,\"intra_op_threads\":1,\"requests\":%ld,\"baseline_requests\":%ld,"
              "\"rounds\":%d,\"mismatches\":%ld,\"failures\":%ld,\"single_rps\":%.2f,\"concurrent_rps\":%.2f,"
              "\"speedup\":%.3f}\n",
              path.c_str(), threads, served, single_per_round * rounds, rounds, mismatches.load(), failures.load(),
              best_single, best_concurrent, best_concurrent / best_single);
  return mismatches.load() == 0 && failures.load() == 0 ? 0 : 1;
}
