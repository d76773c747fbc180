// The shape-independent part of a single op: the op, its checked attributes, its arity and the settings its
// kernels are prepared with. Built once by SingleOp::Create / DynamicSingleOp::Create; immutable afterwards.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "base/status.h"
#include "ge/single_op.h"
#include "ir/attribute.h"
#include "kernels/engine.h"
#include "kernels/exec/prepared_kernel.h"
#include "ops/op_id.h"
#include "rt/cpu/thread_pool.h"

namespace ge::single_op {

struct OpDef {
  ops::OpId id = ops::OpId::kUnknown;
  std::string domain;  // the op table's: "" for ai.onnx
  std::string op_type;
  std::string label;  // "Add", "ge::FusedConv": the prefix of every error about the op
  ir::AttrMap attrs;  // converted from the public attributes and checked against the op's ONNX schema
  int min_inputs = 0;
  int max_inputs = 0;
  int num_outputs = 1;
  std::vector<std::string> output_names;
  exec::RequestSettings settings;
  kernels::EngineList engines;  // the enabled ones, in priority order
  size_t cache_capacity = 64;
};

// NotFound for an op outside ge's op table; Unimplemented for one with no kernel that runs alone; InvalidArgument
// for bad attributes or options.
StatusOr<OpDef> MakeOpDef(const std::string& op_type, const Attrs& attrs, const SingleOpOptions& options);

// InvalidArgument unless `n` inputs (omitted optional ones counted) is within the op's arity.
Status CheckInputCount(const OpDef& def, size_t n);

// The pool ge's kernels split large loops over, for settings.intra_op_threads > 1; null for one thread.
StatusOr<std::unique_ptr<rt::ThreadPool>> MakePool(const OpDef& def);

}  // namespace ge::single_op
