// Tune (`ge compile --tune`): times the kernel variants of each engine node on this machine and records the fastest
// on the node (kernels/exec/kernel_variant.h), which loading then prepares. Candidates: the variants of the engines
// the node may run on (exec/engine_choice.h: layouts with or without reorders, direct or Winograd convolution,
// oneDNN's or ge's own kernel) times the intra-op thread count (the model's,
// or 1 for a node too small to share). Each candidate runs on random inputs for a bounded time; a candidate must
// beat the default (the engines' own choice at the model's thread count) by kMinGain to replace it, so timing
// noise does not move nodes off their defaults. Candidates at one thread run ge's own kernels without a pool too.
// Tuning is for the model's thread count (`ge compile --threads`): a node records a thread count only when fewer
// threads were faster. Runs on static root graphs after format selection, before kernel selection (which prepacks
// weights for the chosen variant).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "compiler/passes/kernel_request.h"
#include "compiler/passes/passes.h"
#include "kernels/exec/engine_choice.h"
#include "kernels/exec/kernel_variant.h"
#include "rt/cpu/thread_pool.h"

namespace ge::compiler {
namespace {

constexpr double kMinGain = 0.05;        // 5%
constexpr double kBudgetSeconds = 0.05;  // per candidate, after one warm-up run
constexpr int kMinRuns = 3, kMaxRuns = 20;

// Buffers bound to a kernel's slots: random non-constant inputs, outputs; constants point at their values.
class SlotBuffers {
 public:
  static StatusOr<SlotBuffers> Create(const exec::PrepareRequest& r, std::mt19937* rng) {
    SlotBuffers b;
    for (size_t i = 0; i < r.input_descs.size(); ++i) {
      if (r.const_inputs[i] != nullptr) {
        b.inputs_.push_back(const_cast<void*>(r.const_inputs[i]->raw_data()));
        continue;
      }
      if (r.node->input(static_cast<int>(i)) == nullptr) {
        b.inputs_.push_back(nullptr);
        continue;
      }
      GE_ASSIGN_OR_RETURN(void* p, b.Allocate(r.input_descs[i], rng));
      b.inputs_.push_back(p);
    }
    for (size_t i = 0; i < r.output_descs.size(); ++i) {
      if (r.node->output(static_cast<int>(i)) == nullptr) {
        b.outputs_.push_back(nullptr);
        continue;
      }
      GE_ASSIGN_OR_RETURN(void* p, b.Allocate(r.output_descs[i], rng));
      b.outputs_.push_back(p);
    }
    return b;
  }
  void Bind(exec::KernelBinding* b) const {
    b->io.inputs = inputs_;
    b->io.outputs = outputs_;
  }

 private:
  StatusOr<void*> Allocate(const TensorDesc& d, std::mt19937* rng) {
    GE_ASSIGN_OR_RETURN(int64_t n, StorageNumElements(d.shape.dims(), d.format));
    GE_ASSIGN_OR_RETURN(Tensor t, Tensor::Create(d.dtype, {n}));
    if (d.dtype == DataType::kFloat) {
      std::uniform_real_distribution<float> dist(-1.f, 1.f);
      for (int64_t i = 0; i < n; ++i) t.data<float>()[i] = dist(*rng);
    }
    tensors_.push_back(t);
    return t.raw_data();
  }
  std::vector<Tensor> tensors_;
  std::vector<void*> inputs_, outputs_;
};

// Best seconds per run of the kernel prepared for `r` (with the node's current variant attributes), or +inf when
// the engine declines it or a run fails. `pool` is what ge's own kernels get at run time (the device's pool of
// the model's thread count); oneDNN's kernels use their OpenMP threads.
double TimeCandidate(const kernels::EngineList& engines, const exec::PrepareRequest& r, const SlotBuffers& buffers,
                     rt::ThreadPool* pool) {
  auto k = exec::PrepareOnEngines(r, engines);
  if (!k.ok() || *k == nullptr) return INFINITY;
  auto binding = (*k)->NewBinding();
  if (!binding.ok()) return INFINITY;
  buffers.Bind(binding->get());
  rt::TaskContext ctx;
  ctx.pool = pool;
  auto run = [&]() { return (*k)->fn()(binding->get(), ctx).ok(); };
  if (!run()) return INFINITY;
  double best = INFINITY, total = 0;
  for (int i = 0; i < kMaxRuns && (i < kMinRuns || total < kBudgetSeconds); ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    if (!run()) return INFINITY;
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    best = std::min(best, s);
    total += s;
  }
  return best;
}

class TunePass : public GraphPass {
 public:
  TunePass(int threads, TuneReport* report, std::function<void(int64_t, int64_t)> progress, TuneScore score)
      : threads_(threads), report_(report), progress_(std::move(progress)), score_(std::move(score)) {}
  const char* name() const override { return "Tune"; }

  StatusOr<bool> Run(ir::Model& model, const PassContext& ctx) override {
    std::mt19937 rng(7);
    GE_ASSIGN_OR_RETURN(std::unique_ptr<rt::ThreadPool> pool, rt::ThreadPool::Create(threads_));
    bool changed = false;
    const kernels::EngineList engines = EnabledEngines(ctx);
    int64_t total = 0, done = 0;
    for (const ir::Node* n : model.graph->nodes()) total += kernels::FindEngine(engines, n->engine()) != nullptr;
    for (ir::Node* n : model.graph->nodes()) {
      if (kernels::FindEngine(engines, n->engine()) == nullptr) continue;
      if (progress_) progress_(done, total);
      ++done;
      n->attrs().Erase(exec::kKernelVariantAttr);
      n->attrs().Erase(exec::kKernelThreadsAttr);
      n->attrs().Erase(exec::kKernelImplAttr);
      const exec::PrepareRequest r = CompileTimeRequest(model, *n, threads_, ctx);
      std::vector<std::string> variants = exec::VariantsOnEngines(r, engines);
      if (variants.empty()) variants.push_back("");
      std::vector<int> thread_counts = {threads_};
      if (threads_ > 1) thread_counts.push_back(1);
      if (variants.size() * thread_counts.size() < 2) continue;
      auto buffers = SlotBuffers::Create(r, &rng);
      if (!buffers.ok()) continue;
      double default_time = INFINITY, best_time = INFINITY;
      std::string best_variant;
      int best_threads = threads_;
      for (const std::string& variant : variants) {
        for (int t : thread_counts) {
          SetVariant(n, variant, t);
          double s = TimeCandidate(engines, r, *buffers, t == threads_ ? pool.get() : nullptr);
          if (std::isinf(s) && report_ != nullptr) ++report_->failed_candidates;
          if (!std::isinf(s) && score_) s = score_(*n, variant, t, s);
          if (&variant == &variants.front() && t == threads_) default_time = s;
          if (s < best_time) best_time = s, best_variant = variant, best_threads = t;
        }
      }
      const bool better = best_time < default_time * (1 - kMinGain);
      SetVariant(n, better ? best_variant : variants.front(), better ? best_threads : threads_);
      if (report_ != nullptr) {
        ++report_->nodes;
        if (better) {
          ++report_->changed;
          report_->seconds_saved += default_time - best_time;
        }
      }
      changed = true;
    }
    return changed;
  }

 private:
  // Records a variant on the node: the name (when the engine has named variants) and a thread count below the
  // model's. None at the model's count: the node then runs at the count the model is loaded with.
  void SetVariant(ir::Node* n, const std::string& variant, int threads) const {
    if (variant.empty()) {
      n->attrs().Erase(exec::kKernelVariantAttr);
    } else {
      n->attrs().Set(exec::kKernelVariantAttr, ir::AttrValue::String(variant));
    }
    if (threads < threads_) {
      n->attrs().Set(exec::kKernelThreadsAttr, ir::AttrValue::Int(threads));
    } else {
      n->attrs().Erase(exec::kKernelThreadsAttr);
    }
  }

  int threads_;
  TuneReport* report_;
  std::function<void(int64_t, int64_t)> progress_;
  TuneScore score_;
};

}  // namespace

std::unique_ptr<GraphPass> CreateTunePass(int threads, TuneReport* report,
                                          std::function<void(int64_t done, int64_t total)> progress,
                                          TuneScore candidate_seconds) {
  return std::make_unique<TunePass>(threads, report, std::move(progress), std::move(candidate_seconds));
}

}  // namespace ge::compiler
