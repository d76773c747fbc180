#include "runtime/v1/prepare_kernels.h"

#include <algorithm>
#include <atomic>
#include <string>
#include <thread>

#include "base/trace_json.h"

namespace ge::runtime {

namespace {

std::string PrepareSliceArgs(const exec::PrepareRequest& r, const StatusOr<std::unique_ptr<exec::PreparedKernel>>& k) {
  const std::string impl = k.ok() && *k != nullptr ? (*k)->impl_name() : "(failed)";
  return "{\"op\":" + trace::JsonQuote(r.node->op_type()) + ",\"impl\":" + trace::JsonQuote(impl) + "}";
}

}  // namespace

std::vector<StatusOr<std::unique_ptr<exec::PreparedKernel>>> PrepareKernels(
    const std::vector<exec::PrepareRequest>& requests, const kernels::EngineList& engines, int threads,
    trace::TraceRecorder* trace) {
  std::vector<StatusOr<std::unique_ptr<exec::PreparedKernel>>> results;
  results.reserve(requests.size());
  for (size_t i = 0; i < requests.size(); ++i) results.emplace_back(Internal("kernel not prepared"));
  // Requests are taken one at a time in order: their costs differ by orders of magnitude (a big convolution's
  // primitive against a Reshape), so a static split would leave a thread idle.
  std::atomic<size_t> next{0};
  auto work = [&](int thread) {
    for (size_t i = next.fetch_add(1); i < requests.size(); i = next.fetch_add(1)) {
      const int64_t t0 = trace != nullptr ? trace->NowNs() : 0;
      results[i] = exec::PrepareKernel(requests[i], engines);
      if (trace != nullptr) {
        trace->AddSlice(trace::LoadTrack(thread), "prepare " + requests[i].node->name(), "load", t0,
                        trace->NowNs() - t0, PrepareSliceArgs(requests[i], results[i]));
      }
    }
  };
  const size_t used = std::min<size_t>(requests.size(), static_cast<size_t>(std::max(threads, 1)));
  const size_t helpers = used > 0 ? used - 1 : 0;
  std::vector<std::thread> pool;
  pool.reserve(helpers);
  for (size_t t = 0; t < used && trace != nullptr; ++t) {
    trace->NameTrack(trace::LoadTrack(static_cast<int>(t)), "load: prepare kernels " + std::to_string(t));
  }
  for (size_t t = 0; t < helpers; ++t) pool.emplace_back(work, static_cast<int>(t + 1));
  work(0);
  for (std::thread& t : pool) t.join();
  return results;
}

}  // namespace ge::runtime
