// The single-op API as a user of the installed library sees it: only include/ge, linked against libge.so. A static
// Add, a dynamic Relu under shape churn with a small cache, and an error, checked by hand (no GoogleTest: the
// library's internals are not on the link line).
#include <cmath>
#include <cstdio>
#include <vector>

#include "ge/single_op.h"

namespace {

int failures = 0;

void Check(bool ok, const char* what) {
  if (!ok) {
    std::printf("FAIL %s\n", what);
    ++failures;
  }
}

}  // namespace

int main() {
  auto add = ge::SingleOp::Create("Add", {{ge::DataType::kFloat, {16}}, {ge::DataType::kFloat, {16}}});
  Check(add.ok(), "SingleOp::Create(Add)");
  if (add.ok()) {
    std::vector<float> a(16), b(16), c(16);
    for (int i = 0; i < 16; ++i) {
      a[i] = 0.5f * i;
      b[i] = 1.0f - i;
    }
    const std::vector<ge::InputBuffer> in = {{a.data(), 64}, {b.data(), 64}};
    const std::vector<ge::OutputBuffer> out = {{c.data(), 64}};
    for (int rep = 0; rep < 3; ++rep) Check((*add)->Run(in, out).ok(), "SingleOp::Run");
    bool same = true;
    for (int i = 0; i < 16; ++i) same = same && c[i] == a[i] + b[i];
    Check(same, "Add values");
  }

  ge::SingleOpOptions options;
  options.cache_capacity = 3;
  auto relu = ge::DynamicSingleOp::Create("Relu", {}, options);
  Check(relu.ok(), "DynamicSingleOp::Create(Relu)");
  if (relu.ok()) {
    std::vector<ge::Tensor> out;
    for (int64_t n = 1; n <= 10; ++n) {
      std::vector<float> x(static_cast<size_t>(n));
      for (int64_t i = 0; i < n; ++i) x[static_cast<size_t>(i)] = static_cast<float>(i % 3) - 1.f;
      Check((*relu)->Run({ge::Tensor::FromVector(x, {n})}, &out).ok(), "DynamicSingleOp::Run");
      Check(out.size() == 1 && out[0].numel() == n && out[0].data<float>()[0] == 0.f, "Relu values");
      Check((*relu)->cache_size() <= 3, "cache bound");
    }
  }

  auto bad = ge::SingleOp::Create("NoSuchOp", {});
  Check(!bad.ok() && bad.status().code() == ge::StatusCode::kNotFound, "unknown op is NotFound");

  if (failures != 0) return 1;
  std::printf("PASS: single ops through libge.so\n");
  return 0;
}
