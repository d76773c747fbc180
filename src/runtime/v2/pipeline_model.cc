#include "runtime/v2/pipeline_model.h"

#include <algorithm>
#include <chrono>
#include <unordered_map>

#include "ops/op_id.h"
#include "runtime/v2/lowering/extract_subgraph.h"

namespace ge::runtime::v2 {
namespace {

// What the partition balances: matrix products, convolutions and recurrences dominate a model's time.
double NodeWeight(const ir::Node& n) { return ops::HasTrait(ops::OpIdOf(n), ops::OpTrait::kComputeHeavy) ? 8 : 1; }

int64_t NowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// Stage of each node of |order|: the pipeline_stage attributes when every node has one (checked), else contiguous
// pieces of |order| of about equal weight.
StatusOr<std::vector<size_t>> AssignStages(const std::vector<ir::Node*>& order, size_t stages, size_t* num_stages) {
  std::vector<size_t> stage(order.size(), 0);
  bool all_marked = !order.empty();
  for (const ir::Node* n : order) all_marked = all_marked && n->attrs().Has(kPipelineStageAttr);
  if (all_marked) {
    std::unordered_map<const ir::Node*, size_t> of;
    size_t top = 0;
    for (size_t i = 0; i < order.size(); ++i) {
      const int64_t s = order[i]->attrs().GetInt(kPipelineStageAttr, -1);
      if (s < 0) return InvalidArgument("node '" + order[i]->name() + "' has a negative pipeline_stage");
      stage[i] = static_cast<size_t>(s);
      of[order[i]] = stage[i];
      top = std::max(top, stage[i]);
    }
    for (size_t i = 0; i < order.size(); ++i) {
      std::vector<ir::Value*> reads = order[i]->inputs();
      for (ir::Value* v : CapturedValues(*order[i], *order[i]->graph())) reads.push_back(v);
      for (const ir::Value* v : reads) {
        if (v == nullptr || v->producer() == nullptr) continue;
        auto it = of.find(v->producer());
        if (it != of.end() && it->second > stage[i]) {
          return InvalidArgument("node '" + order[i]->name() + "' (pipeline_stage " + std::to_string(stage[i]) +
                                 ") reads '" + v->name() + "' made in the later stage " + std::to_string(it->second));
        }
      }
      for (const ir::Node* c : order[i]->control_inputs()) {
        auto it = of.find(c);
        if (it != of.end() && it->second > stage[i]) {
          return InvalidArgument("node '" + order[i]->name() + "' (pipeline_stage " + std::to_string(stage[i]) +
                                 ") must run after '" + c->name() + "' (control edge), which is in the later stage " +
                                 std::to_string(it->second));
        }
      }
    }
    // Renumber the stages used, in order (an unused number is no stage).
    std::vector<size_t> used(top + 1, 0);
    for (size_t s : stage) used[s] = 1;
    std::vector<size_t> dense(top + 1, 0);
    size_t k = 0;
    for (size_t s = 0; s <= top; ++s) {
      if (used[s]) dense[s] = k++;
    }
    for (size_t& s : stage) s = dense[s];
    *num_stages = k;
    return stage;
  }
  if (stages == 0) return InvalidArgument("a pipeline needs at least one stage");
  if (stages > order.size()) {
    return InvalidArgument("a pipeline of " + std::to_string(stages) + " stages needs as many nodes; the graph has " +
                           std::to_string(order.size()));
  }
  double total = 0;
  for (const ir::Node* n : order) total += NodeWeight(*n);
  // A stage ends after the node where the running weight reaches its share, or where the nodes left are just
  // enough for one per later stage.
  double prefix = 0;
  size_t s = 0;
  for (size_t i = 0; i < order.size(); ++i) {
    stage[i] = s;
    prefix += NodeWeight(*order[i]);
    const size_t nodes_left = order.size() - i - 1;
    const size_t stages_left = stages - s - 1;
    if (stages_left > 0 &&
        (prefix >= total * static_cast<double>(s + 1) / static_cast<double>(stages) || nodes_left == stages_left)) {
      ++s;
    }
  }
  *num_stages = stages;
  return stage;
}

}  // namespace

StatusOr<std::unique_ptr<PipelineModel>> PipelineModel::Load(std::unique_ptr<ir::Model> model,
                                                             const PipelineOptions& options,
                                                             std::shared_ptr<const void> keep_alive) {
  if (model == nullptr || model->graph == nullptr) return InvalidArgument("pipeline: no model");
  const ir::Graph& g = *model->graph;
  GE_ASSIGN_OR_RETURN(std::vector<ir::Node*> order, g.TopologicalOrder());
  // Control flow moves into a stage whole (its subgraphs copied); what they capture is read like an input, so its
  // producer must come first in the order the stages cut (the graph's order counts data and control edges only).
  std::unordered_map<const ir::Node*, size_t> position;
  for (size_t i = 0; i < order.size(); ++i) position[order[i]] = i;
  for (size_t i = 0; i < order.size(); ++i) {
    if (order[i]->subgraphs().empty()) continue;
    for (const ir::Value* v : CapturedValues(*order[i], g)) {
      auto it = v->producer() != nullptr ? position.find(v->producer()) : position.end();
      if (it != position.end() && it->second > i) {
        return Unimplemented("pipeline: node '" + order[i]->name() + "' captures '" + v->name() +
                             "', which its graph's order makes later");
      }
    }
  }
  size_t num_stages = 0;
  GE_ASSIGN_OR_RETURN(std::vector<size_t> stage_of, AssignStages(order, options.stages, &num_stages));

  std::unique_ptr<PipelineModel> p(new PipelineModel());
  std::unordered_map<const ir::Value*, size_t> slot;
  auto slot_of = [&](const ir::Value* v) {
    auto it = slot.find(v);
    if (it != slot.end()) return it->second;
    const size_t s = slot.size();
    slot.emplace(v, s);
    return s;
  };
  for (const ir::Value* v : g.inputs()) p->input_slots_.push_back(slot_of(v));
  std::vector<std::vector<ir::Node*>> members(num_stages);
  for (size_t i = 0; i < order.size(); ++i) members[stage_of[i]].push_back(order[i]);
  for (size_t s = 0; s < num_stages; ++s) {
    if (members[s].empty()) continue;
    ExtractedSubgraph e = ExtractSubgraph(*model, g, members[s], g.name() + "_stage" + std::to_string(s));
    auto stage = std::make_unique<Stage>();
    PipelineStageInfo info;
    info.nodes = members[s].size();
    for (const ir::Node* n : members[s]) info.weight += NodeWeight(*n);
    for (const ir::Value* v : e.inputs) {
      stage->in_slots.push_back(slot_of(v));
      info.inputs.push_back(v->name());
    }
    for (const ir::Value* v : e.outputs) {
      stage->out_slots.push_back(slot_of(v));
      info.outputs.push_back(v->name());
    }
    auto m = ModelV2::Load(std::move(e.model), options.stage_options, g.name() + "/stage" + std::to_string(s));
    if (!m.ok()) return m.status().WithContext("pipeline stage " + std::to_string(s));
    stage->model = std::move(*m);
    p->stages_.push_back(std::move(stage));
    p->info_.push_back(std::move(info));
  }
  for (const ir::Value* v : g.outputs()) {
    if (v->is_constant()) {
      const size_t s = slot_of(v);
      p->constant_slots_.push_back({s, Value(*v->const_value())});
    } else if (v->producer() == nullptr && slot.find(v) == slot.end()) {
      return InvalidArgument("pipeline: graph output '" + v->name() + "' is made by no node");
    }
    p->output_slots_.push_back(slot_of(v));
  }
  p->num_slots_ = slot.size();
  p->source_ = std::move(model);
  p->keep_alive_ = std::move(keep_alive);
  for (size_t s = 0; s < p->stages_.size(); ++s) {
    PipelineModel* self = p.get();
    p->stages_[s]->worker = std::thread([self, s] { self->Work(s); });
  }
  return p;
}

PipelineModel::~PipelineModel() {
  stop_.store(true);
  for (auto& s : stages_) {
    { std::lock_guard<std::mutex> lk(s->mu); }
    s->cv.notify_all();
  }
  for (auto& s : stages_) {
    if (s->worker.joinable()) s->worker.join();
  }
}

void PipelineModel::Finish(size_t /*request*/) {
  std::lock_guard<std::mutex> lk(done_mu_);
  ++done_;
  done_cv_.notify_all();
}

void PipelineModel::Work(size_t s) {
  Stage& stage = *stages_[s];
  std::vector<Value> in, out;
  for (;;) {
    size_t k = 0;
    {
      std::unique_lock<std::mutex> lk(stage.mu);
      stage.cv.wait(lk, [&] { return stop_.load() || !stage.queue.empty(); });
      if (stage.queue.empty()) return;  // stopping
      k = stage.queue.front();
      stage.queue.pop_front();
    }
    bool skip = false;
    {
      std::lock_guard<std::mutex> lk(done_mu_);
      skip = failed_;
    }
    if (!skip) {
      std::vector<Value>& table = tables_[k];
      in.clear();
      for (size_t i : stage.in_slots) in.push_back(table[i]);
      out.clear();
      const int64_t t0 = NowNs();
      Status st = stage.model->Execute(in, &out);
      intervals_[s][k] = {t0, NowNs()};
      if (st.ok()) {
        for (size_t i = 0; i < stage.out_slots.size(); ++i) table[stage.out_slots[i]] = std::move(out[i]);
      } else {
        std::lock_guard<std::mutex> lk(done_mu_);
        if (!failed_) {
          failed_ = true;
          first_error_ = st.WithContext("pipeline request " + std::to_string(k) + ", stage " + std::to_string(s));
        }
      }
    }
    if (s + 1 < stages_.size()) {
      Stage& next = *stages_[s + 1];
      {
        std::lock_guard<std::mutex> lk(next.mu);
        next.queue.push_back(k);
      }
      next.cv.notify_one();
    } else {
      Finish(k);
    }
  }
}

Status PipelineModel::ExecuteBatch(const std::vector<std::vector<Value>>& requests,
                                   std::vector<std::vector<Value>>* outputs) {
  std::lock_guard<std::mutex> batch(batch_mu_);
  for (size_t k = 0; k < requests.size(); ++k) {
    if (requests[k].size() != input_slots_.size()) {
      return InvalidArgument("pipeline request " + std::to_string(k) + " has " + std::to_string(requests[k].size()) +
                             " inputs; the model takes " + std::to_string(input_slots_.size()));
    }
  }
  tables_.assign(requests.size(), std::vector<Value>(num_slots_));
  for (size_t k = 0; k < requests.size(); ++k) {
    for (size_t i = 0; i < input_slots_.size(); ++i) tables_[k][input_slots_[i]] = requests[k][i];
    for (const auto& [s, v] : constant_slots_) tables_[k][s] = v;
  }
  intervals_.assign(stages_.size(), std::vector<std::pair<int64_t, int64_t>>(requests.size(), {0, 0}));
  {
    std::lock_guard<std::mutex> lk(done_mu_);
    done_ = 0;
    failed_ = false;
    first_error_ = Status::Ok();
  }
  if (stages_.empty()) {
    done_ = requests.size();
  } else {
    Stage& first = *stages_[0];
    {
      std::lock_guard<std::mutex> lk(first.mu);
      for (size_t k = 0; k < requests.size(); ++k) first.queue.push_back(k);
    }
    first.cv.notify_one();
  }
  Status result;
  {
    std::unique_lock<std::mutex> lk(done_mu_);
    done_cv_.wait(lk, [&] { return done_ == requests.size(); });
    result = first_error_;
  }
  outputs->assign(requests.size(), {});
  if (!result.ok()) return result;
  for (size_t k = 0; k < requests.size(); ++k) {
    for (size_t s : output_slots_) (*outputs)[k].push_back(tables_[k][s]);
  }
  tables_.clear();
  return Status::Ok();
}

Status PipelineModel::Execute(const std::vector<Value>& inputs, std::vector<Value>* outputs) {
  std::vector<std::vector<Value>> out;
  GE_RETURN_IF_ERROR(ExecuteBatch({inputs}, &out));
  *outputs = std::move(out[0]);
  return Status::Ok();
}

}  // namespace ge::runtime::v2
