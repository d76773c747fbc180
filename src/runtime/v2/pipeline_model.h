// Pipeline execution of partitioned stages (seed 002 §5.2: a graph partitioned into stages runs on GE's
// RtV2PipelineExecutor instead of the simple one; issue 12 deliverable 4). The top-level graph is cut into
// contiguous pieces of one topological order, each extracted into its own model and loaded as a ModelV2; a batch
// of requests flows through them on one worker thread per stage, so stage s of request k+1 runs while stage s+1
// of request k does. Throughput on a stream of requests rises towards the slowest stage's rate; a single request
// takes as long as on one ModelV2 (plus a hand-off per stage).
//
// Stages: where every top-level node has the int attribute "pipeline_stage" (a partitioning pass or the user set
// it), those numbers, which must not decrease along any edge; otherwise `stages` pieces balanced by an estimate of
// each node's cost (matrix products and convolutions weigh more than element-wise and shape nodes).
// Values crossing stages travel with their request (a per-request table), so a value made in stage 0 and read in
// stage 2 needs no pass-through.
//
// Threading: ExecuteBatch and Execute may be called from one thread at a time (they serialize on a mutex). The
// workers live as long as the model. Ownership: the model owns the source IR (the stages' constants may borrow
// it) and everything |keep_alive| holds.
#pragma once
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "base/status.h"
#include "base/value.h"
#include "ir/graph.h"
#include "runtime/v2/model_v2.h"

namespace ge::runtime::v2 {

inline constexpr char kPipelineStageAttr[] = "pipeline_stage";

struct PipelineOptions {
  size_t stages = 2;              // when the nodes carry no pipeline_stage attribute; >= 1
  ModelV2Options stage_options;   // every stage's ModelV2 (executor, caches, device, engines)
};

struct PipelineStageInfo {
  size_t nodes = 0;
  double weight = 0;                        // the cost estimate the partition balanced
  std::vector<std::string> inputs, outputs;  // names of the values it reads from / hands to other stages
};

class PipelineModel {
 public:
  // InvalidArgument for a partition that cannot be a pipeline (a stage number decreasing along a data, capture or
  // control edge; more stages than nodes). A control-flow node goes into one stage whole; a value its subgraphs
  // capture travels like an input; control edges inside a stage stay, those between stages hold by the stage
  // order. Stage models that fail to load fail the load, naming the stage.
  static StatusOr<std::unique_ptr<PipelineModel>> Load(std::unique_ptr<ir::Model> model, const PipelineOptions& options,
                                                       std::shared_ptr<const void> keep_alive = nullptr);
  ~PipelineModel();  // stops and joins the workers
  PipelineModel(const PipelineModel&) = delete;
  PipelineModel& operator=(const PipelineModel&) = delete;

  // Runs every request (each a full set of graph inputs, as ModelV2::Execute takes) through the stages and returns
  // once all are done; (*outputs)[k] are request k's graph outputs. The first failure stops the requests behind it
  // at their next stage and is returned naming the request and the stage.
  Status ExecuteBatch(const std::vector<std::vector<Value>>& requests, std::vector<std::vector<Value>>* outputs);
  Status Execute(const std::vector<Value>& inputs, std::vector<Value>* outputs);

  const std::vector<PipelineStageInfo>& stages() const { return info_; }
  // Per stage, per request of the last batch: [start, end) of its run, steady_clock nanoseconds (for tests and
  // profiles: the overlap of stages is the point of the pipeline).
  const std::vector<std::vector<std::pair<int64_t, int64_t>>>& last_batch_intervals() const { return intervals_; }

 private:
  struct Stage {
    std::unique_ptr<ModelV2> model;
    std::vector<size_t> in_slots, out_slots;  // into a request's value table
    std::mutex mu;
    std::condition_variable cv;
    std::deque<size_t> queue;  // request indices ready for this stage
    std::thread worker;
  };
  PipelineModel() = default;
  void Work(size_t stage);
  void Finish(size_t request);

  std::unique_ptr<ir::Model> source_;
  std::shared_ptr<const void> keep_alive_;
  std::vector<std::unique_ptr<Stage>> stages_;
  std::vector<PipelineStageInfo> info_;
  size_t num_slots_ = 0;
  std::vector<size_t> input_slots_, output_slots_;  // graph inputs / outputs → table slots
  std::vector<std::pair<size_t, Value>> constant_slots_;  // graph outputs that are constants
  std::mutex batch_mu_;  // one batch at a time

  // The batch in flight (guarded by done_mu_ where noted; the tables are touched by one stage at a time).
  std::vector<std::vector<Value>> tables_;
  std::vector<std::vector<std::pair<int64_t, int64_t>>> intervals_;
  std::mutex done_mu_;
  std::condition_variable done_cv_;
  size_t done_ = 0;          // guarded by done_mu_
  Status first_error_;       // guarded by done_mu_
  bool failed_ = false;      // guarded by done_mu_; read by workers to skip
  std::atomic<bool> stop_{false};
};

}  // namespace ge::runtime::v2
