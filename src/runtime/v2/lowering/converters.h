// The converter table (ge_facts.md §8 "NodeConverters"): how each IR node becomes runtime kernels. One plain table
// keyed by op id (converters.cc); ops it does not list use the generic compute converter.
#pragma once
#include "ops/op_id.h"
#include "runtime/v2/lowering/graph_lowering.h"

namespace ge::runtime::v2 {

using ConverterFn = Status (*)(NodeLowering& ctx);

// Generic compute node: [InferShape] → AllocMemory → Launch in Main, PrepareStatic in Init when its shapes are
// static; nodes a prepared kernel cannot run (boxed values, no kernel) go to ConvertRef.
Status ConvertCompute(NodeLowering& ctx);
// The node on its reference kernel (RefKernel) in Main.
Status ConvertRef(NodeLowering& ctx);
// Constant-like nodes without runtime inputs (Constant, ge::FileConstant): run once in Init; Main reads the result.
Status ConvertInitConstant(NodeLowering& ctx);
// If, Loop, Scan, SequenceMap: subgraphs lowered recursively, run by the node's reference kernel (control_flow.cc).
Status ConvertControlFlow(NodeLowering& ctx);

// The converter for |id| (ConvertCompute when the table has none), as a kind, and a kind's function.
ConverterKind FindConverterKind(ops::OpId id);
ConverterFn ConverterFor(ConverterKind kind);

}  // namespace ge::runtime::v2
