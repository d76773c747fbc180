#include "onnx_test_case.h"

#include <dirent.h>
#include <sys/stat.h>

#include <algorithm>
#include <cmath>

#include "compiler/model_compiler.h"
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

Status CompareTensors(const Tensor& got, const Tensor& want, double rtol, double atol, const std::string& what) {
  if (got.dtype() != want.dtype()) {
    return InvalidArgument(what + ": dtype " + DataTypeName(got.dtype()) + ", expected " + DataTypeName(want.dtype()));
  }
  if (got.dims() != want.dims()) {
    return InvalidArgument(what + ": shape " + DimsToString(got.dims()) + ", expected " + DimsToString(want.dims()));
  }
  const int64_t n = got.numel();
  if (got.dtype() == DataType::kString) {
    for (int64_t i = 0; i < n; ++i) {
      if (got.data<std::string>()[i] != want.data<std::string>()[i]) {
        return InvalidArgument(what + ": element " + std::to_string(i) + " is \"" + got.data<std::string>()[i] +
                               "\", expected \"" + want.data<std::string>()[i] + "\"");
      }
    }
    return Status::Ok();
  }
  bool exact = !IsFloatingPoint(got.dtype()) && got.dtype() != DataType::kComplex64 && got.dtype() != DataType::kComplex128;
  int64_t scalars = n;
  const bool complex = got.dtype() == DataType::kComplex64 || got.dtype() == DataType::kComplex128;
  for (int64_t i = 0; i < scalars; ++i) {
    double a, b;
    if (complex) {
      a = got.dtype() == DataType::kComplex64 ? std::abs(got.data<std::complex<float>>()[i]) : std::abs(got.data<std::complex<double>>()[i]);
      b = want.dtype() == DataType::kComplex64 ? std::abs(want.data<std::complex<float>>()[i]) : std::abs(want.data<std::complex<double>>()[i]);
    } else if (got.dtype() == DataType::kInt64 || got.dtype() == DataType::kUint64) {
      if (got.GetAsInt64(i) != want.GetAsInt64(i)) {
        return InvalidArgument(what + ": element " + std::to_string(i) + " is " + std::to_string(got.GetAsInt64(i)) +
                               ", expected " + std::to_string(want.GetAsInt64(i)));
      }
      continue;
    } else {
      a = got.GetAsDouble(i);
      b = want.GetAsDouble(i);
    }
    if (std::isnan(a) && std::isnan(b)) continue;
    if (a == b) continue;
    if (exact || !(std::fabs(a - b) <= atol + rtol * std::fabs(b))) {
      char buf[160];
      std::snprintf(buf, sizeof buf, ": element %lld is %.9g, expected %.9g", static_cast<long long>(i), a, b);
      return InvalidArgument(what + buf);
    }
  }
  return Status::Ok();
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
    return CompareTensors(got.tensor, want.tensor, rtol, atol, what);
  }
  if (want.is_sequence()) {
    if (!got.is_sequence()) return InvalidArgument(what + ": expected a sequence");
    if (got.sequence.size() != want.sequence.size()) {
      return InvalidArgument(what + ": sequence of " + std::to_string(got.sequence.size()) + " tensors, expected " +
                             std::to_string(want.sequence.size()));
    }
    for (size_t i = 0; i < want.sequence.size(); ++i) {
      GE_RETURN_IF_ERROR(CompareTensors(got.sequence[i], want.sequence[i], rtol, atol, what + "[" + std::to_string(i) + "]"));
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

Status RunOnnxTestCase(const std::string& dir, const OnnxCaseOptions& options) {
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
      if (options.via_om) {
        compiler::CompileOptions co;
        co.ge_options = options.ge_options;
        for (size_t i = 0; i < inputs.size(); ++i) {
          if (inputs[i].is_tensor()) co.input_shapes[in_names[i]] = inputs[i].tensor.dims();
        }
        GE_ASSIGN_OR_RETURN(std::vector<uint8_t> image, compiler::CompileToOm(*model, co));
        GE_ASSIGN_OR_RETURN(runner, OpenOmImage(std::move(image), OpenOptions()));
      } else {
        GE_ASSIGN_OR_RETURN(runner, OpenIrModel(std::move(model), OpenOptions()));
      }
    }
    std::vector<Value> outputs;
    GE_RETURN_IF_ERROR(runner->Run(inputs, &outputs));
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
