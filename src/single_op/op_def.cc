#include "single_op/op_def.h"

#include <algorithm>
#include <thread>

#include "base/edit_distance.h"
#include "base/option_table.h"
#include "kernels/builtin_engines.h"
#include "kernels/ref/kernel_registry.h"
#include "rt/cpu/cpu_quota.h"
#include "ops/op_schema.h"
#include "single_op/onnx_attrs.h"

namespace ge::single_op {
namespace {

constexpr int64_t kMaxOpset = 1000;
constexpr int kMaxThreads = 1024;

Status CheckOptions(const OpDef& def, const SingleOpOptions& o) {
  if (o.opset < 1 || o.opset > kMaxOpset) {
    return InvalidArgument(def.label + ": opset " + std::to_string(o.opset) + " is out of range [1, " +
                           std::to_string(kMaxOpset) + "]");
  }
  if (o.intra_op_threads < 0 || o.intra_op_threads > kMaxThreads) {
    return InvalidArgument(def.label + ": intra_op_threads " + std::to_string(o.intra_op_threads) +
                           " is out of range [0, " + std::to_string(kMaxThreads) + "]");
  }
  if (o.cache_capacity < 1) return InvalidArgument(def.label + ": cache_capacity must be at least 1");
  return Status::Ok();
}

// The engines ge is built with, less those an option turns off; sets allow_bf16.
Status ApplyOptions(const std::map<std::string, std::string>& options, OpDef* def) {
  GE_RETURN_IF_ERROR(CheckOptionsAgainstTable(options, kReaderSingleOp, def->label));
  const kernels::EngineList all = kernels::BuiltinEngines();
  std::vector<std::string> off;
  const std::string engine_prefix = "ge.engine.";
  for (const auto& [key, value] : options) {
    if (key.rfind(engine_prefix, 0) == 0) {
      const std::string name = key.substr(engine_prefix.size());
      if (kernels::FindEngine(all, name) == nullptr) {
        std::vector<std::string> names;
        for (const auto& e : all) names.push_back(e->name());
        const std::string closest = ClosestName(name, names);
        return InvalidArgument(def->label + ": option " + key + ": ge has no engine '" + name + "'" +
                               (closest.empty() ? "" : "; did you mean 'ge.engine." + closest + "'?"));
      }
      if (value == "0") off.push_back(name);
    } else if (key == "ge.exec.precision_mode") {
      def->settings.allow_bf16 = value == "allow_bf16";
    }
  }
  for (const auto& e : all) {
    if (std::find(off.begin(), off.end(), e->name()) == off.end()) def->engines.push_back(e);
  }
  return Status::Ok();
}

}  // namespace

StatusOr<OpDef> MakeOpDef(const std::string& op_type, const Attrs& attrs, const SingleOpOptions& options) {
  OpDef def;
  def.domain = options.domain == "ai.onnx" ? "" : options.domain;
  def.op_type = op_type;
  def.label = def.domain.empty() ? op_type : def.domain + "::" + op_type;
  def.id = ops::OpIdOf(def.domain, op_type);
  if (!ops::IsKnownOp(def.id)) return NotFound("unknown op '" + def.label + "': not in ge's op table");
  const ops::OpSchema* schema = ops::BuiltinOps().Find(def.id);
  if (schema == nullptr || ref::RefKernels().Find(def.id) == nullptr) {
    return Unimplemented(def.label + ": ge has no kernel that runs this op on its own (only inside a compiled model)");
  }
  GE_RETURN_IF_ERROR(CheckOptions(def, options));
  def.min_inputs = schema->min_inputs;
  def.max_inputs = schema->max_inputs;
  const int max_outputs = schema->max_outputs;
  // ge's schema may take fewer outputs than ONNX requires (TopK's Indices): the default is what ONNX requires.
  const int required =
      std::min(max_outputs, std::max({1, schema->min_outputs, RequiredOutputs(def.domain, op_type, options.opset)}));
  if (options.num_outputs == 0) {
    def.num_outputs = required;
  } else if (options.num_outputs < std::max(1, schema->min_outputs) || options.num_outputs > max_outputs) {
    return InvalidArgument(def.label + ": num_outputs " + std::to_string(options.num_outputs) + " is outside [" +
                           std::to_string(std::max(1, schema->min_outputs)) + ", " +
                           (max_outputs >= ops::kVariadic ? std::string("any") : std::to_string(max_outputs)) + "]");
  } else {
    def.num_outputs = options.num_outputs;
  }
  def.settings.opset = options.opset;
  def.settings.intra_op_threads =
      options.intra_op_threads > 0 ? options.intra_op_threads
                                   : rt::UsableCpuCount();
  def.settings.variable_acc = false;  // no session variables here
  def.cache_capacity = options.cache_capacity;
  GE_RETURN_IF_ERROR(ApplyOptions(options.options, &def));
  GE_ASSIGN_OR_RETURN(def.attrs, CheckAttributes(def.label, def.domain, op_type, options.opset, attrs));
  def.output_names = OutputNames(def.domain, op_type, options.opset, def.num_outputs);
  return def;
}

Status CheckInputCount(const OpDef& def, size_t n) {
  if (n >= static_cast<size_t>(def.min_inputs) && n <= static_cast<size_t>(def.max_inputs)) return Status::Ok();
  std::string want = def.min_inputs == def.max_inputs ? std::to_string(def.min_inputs)
                     : def.max_inputs >= ops::kVariadic ? "at least " + std::to_string(def.min_inputs)
                                                        : std::to_string(def.min_inputs) + " to " +
                                                              std::to_string(def.max_inputs);
  return InvalidArgument(def.label + ": takes " + want + " inputs, got " + std::to_string(n));
}

StatusOr<std::unique_ptr<rt::ThreadPool>> MakePool(const OpDef& def) {
  if (def.settings.intra_op_threads <= 1) return std::unique_ptr<rt::ThreadPool>();
  return rt::ThreadPool::Create(def.settings.intra_op_threads);
}

}  // namespace ge::single_op
