// One loaded model, several threads calling Execute (issue 10, "reentrant loaded models"), through the public API
// only (libge.so, include/ge): every output of every concurrent request must be bit-identical to what a
// single-threaded run of the same input gave. Prints the throughput of both as one JSON line (the best of
// `rounds` alternating rounds of each); it never fails on speed (machines here are shared and noisy; the figure
// is for the closing note and benchmarks).
//
// A static model runs through the buffer form of Execute (zero copy); a dynamic one (an input or output with a
// dim of -1) through the tensor form, its inputs fed at the sizes the flags give: --input_shape=NAME:D0,D1,...
// (a whole input's shape; repeatable) or --dim=SYMBOL=N / --dim=SYMBOL=LO~HI (every dim the model names SYMBOL;
// with a range each request draws its own size, so concurrent requests run at different sizes). Its outputs are
// compared in dims and bytes. Each request first runs --warmup times (default 4) on one thread before its output
// is recorded, and each thread runs every request that often before the timed rounds: runtime v2 replaces a
// shape-agnostic kernel by one prepared for the exact shape once a shape held for a few runs in a row, which may
// change the results' last bits; under mixed sizes (--dim=S=LO~HI) whether that happened depends on each
// context's history, so compare bitwise there with --option=ge.exec.v2ShapeAgnosticKernels=0.
//
// usage: concurrent_execute MODEL.om [--threads=2] [--requests=1000] [--baseline_requests=200] [--inputs=8]
//                                    [--rounds=5] [--warmup=4] [--input_shape=NAME:DIMS]... [--dim=SYMBOL=N|LO~HI]...
//                                    [--option=KEY=VALUE]... (runtime options, OfflineModelOptions::runtime_options)
// exit: 0 all identical; 1 a mismatch or an error; 77 the model file is missing (the model zoo was skipped).
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "ge/model.h"

namespace {

struct Request {
  std::vector<ge::Tensor> inputs;  // per model input
  std::vector<ge::Tensor> want;    // per model output, from the single-threaded run
};

long Flag(int argc, char** argv, const char* name, long fallback) {
  const std::string prefix = std::string("--") + name + "=";
  for (int i = 2; i < argc; ++i) {
    if (std::strncmp(argv[i], prefix.c_str(), prefix.size()) == 0)
      return std::strtol(argv[i] + prefix.size(), nullptr, 10);
  }
  return fallback;
}

std::vector<std::string> FlagValues(int argc, char** argv, const char* name) {
  const std::string prefix = std::string("--") + name + "=";
  std::vector<std::string> out;
  for (int i = 2; i < argc; ++i) {
    if (std::strncmp(argv[i], prefix.c_str(), prefix.size()) == 0) out.emplace_back(argv[i] + prefix.size());
  }
  return out;
}

bool ParseInt(const std::string& s, long* v) {
  char* end = nullptr;
  *v = std::strtol(s.c_str(), &end, 10);
  return !s.empty() && *end == '\0';
}

struct SizeRange {
  long lo = 0, hi = 0;
};

// How the dynamic dims get their sizes: whole shapes per input name, sizes (or ranges) per dim symbol.
struct Sizes {
  std::map<std::string, std::vector<int64_t>> shapes;
  std::map<std::string, SizeRange> dims;
};

bool ParseSizes(int argc, char** argv, Sizes* sizes) {
  for (const std::string& v : FlagValues(argc, argv, "input_shape")) {
    const size_t colon = v.rfind(':');
    if (colon == std::string::npos || colon == 0) {
      std::fprintf(stderr, "--input_shape=%s: expected NAME:D0,D1,...\n", v.c_str());
      return false;
    }
    std::vector<int64_t>& dims = sizes->shapes[v.substr(0, colon)];
    size_t at = colon + 1;
    while (at <= v.size()) {
      const size_t comma = std::min(v.find(',', at), v.size());
      long d = 0;
      if (!ParseInt(v.substr(at, comma - at), &d) || d < 0) {
        std::fprintf(stderr, "--input_shape=%s: '%s' is not a size\n", v.c_str(), v.substr(at, comma - at).c_str());
        return false;
      }
      dims.push_back(d);
      at = comma + 1;
    }
  }
  for (const std::string& v : FlagValues(argc, argv, "dim")) {
    const size_t eq = v.find('=');
    SizeRange r;
    const std::string value = eq == std::string::npos ? "" : v.substr(eq + 1);
    const size_t tilde = value.find('~');
    const bool ok = eq != std::string::npos && eq > 0 &&
                    (tilde == std::string::npos
                         ? ParseInt(value, &r.lo) && ParseInt(value, &r.hi)
                         : ParseInt(value.substr(0, tilde), &r.lo) && ParseInt(value.substr(tilde + 1), &r.hi));
    if (!ok || r.lo < 0 || r.hi < r.lo) {
      std::fprintf(stderr, "--dim=%s: expected SYMBOL=N or SYMBOL=LO~HI (0 <= LO <= HI)\n", v.c_str());
      return false;
    }
    sizes->dims[v.substr(0, eq)] = r;
  }
  return true;
}

// The dims one request feeds input |d| at (*symbols: the sizes this request drew, shared by its inputs).
bool ResolveDims(const ge::ModelTensorDesc& d, const Sizes& sizes, std::mt19937& rng,
                 std::map<std::string, long>* symbols, std::vector<int64_t>* dims) {
  auto shape = sizes.shapes.find(d.name);
  if (shape != sizes.shapes.end()) {
    bool ok = shape->second.size() == d.dims.size();
    for (size_t i = 0; ok && i < d.dims.size(); ++i) ok = d.dims[i] < 0 || d.dims[i] == shape->second[i];
    if (!ok) {
      std::fprintf(stderr, "--input_shape for '%s' does not fit its declared dims (rank %zu)\n", d.name.c_str(),
                   d.dims.size());
      return false;
    }
    *dims = shape->second;
    return true;
  }
  *dims = d.dims;
  for (size_t i = 0; i < dims->size(); ++i) {
    if ((*dims)[i] >= 0) continue;
    const std::string& symbol = d.dim_names[i];
    auto range = sizes.dims.find(symbol);
    if (symbol.empty() || range == sizes.dims.end()) {
      std::fprintf(stderr, "input '%s': dim %zu%s%s%s is dynamic: give --input_shape=%s:... or --dim=%s=N\n",
                   d.name.c_str(), i, symbol.empty() ? "" : " (", symbol.c_str(), symbol.empty() ? "" : ")",
                   d.name.c_str(), symbol.empty() ? "SYMBOL" : symbol.c_str());
      return false;
    }
    auto drawn = symbols->find(symbol);
    if (drawn == symbols->end()) {
      const long n = std::uniform_int_distribution<long>(range->second.lo, range->second.hi)(rng);
      drawn = symbols->emplace(symbol, n).first;
    }
    (*dims)[i] = drawn->second;
  }
  return true;
}

// Fills a tensor with values a real input could hold: floats from N(0, 1), integers in [0, 4) (small enough to
// index any table), bools 0 or 1, other types bytewise.
void Fill(ge::Tensor* t, std::mt19937& rng) {
  const int64_t n = t->numel();
  switch (t->dtype()) {
    case ge::DataType::kFloat: {
      std::normal_distribution<float> normal(0.f, 1.f);
      for (int64_t i = 0; i < n; ++i) t->data<float>()[i] = normal(rng);
      return;
    }
    case ge::DataType::kInt64:
      for (int64_t i = 0; i < n; ++i) t->data<int64_t>()[i] = static_cast<int64_t>(rng() % 4);
      return;
    case ge::DataType::kInt32:
      for (int64_t i = 0; i < n; ++i) t->data<int32_t>()[i] = static_cast<int32_t>(rng() % 4);
      return;
    case ge::DataType::kBool:
      for (int64_t i = 0; i < n; ++i) t->data<unsigned char>()[i] = static_cast<unsigned char>(rng() % 2);
      return;
    default: {
      auto* b = static_cast<unsigned char*>(t->raw_data());
      for (size_t i = 0; i < t->nbytes(); ++i) b[i] = static_cast<unsigned char>(rng() % 4);
      return;
    }
  }
}

// Static models: the buffer form, straight into *out's storage (allocated at the described sizes). Dynamic ones:
// the tensor form (outputs at their run-time shapes; *out's tensors are reused when large enough).
ge::Status Run(ge::OfflineModel& m, bool dynamic, const Request& r, std::vector<ge::Tensor>* out) {
  if (dynamic) return m.Execute(r.inputs, out);
  std::vector<ge::InputBuffer> in;
  for (const ge::Tensor& t : r.inputs) in.push_back({t.raw_data(), t.nbytes()});
  std::vector<ge::OutputBuffer> ob;
  for (ge::Tensor& t : *out) ob.push_back({t.raw_data(), t.nbytes()});
  return m.Execute(in, ob);
}

bool Same(const ge::Tensor& a, const ge::Tensor& b) {
  return a.dtype() == b.dtype() && a.dims() == b.dims() && a.nbytes() == b.nbytes() &&
         (a.nbytes() == 0 || std::memcmp(a.raw_data(), b.raw_data(), a.nbytes()) == 0);
}

// Output tensors at the described sizes (the buffer form writes into them); empty ones for a dynamic model.
std::vector<ge::Tensor> OutputTensors(const ge::OfflineModel& m, bool dynamic) {
  std::vector<ge::Tensor> out;
  for (const ge::ModelTensorDesc& d : m.outputs()) {
    out.push_back(dynamic ? ge::Tensor() : std::move(ge::Tensor::Create(d.dtype, d.dims)).value());
  }
  return out;
}

double Seconds(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(
        stderr,
        "usage: %s MODEL.om [--threads=2] [--requests=1000] [--baseline_requests=200] [--inputs=8] [--rounds=5] "
        "[--warmup=4] "
        "[--input_shape=NAME:D0,D1,...]... [--dim=SYMBOL=N|LO~HI]... [--option=KEY=VALUE]...\n",
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
  const int warmup = static_cast<int>(Flag(argc, argv, "warmup", 4));
  if (threads < 1 || requests < 1 || baseline_requests < 1 || num_inputs < 1 || rounds < 1 || rounds > requests ||
      warmup < 0) {
    std::fprintf(
        stderr,
        "--threads, --requests, --baseline_requests, --inputs and --rounds must be >= 1 (rounds <= requests)\n");
    return 1;
  }
  Sizes sizes;
  if (!ParseSizes(argc, argv, &sizes)) return 1;

  ge::OfflineModelOptions options;
  options.intra_op_threads = 1;  // one thread per execution: the concurrency is across requests
  options.max_concurrent_executions = threads;
  for (const std::string& kv : FlagValues(argc, argv, "option")) {
    const size_t eq = kv.find('=');
    if (eq == std::string::npos || eq == 0) {
      std::fprintf(stderr, "--option=%s: expected KEY=VALUE\n", kv.c_str());
      return 1;
    }
    options.runtime_options[kv.substr(0, eq)] = kv.substr(eq + 1);
  }
  auto loaded = ge::OfflineModel::LoadFromFile(path, options);
  if (!loaded.ok()) {
    std::fprintf(stderr, "load: %s\n", loaded.status().ToString().c_str());
    return 1;
  }
  ge::OfflineModel& model = **loaded;
  const bool dynamic = model.dynamic();

  // Distinct inputs with their single-threaded outputs.
  std::mt19937 rng(20261201);
  std::vector<Request> reqs(static_cast<size_t>(num_inputs));
  for (Request& r : reqs) {
    std::map<std::string, long> symbols;
    for (const ge::ModelTensorDesc& d : model.inputs()) {
      std::vector<int64_t> dims;
      if (!ResolveDims(d, sizes, rng, &symbols, &dims)) return 1;
      auto t = ge::Tensor::Create(d.dtype, dims);
      if (!t.ok()) {
        std::fprintf(stderr, "input '%s': %s\n", d.name.c_str(), t.status().ToString().c_str());
        return 1;
      }
      Fill(&*t, rng);
      r.inputs.push_back(std::move(*t));
    }
    r.want = OutputTensors(model, dynamic);
    // Warmed up first: runtime v2 swaps a shape-agnostic kernel for one prepared for the exact shape once a shape
    // held for a few runs, which may change the last bits of the results.
    for (int w = 0; w <= warmup; ++w) {
      const ge::Status s = Run(model, dynamic, r, &r.want);
      if (!s.ok()) {
        std::fprintf(stderr, "single-threaded run: %s\n", s.ToString().c_str());
        return 1;
      }
    }
  }

  // Baseline throughput: one thread, the same requests in turn (every output checked too).
  std::atomic<long> mismatches{0}, failures{0};
  auto serve = [&](long first, long count, long stride) {
    std::vector<ge::Tensor> got = OutputTensors(model, dynamic);
    for (long i = first; i < count; i += stride) {
      const Request& r = reqs[static_cast<size_t>(i) % reqs.size()];
      for (ge::Tensor& g : got) {
        if (g.valid()) std::memset(g.raw_data(), 0xA5, g.nbytes());
      }
      const ge::Status s = Run(model, dynamic, r, &got);
      if (!s.ok()) {
        if (failures.fetch_add(1) == 0) std::fprintf(stderr, "request %ld: %s\n", i, s.ToString().c_str());
        continue;
      }
      for (size_t o = 0; o < got.size(); ++o) {
        if (o >= r.want.size() || !Same(got[o], r.want[o])) {
          if (mismatches.fetch_add(1) == 0) std::fprintf(stderr, "request %ld: output %zu differs\n", i, o);
        }
      }
    }
  };
  // Every thread warms the execution context it uses (runtime v2 makes one per overlapping execution), unchecked.
  {
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; ++t) {
      pool.emplace_back([&] {
        std::vector<ge::Tensor> got = OutputTensors(model, dynamic);
        for (const Request& r : reqs) {
          for (int w = 0; w < warmup; ++w) Run(model, dynamic, r, &got).IgnoreError();
        }
      });
    }
    for (std::thread& t : pool) t.join();
  }
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
  std::printf(
      "{\"model\":\"%s\",\"dynamic\":%s,\"threads\":%d,\"intra_op_threads\":1,\"requests\":%ld,"
      "\"baseline_requests\":%ld,\"rounds\":%d,\"mismatches\":%ld,\"failures\":%ld,\"single_rps\":%.2f,"
      "\"concurrent_rps\":%.2f,\"speedup\":%.3f}\n",
      path.c_str(), dynamic ? "true" : "false", threads, served, single_per_round * rounds, rounds, mismatches.load(),
      failures.load(), best_single, best_concurrent, best_concurrent / best_single);
  return mismatches.load() == 0 && failures.load() == 0 ? 0 : 1;
}
