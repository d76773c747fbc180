#include "default_input.h"

#include <complex>
#include <random>
#include <string>
#include <type_traits>

namespace ge::cli {

StatusOr<Tensor> MakeDefaultInput(DataType dtype, const std::vector<int64_t>& declared, uint64_t seed) {
  Dims dims;
  for (int64_t d : declared) dims.push_back(d < 0 ? 1 : d);
  GE_ASSIGN_OR_RETURN(Tensor t, Tensor::Create(dtype, dims));
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> real(-1.0, 1.0);
  std::uniform_int_distribution<int> small(0, 99);
  const int64_t n = t.numel();
  Status s = VisitDataType(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* p = t.data<T>();
    for (int64_t i = 0; i < n; ++i) {
      if constexpr (std::is_same_v<T, std::string>) {
        p[i] = "s" + std::to_string(small(rng));
      } else if constexpr (std::is_same_v<T, bool>) {
        p[i] = (i % 2) == 0;
      } else if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
        p[i] = static_cast<T>(real(rng));
      } else if constexpr (std::is_same_v<T, float16> || std::is_same_v<T, bfloat16>) {
        p[i] = T(static_cast<float>(real(rng)));
      } else if constexpr (std::is_same_v<T, std::complex<float>> || std::is_same_v<T, std::complex<double>>) {
        p[i] = T(real(rng), real(rng));
      } else {
        p[i] = static_cast<T>(small(rng));
      }
    }
  });
  GE_RETURN_IF_ERROR(s);
  return t;
}

}  // namespace ge::cli
