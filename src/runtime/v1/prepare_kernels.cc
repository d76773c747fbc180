#include "runtime/v1/prepare_kernels.h"

#include <algorithm>
#include <atomic>
#include <thread>

namespace ge::runtime {

std::vector<StatusOr<std::unique_ptr<exec::PreparedKernel>>> PrepareKernels(
    const std::vector<exec::PrepareRequest>& requests, const kernels::EngineList& engines, int threads) {
  std::vector<StatusOr<std::unique_ptr<exec::PreparedKernel>>> results;
  results.reserve(requests.size());
  for (size_t i = 0; i < requests.size(); ++i) results.emplace_back(Internal("kernel not prepared"));
  // Requests are taken one at a time in order: their costs differ by orders of magnitude (a big convolution's
  // primitive against a Reshape), so a static split would leave a thread idle.
  std::atomic<size_t> next{0};
  auto work = [&] {
    for (size_t i = next.fetch_add(1); i < requests.size(); i = next.fetch_add(1)) {
      results[i] = exec::PrepareKernel(requests[i], engines);
    }
  };
  const size_t used = std::min<size_t>(requests.size(), static_cast<size_t>(std::max(threads, 1)));
  const size_t helpers = used > 0 ? used - 1 : 0;
  std::vector<std::thread> pool;
  pool.reserve(helpers);
  for (size_t t = 0; t < helpers; ++t) pool.emplace_back(work);
  work();
  for (std::thread& t : pool) t.join();
  return results;
}

}  // namespace ge::runtime
