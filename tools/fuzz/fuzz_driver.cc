// Regression driver for the libFuzzer targets, built with the normal toolchain (no clang, no sanitizers) so that
// `make test` exercises every fuzz target quickly: each input file is run as is, then mutated copies (bit flips,
// byte sets, truncations, duplicated and inserted chunks, splices of two inputs) from a fixed-seed generator until
// --runs or --seconds is reached. Real coverage-guided fuzzing with ASan is `make fuzz` (scripts/fuzz.sh).
//
// usage: NAME_regress [--runs=N] [--seconds=S] [--suffix=.onnx] FILE_OR_DIR...   (--suffix filters folder entries)
#include <dirent.h>
#include <sys/stat.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);
extern "C" __attribute__((weak)) int LLVMFuzzerInitialize(int* argc, char*** argv);

namespace {

void AddInputs(const std::string& path, const std::string& suffix, std::vector<std::vector<uint8_t>>* out) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) return;
  if (S_ISDIR(st.st_mode)) {
    DIR* d = ::opendir(path.c_str());
    if (d == nullptr) return;
    std::vector<std::string> names;
    while (dirent* e = ::readdir(d)) {
      if (e->d_name[0] != '.') names.push_back(path + "/" + e->d_name);
    }
    ::closedir(d);
    for (const std::string& n : names) AddInputs(n, suffix, out);
    return;
  }
  if (path.size() < suffix.size() || path.compare(path.size() - suffix.size(), suffix.size(), suffix) != 0) return;
  std::ifstream f(path, std::ios::binary);
  out->emplace_back(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
}

struct Rng {
  uint64_t s = 0x9E3779B97F4A7C15ull;
  uint64_t Next() {
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    return s;
  }
  size_t Below(size_t n) { return n == 0 ? 0 : static_cast<size_t>(Next() % n); }
};

std::vector<uint8_t> Mutate(const std::vector<std::vector<uint8_t>>& inputs, Rng& rng) {
  std::vector<uint8_t> b = inputs[rng.Below(inputs.size())];
  const int edits = 1 + static_cast<int>(rng.Below(4));
  for (int e = 0; e < edits; ++e) {
    switch (rng.Below(6)) {
      case 0:  // flip a bit
        if (!b.empty()) b[rng.Below(b.size())] ^= static_cast<uint8_t>(1u << rng.Below(8));
        break;
      case 1:  // set a byte to an interesting value
        if (!b.empty()) {
          static const uint8_t kValues[] = {0, 1, 0x7f, 0x80, 0xff, 0x10, 0x40};
          b[rng.Below(b.size())] = kValues[rng.Below(sizeof kValues)];
        }
        break;
      case 2:  // truncate
        b.resize(rng.Below(b.size() + 1));
        break;
      case 3: {  // duplicate a chunk
        if (b.empty()) break;
        size_t at = rng.Below(b.size()), len = 1 + rng.Below(std::min<size_t>(64, b.size() - at));
        std::vector<uint8_t> chunk(b.begin() + at, b.begin() + at + len);
        b.insert(b.begin() + rng.Below(b.size() + 1), chunk.begin(), chunk.end());
        break;
      }
      case 4: {  // insert random bytes
        size_t at = rng.Below(b.size() + 1), len = 1 + rng.Below(16);
        std::vector<uint8_t> bytes(len);
        for (auto& x : bytes) x = static_cast<uint8_t>(rng.Next());
        b.insert(b.begin() + at, bytes.begin(), bytes.end());
        break;
      }
      default: {  // splice with another input
        const std::vector<uint8_t>& o = inputs[rng.Below(inputs.size())];
        size_t cut = rng.Below(b.size() + 1), from = rng.Below(o.size() + 1);
        b.resize(cut);
        b.insert(b.end(), o.begin() + from, o.end());
        break;
      }
    }
  }
  if (b.size() > (1u << 20)) b.resize(1u << 20);
  return b;
}

}  // namespace

int main(int argc, char** argv) {
  if (LLVMFuzzerInitialize != nullptr) LLVMFuzzerInitialize(&argc, &argv);
  long runs = 1000000;
  double seconds = 20;
  std::vector<std::vector<uint8_t>> inputs;
  std::string suffix;
  for (int i = 1; i < argc; ++i) {
    if (std::strncmp(argv[i], "--suffix=", 9) == 0) suffix = argv[i] + 9;
  }
  for (int i = 1; i < argc; ++i) {
    if (std::strncmp(argv[i], "--runs=", 7) == 0) {
      runs = std::atol(argv[i] + 7);
    } else if (std::strncmp(argv[i], "--seconds=", 10) == 0) {
      seconds = std::atof(argv[i] + 10);
    } else if (std::strncmp(argv[i], "--suffix=", 9) != 0) {
      AddInputs(argv[i], suffix, &inputs);
    }
  }
  if (inputs.empty()) {
    std::fprintf(stderr, "no inputs: give seed files or folders\n");
    return 2;
  }
  for (const auto& in : inputs) LLVMFuzzerTestOneInput(in.data(), in.size());
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  Rng rng;
  long done = 0;
  for (; done < runs && std::chrono::steady_clock::now() < deadline; ++done) {
    std::vector<uint8_t> b = Mutate(inputs, rng);
    LLVMFuzzerTestOneInput(b.data(), b.size());
  }
  std::printf("%zu inputs, %ld mutated runs, no crash\n", inputs.size(), done);
  return 0;
}
