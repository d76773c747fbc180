#include "loaded_model.h"

#include <utility>

#include "errors.h"
#include "numpy_tensor.h"

namespace ge::python {

namespace py = pybind11;

LoadedModel::LoadedModel(std::unique_ptr<OfflineModel> model, std::vector<uint8_t> om)
    : om_(std::move(om)), model_(std::move(model)), dynamic_(model_->dynamic()) {
  for (size_t i = 0; i < model_->inputs().size(); ++i) input_index_[model_->inputs()[i].name] = static_cast<int>(i);
  for (size_t i = 0; i < model_->outputs().size(); ++i) {
    output_index_[model_->outputs()[i].name] = static_cast<int>(i);
  }
  for (const ModelTensorDesc& d : model_->inputs()) input_keys_.emplace_back(d.name);
  if (!dynamic_) {
    for (const ModelTensorDesc& d : model_->outputs()) {
      output_dtypes_.push_back(NumpyDtype(d.dtype));
      output_shapes_.emplace_back(d.dims.begin(), d.dims.end());
    }
  }
}

std::vector<py::handle> LoadedModel::OrderFeed(const py::dict& feed) const {
  std::vector<py::handle> ordered;
  ordered.reserve(input_keys_.size());
  int missing = -1;
  for (size_t i = 0; i < input_keys_.size() && missing < 0; ++i) {
    PyObject* value = PyDict_GetItemWithError(feed.ptr(), input_keys_[i].ptr());
    if (value == nullptr && PyErr_Occurred()) throw py::error_already_set();
    if (value == nullptr) missing = static_cast<int>(i);
    ordered.push_back(value);
  }
  if (missing >= 0 || static_cast<size_t>(PyDict_Size(feed.ptr())) != ordered.size()) {
    for (auto [key, value] : feed) {  // a key that names no input: most likely the missing one misspelled
      const std::string name = py::str(key).cast<std::string>();
      if (InputIndex(name) < 0) {
        ThrowInvalidArgument("invalid input name '" + name + "' (the model's inputs: " + InputNames() + ")");
      }
    }
  }
  if (missing >= 0) {
    ThrowInvalidArgument("required input '" + model_->inputs()[missing].name +
                         "' is missing from the feed (the model's inputs: " + InputNames() + ")");
  }
  return ordered;
}

std::shared_ptr<LoadedModel> LoadedModel::FromFile(const std::string& path, const OfflineModelOptions& options) {
  StatusOr<std::unique_ptr<OfflineModel>> model = [&] {
    py::gil_scoped_release release;
    return OfflineModel::LoadFromFile(path, options);
  }();
  return std::shared_ptr<LoadedModel>(new LoadedModel(ValueOrThrow(std::move(model)), {}));
}

std::shared_ptr<LoadedModel> LoadedModel::FromBytes(std::vector<uint8_t> om, const OfflineModelOptions& options) {
  OfflineModelOptions borrow = options;
  borrow.borrow_model_data = true;  // om_ keeps the bytes for the model's lifetime
  StatusOr<std::unique_ptr<OfflineModel>> model = [&] {
    py::gil_scoped_release release;
    return OfflineModel::LoadFromMemory(om.data(), om.size(), borrow);
  }();
  return std::shared_ptr<LoadedModel>(new LoadedModel(ValueOrThrow(std::move(model)), std::move(om)));
}

int LoadedModel::InputIndex(const std::string& name) const {
  auto it = input_index_.find(name);
  return it == input_index_.end() ? -1 : it->second;
}

int LoadedModel::OutputIndex(const std::string& name) const {
  auto it = output_index_.find(name);
  return it == output_index_.end() ? -1 : it->second;
}

namespace {

std::string JoinNames(const std::vector<ModelTensorDesc>& descs) {
  std::string s;
  for (const ModelTensorDesc& d : descs) s += (s.empty() ? "" : ", ") + d.name;
  return s;
}

std::vector<int64_t> ArrayDims(const py::array& a) { return std::vector<int64_t>(a.shape(), a.shape() + a.ndim()); }

// Rank and every known dim must match (ONNX Runtime's "invalid dimensions" check).
void CheckShape(const ModelTensorDesc& desc, const py::array& a) {
  bool ok = static_cast<size_t>(a.ndim()) == desc.dims.size();
  for (size_t i = 0; ok && i < desc.dims.size(); ++i) ok = desc.dims[i] < 0 || desc.dims[i] == a.shape(i);
  if (!ok) {
    ThrowInvalidArgument("input '" + desc.name + "': shape " + DimsString(ArrayDims(a)) +
                         " does not match the model's " + DimsString(desc.dims) + " (-1: any size)");
  }
}

}  // namespace

std::string LoadedModel::InputNames() const { return JoinNames(model_->inputs()); }
std::string LoadedModel::OutputNames() const { return JoinNames(model_->outputs()); }

std::vector<py::array> LoadedModel::Run(const std::vector<py::handle>& inputs) {
  const std::vector<ModelTensorDesc>& descs = model_->inputs();
  if (inputs.size() != descs.size()) {
    ThrowInvalidArgument("model '" + model_->name() + "' takes " + std::to_string(descs.size()) + " inputs (" +
                         InputNames() + "), got " + std::to_string(inputs.size()));
  }
  std::vector<py::array> arrays;
  arrays.reserve(inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i) {
    arrays.push_back(ArrayForInput(inputs[i], descs[i].dtype, "input '" + descs[i].name + "'"));
    CheckShape(descs[i], arrays.back());
  }
  return dynamic_ ? RunDynamic(arrays) : RunStatic(arrays);
}

std::vector<py::array> LoadedModel::RunStatic(const std::vector<py::array>& inputs) {
  std::vector<InputBuffer> in(inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i) in[i] = {inputs[i].data(), static_cast<size_t>(inputs[i].nbytes())};
  std::vector<py::array> outputs;
  std::vector<OutputBuffer> out;
  outputs.reserve(model_->outputs().size());
  out.reserve(model_->outputs().size());
  for (size_t i = 0; i < output_dtypes_.size(); ++i) {
    outputs.emplace_back(output_dtypes_[i], output_shapes_[i]);
    out.push_back({outputs.back().mutable_data(), static_cast<size_t>(outputs.back().nbytes())});
  }
  Status s;
  {
    py::gil_scoped_release release;
    s = model_->Execute(in, out);
  }
  ThrowIfError(s);
  return outputs;
}

std::vector<py::array> LoadedModel::RunDynamic(const std::vector<py::array>& inputs) {
  std::vector<Tensor> in;
  in.reserve(inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i) in.push_back(BorrowTensor(inputs[i], model_->inputs()[i].dtype));
  std::vector<Tensor> out;
  Status s;
  {
    py::gil_scoped_release release;
    s = model_->Execute(in, &out);
  }
  ThrowIfError(s);
  std::vector<py::array> outputs;
  outputs.reserve(out.size());
  for (const Tensor& t : out) {
    // A fresh output (its storage held by nothing else) becomes the array's own; one that shares its storage (an
    // input passed through, a constant of the model, a slot the model keeps) is copied, so that the array neither
    // aliases the caller's input nor outlives memory the model owns.
    const bool exclusive = t.storage() != nullptr && t.storage().use_count() == 1;
    outputs.push_back(TensorToArray(t, !exclusive));
  }
  return outputs;
}

}  // namespace ge::python
