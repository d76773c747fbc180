// Loads a compiled .om with ge's public API, runs it on a float32 input read from an .npy file and compares its
// first output with an expected .npy (relative L2 error). Uses only the installed headers and library.
//
//   run_model MODEL.om INPUT.npy EXPECTED.npy [OUTPUT.npy]     exit 0 when rel. L2 error <= 1e-4
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "ge/model.h"

namespace {

// The data of a little-endian float32 C-order .npy file (the header's shape is not checked here: the model
// checks the byte size).
bool ReadNpyFloats(const std::string& path, std::vector<float>* out) {
  std::ifstream f(path, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  if (bytes.size() < 10 || bytes.compare(0, 6, "\x93NUMPY") != 0) return false;
  const int major = static_cast<unsigned char>(bytes[6]);
  const size_t len_bytes = major == 1 ? 2 : 4;
  size_t header_len = 0;
  for (size_t i = 0; i < len_bytes; ++i) header_len |= size_t{static_cast<unsigned char>(bytes[8 + i])} << (8 * i);
  const size_t data_at = 8 + len_bytes + header_len;
  const std::string header = bytes.substr(8 + len_bytes, header_len);
  if (data_at > bytes.size() || header.find("'<f4'") == std::string::npos ||
      header.find("'fortran_order': False") == std::string::npos || (bytes.size() - data_at) % 4 != 0) {
    return false;
  }
  out->resize((bytes.size() - data_at) / 4);
  std::memcpy(out->data(), bytes.data() + data_at, bytes.size() - data_at);
  return true;
}

bool WriteNpyFloats(const std::string& path, const std::vector<float>& data, const std::vector<int64_t>& dims) {
  std::string shape = "(";
  for (int64_t d : dims) shape += std::to_string(d) + ",";
  shape += ")";
  std::string header = "{'descr': '<f4', 'fortran_order': False, 'shape': " + shape + ", }";
  while ((10 + header.size() + 1) % 64 != 0) header += ' ';
  header += '\n';
  std::ofstream f(path, std::ios::binary);
  const uint16_t len = static_cast<uint16_t>(header.size());
  f.write("\x93NUMPY\x01\x00", 8);
  f.put(static_cast<char>(len & 0xff)).put(static_cast<char>(len >> 8));
  f.write(header.data(), static_cast<std::streamsize>(header.size()));
  f.write(reinterpret_cast<const char*>(data.data()), static_cast<std::streamsize>(data.size() * 4));
  return static_cast<bool>(f);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: %s MODEL.om INPUT.npy EXPECTED.npy [OUTPUT.npy]\n", argv[0]);
    return 2;
  }
  auto model = ge::OfflineModel::LoadFromFile(argv[1]);
  if (!model.ok()) {
    std::fprintf(stderr, "load failed: %s\n", model.status().ToString().c_str());
    return 1;
  }
  ge::OfflineModel& m = **model;
  if (m.inputs().size() != 1 || m.outputs().empty() || m.inputs()[0].dtype != ge::DataType::kFloat ||
      m.outputs()[0].dtype != ge::DataType::kFloat) {
    std::fprintf(stderr, "this sample runs models with one float32 input and a float32 first output\n");
    return 1;
  }
  std::vector<float> x, expected;
  if (!ReadNpyFloats(argv[2], &x) || !ReadNpyFloats(argv[3], &expected)) {
    std::fprintf(stderr, "cannot read %s or %s as float32 .npy\n", argv[2], argv[3]);
    return 1;
  }
  std::vector<std::vector<float>> outputs;
  std::vector<ge::OutputBuffer> out_buffers;
  for (const ge::ModelTensorDesc& d : m.outputs()) {
    outputs.emplace_back(d.bytes / sizeof(float));
    out_buffers.push_back({outputs.back().data(), d.bytes});
  }
  ge::Status s = m.Execute({{x.data(), x.size() * sizeof(float)}}, out_buffers);
  if (!s.ok()) {
    std::fprintf(stderr, "execute failed: %s\n", s.ToString().c_str());
    return 1;
  }
  const std::vector<float>& y = outputs[0];
  if (y.size() != expected.size()) {
    std::fprintf(stderr, "output has %zu values, expected %zu\n", y.size(), expected.size());
    return 1;
  }
  double diff = 0, norm = 0;
  for (size_t i = 0; i < y.size(); ++i) {
    if (!std::isfinite(y[i])) {
      std::fprintf(stderr, "output value %zu is not finite\n", i);
      return 1;
    }
    diff += (double{y[i]} - expected[i]) * (double{y[i]} - expected[i]);
    norm += double{expected[i]} * expected[i];
  }
  const double rel = std::sqrt(diff) / std::max(std::sqrt(norm), 1e-30);
  std::printf("model %s (%s runtime, target %s): output '%s' %zu values, relative L2 error %.3g\n", m.name().c_str(),
              m.runtime().c_str(), m.target().empty() ? "none" : m.target().c_str(), m.outputs()[0].name.c_str(),
              y.size(), rel);
  if (argc > 4 && !WriteNpyFloats(argv[4], y, m.outputs()[0].dims)) {
    std::fprintf(stderr, "cannot write %s\n", argv[4]);
    return 1;
  }
  return rel <= 1e-4 ? 0 : 1;
}
