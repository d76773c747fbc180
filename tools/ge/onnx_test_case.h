// One ONNX backend node-test case: model.onnx plus test_data_set_*/input_*.pb and output_*.pb.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "base/status.h"
#include "base/value.h"

namespace ge::cli {

// Case folders under each of `roots` (a root that holds model.onnx is itself a case), sorted by name.
std::vector<std::string> FindOnnxTestCases(const std::vector<std::string>& roots);
// Runs every data set of the case; Ok when all outputs match within tolerance (rtol 1e-3, atol 1e-7 as the ONNX
// backend runner uses), else a message naming the first mismatch.
struct OnnxCaseOptions {
  // Compile the model (input shapes from the first data set) into an .om in memory and run that.
  bool via_om = false;
  // Compile the model into an IR .om (symbolic dims kept, never the static runtime) and run it on runtime v2.
  bool via_v2 = false;
  std::map<std::string, std::string> ge_options;  // compile options (via_om only), e.g. ge.engine.dnnl=1
};
// *engine (when given) receives the engine that ran the case: "sink" (the compiled static runtime), "v2" (an IR
// .om: what the sink runtime cannot run, or everything with via_v2), "interpreter" (an .onnx), or "" when the case failed before one was chosen.
Status RunOnnxTestCase(const std::string& dir, const OnnxCaseOptions& options = {}, std::string* engine = nullptr);
// Compares one output against its expected value; `what` names it in the error.
Status CompareValues(const Value& got, const Value& want, double rtol, double atol, const std::string& what);

}  // namespace ge::cli
