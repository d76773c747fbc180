// The model argument every entry point takes: a path (str or os.PathLike) or the model's bytes (bytes, bytearray,
// memoryview or any buffer), with its format (ONNX, IR text or .om) recognised from the first bytes.
#pragma once
#include <pybind11/pybind11.h>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "ge/compile.h"

namespace ge::python {

struct ModelArgument {
  std::string path;            // set for a path
  std::vector<uint8_t> bytes;  // a copy of the caller's bytes otherwise
  ModelFormat format = ModelFormat::kUnknown;

  bool is_path() const { return !path.empty(); }
  CompileSource source() const {
    return is_path() ? CompileSource::FromFile(path) : CompileSource::FromBytes(bytes.data(), bytes.size());
  }
};

// Raises TypeError for anything else, ge.NotFound for a path that cannot be read.
ModelArgument ReadModelArgument(const pybind11::handle& model);

// A dict of GE option keys to values (strings; bools become "1"/"0", numbers their digits).
std::map<std::string, std::string> OptionsFromPython(const pybind11::handle& value);

// ge.compile's keyword arguments (threads, target, input_shapes, input_shape, options, runtime, tune,
// embed_external_data, model_name) as CompileOptions; an unknown keyword is a TypeError naming it.
CompileOptions CompileOptionsFromKwargs(const pybind11::kwargs& kwargs);

}  // namespace ge::python
