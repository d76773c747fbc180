#include "onnx_test_case.h"

#include <dirent.h>
#include <sys/stat.h>

#include <algorithm>
#include <cmath>

#include "base/compare.h"
#include "compiler/model_compiler.h"
#include "runtime/v2/lowering/execute_plan.h"
#include "interpreter/interpreter.h"
#include "model_runner.h"
#include "parser/onnx/onnx_parser.h"

namespace ge::cli {

namespace {

bool IsFile(const std::string& p) {
  struct stat st;
  return ::stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

std::vector<std::string> ListDir(const std::string& dir) {
  std::vector<std::string> out;
  DIR* d = ::opendir(dir.c_str());
  if (!d) return out;
  while (dirent* e = ::readdir(d)) {
    std::string n = e->d_name;
    if (n != "." && n != "..") out.push_back(n);
  }
  ::closedir(d);
  std::sort(out.begin(), out.end());
  return out;
}

// As ONNX's backend runner: numpy's assert_allclose (|got - want| <= atol + rtol * |want|), NaN only where NaN
// is expected, infinities exactly, complex values by real and imaginary part, everything else exactly.
Status CompareTensorsLikeOnnx(const Tensor& got, const Tensor& want, double rtol, double atol,
                              const std::string& what) {
  return CompareTensors(got, want, Tolerance{atol, rtol}, what);
}

// ONNX 1.12's backend data stores bfloat16 tensors as uint16 (numpy has no bfloat16): view them as declared.
void AdoptBfloat16(Value* v, DataType declared) {
  if (declared == DataType::kBFloat16 && v->is_tensor() && v->tensor.dtype() == DataType::kUint16) {
    v->tensor = Tensor(DataType::kBFloat16, v->tensor.dims(), v->tensor.storage(), v->tensor.byte_offset());
  }
}

}  // namespace

Status CompareValues(const Value& got, const Value& want, double rtol, double atol, const std::string& what) {
  if (want.is_tensor()) {
    if (!got.is_tensor()) return InvalidArgument(what + ": expected a tensor");
    return CompareTensorsLikeOnnx(got.tensor, want.tensor, rtol, atol, what);
  }
  if (want.is_sequence()) {
    if (!got.is_sequence()) return InvalidArgument(what + ": expected a sequence");
    if (got.sequence.size() != want.sequence.size()) {
      return InvalidArgument(what + ": sequence of " + std::to_string(got.sequence.size()) + " tensors, expected " +
                             std::to_string(want.sequence.size()));
    }
    for (size_t i = 0; i < want.sequence.size(); ++i) {
      GE_RETURN_IF_ERROR(
          CompareTensorsLikeOnnx(got.sequence[i], want.sequence[i], rtol, atol, what + "[" + std::to_string(i) + "]"));
    }
    return Status::Ok();
  }
  if (!got.is_none()) return InvalidArgument(what + ": expected an empty optional");
  return Status::Ok();
}

std::vector<std::string> FindOnnxTestCases(const std::vector<std::string>& roots) {
  std::vector<std::string> cases;
  for (const std::string& root : roots) {
    if (IsFile(root + "/model.onnx")) {
      cases.push_back(root);
      continue;
    }
    for (const std::string& sub : ListDir(root)) {
      if (IsFile(root + "/" + sub + "/model.onnx")) cases.push_back(root + "/" + sub);
    }
  }
  return cases;
}

Status RunOnnxTestCase(const std::string& dir, const OnnxCaseOptions& options, std::string* engine) {
  if (engine) engine->clear();
  GE_ASSIGN_OR_RETURN(auto model, onnx_parser::ParseModelFile(dir + "/model.onnx"));
  std::vector<TensorDesc> in_descs, out_descs;
  std::vector<std::string> in_names, out_names;
  for (const ir::Value* v : model->graph->inputs()) {
    in_descs.push_back(v->desc());
    in_names.push_back(v->name());
  }
  for (const ir::Value* v : model->graph->outputs()) {
    out_descs.push_back(v->desc());
    out_names.push_back(v->name());
  }
  std::unique_ptr<ModelRunner> runner;
  int sets = 0;
  for (const std::string& sub : ListDir(dir)) {
    if (sub.rfind("test_data_set_", 0) != 0) continue;
    ++sets;
    const std::string set_dir = dir + "/" + sub;
    std::vector<Value> inputs;
    for (size_t i = 0; i < in_descs.size(); ++i) {
      std::string f = set_dir + "/input_" + std::to_string(i) + ".pb";
      if (!IsFile(f)) return NotFound(sub + ": missing " + f);
      GE_ASSIGN_OR_RETURN(Value v, onnx_parser::ReadValueFile(f, in_descs[i]));
      AdoptBfloat16(&v, in_descs[i].dtype);
      inputs.push_back(std::move(v));
    }
    if (runner == nullptr) {
      if (options.via_om || options.via_v2) {
        compiler::CompileOptions co;
        co.ge_options = options.ge_options;
        co.force_dynamic = options.via_v2;
        if (options.via_v2) co.lower_for_runtime_v2 = runtime::v2::PlanExecuteGraphsForOm;  // a lowered .om
        for (size_t i = 0; i < inputs.size() && options.via_om; ++i) {
          if (inputs[i].is_tensor()) co.input_shapes[in_names[i]] = inputs[i].tensor.dims();
        }
        GE_ASSIGN_OR_RETURN(std::vector<uint8_t> image, compiler::CompileToOm(*model, co));
        OpenOptions open;
        open.ge_options = options.ge_options;
        GE_ASSIGN_OR_RETURN(runner, OpenOmImage(std::move(image), open));
      } else {
        GE_ASSIGN_OR_RETURN(runner, OpenIrModel(std::move(model), OpenOptions()));
      }
      if (engine) *engine = runner->engine();
    }
    std::vector<Value> outputs;
    GE_RETURN_IF_ERROR(runner->Run(inputs, &outputs));
    if (outputs.size() != out_descs.size()) {
      return Internal(sub + ": the model produced " + std::to_string(outputs.size()) + " outputs, it declares " +
                      std::to_string(out_descs.size()));
    }
    for (size_t i = 0; i < out_descs.size(); ++i) {
      std::string f = set_dir + "/output_" + std::to_string(i) + ".pb";
      if (!IsFile(f)) return NotFound(sub + ": missing " + f);
      GE_ASSIGN_OR_RETURN(Value want, onnx_parser::ReadValueFile(f, out_descs[i]));
      AdoptBfloat16(&want, out_descs[i].dtype);
      GE_RETURN_IF_ERROR(CompareValues(outputs[i], want, 1e-3, 1e-7, "output '" + out_names[i] + "'"));
    }
  }
  if (sets == 0) return NotFound("no test_data_set_* folder");
  return Status::Ok();
}

}  // namespace ge::cli
