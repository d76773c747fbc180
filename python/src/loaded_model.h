// One loaded .om behind both Python faces of a model (ge.InferenceSession, ge.OfflineModel): loads from a path or
// .om bytes (kept alive here and used in place), checks a run's inputs against the model's descs, runs it with the
// GIL released and returns the outputs as numpy arrays.
//
// Zero copy: a C-contiguous, aligned input array of the model's dtype is read where it is; a static model writes
// its outputs straight into freshly allocated numpy arrays; a dynamic model's outputs become arrays over ge's
// buffers. Threading: Run may be called from many Python threads at once (OfflineModel is thread-safe); the
// object is immutable after construction.
#pragma once
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "ge/model.h"

namespace ge::python {

class LoadedModel {
 public:
  static std::shared_ptr<LoadedModel> FromFile(const std::string& path, const OfflineModelOptions& options);
  static std::shared_ptr<LoadedModel> FromBytes(std::vector<uint8_t> om, const OfflineModelOptions& options);

  OfflineModel& model() { return *model_; }
  const OfflineModel& model() const { return *model_; }
  const std::vector<ModelTensorDesc>& inputs() const { return model_->inputs(); }
  const std::vector<ModelTensorDesc>& outputs() const { return model_->outputs(); }
  // Index of the input or output named `name`, or -1.
  int InputIndex(const std::string& name) const;
  int OutputIndex(const std::string& name) const;
  // "x, y" for messages.
  std::string InputNames() const;
  std::string OutputNames() const;

  // The feed's arrays in the model's input order; ge.InvalidArgument names a missing or unknown input.
  std::vector<pybind11::handle> OrderFeed(const pybind11::dict& feed) const;

  // One run: inputs in the model's order (any object numpy can take as an array of the input's dtype). Raises
  // ge.InvalidArgument naming a wrong count, dtype or shape, and ge's own errors as their exceptions.
  std::vector<pybind11::array> Run(const std::vector<pybind11::handle>& inputs);

 private:
  LoadedModel(std::unique_ptr<OfflineModel> model, std::vector<uint8_t> om);
  std::vector<pybind11::array> RunStatic(const std::vector<pybind11::array>& inputs);
  std::vector<pybind11::array> RunDynamic(const std::vector<pybind11::array>& inputs);

  std::vector<uint8_t> om_;  // the image a model loaded from bytes reads in place; declared first, freed last
  std::unique_ptr<OfflineModel> model_;
  std::map<std::string, int> input_index_, output_index_;
  // Per input and output, made once: names as Python strings (dict look-ups without a conversion), numpy dtypes
  // and output shapes (no dtype parsing per run).
  std::vector<pybind11::str> input_keys_;
  std::vector<pybind11::dtype> output_dtypes_;
  std::vector<std::vector<pybind11::ssize_t>> output_shapes_;
  bool dynamic_ = false;
};

}  // namespace ge::python
