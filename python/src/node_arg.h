// ge.NodeArg: one model input or output as Python sees it (ONNX Runtime's NodeArg: name, shape with symbolic dims
// as strings, type as 'tensor(float)'; plus ge's dtype, dims and bytes).
#pragma once
#include <pybind11/pybind11.h>

#include <string>
#include <vector>

#include "ge/model.h"

namespace ge::python {

struct NodeArg {
  ModelTensorDesc desc;
};

std::vector<NodeArg> NodeArgs(const std::vector<ModelTensorDesc>& descs);
void RegisterNodeArg(pybind11::module_& m);

}  // namespace ge::python
