// The parts of the ge module, each registered by its own file; module.cc calls them in this order.
#pragma once
#include <pybind11/pybind11.h>

namespace ge::python {

void RegisterCompile(pybind11::module_& m);           // compile_bindings.cc
void RegisterOfflineModel(pybind11::module_& m);      // offline_model_bindings.cc (NodeArg too)
void RegisterInferenceSession(pybind11::module_& m);  // inference_session.cc
void RegisterSession(pybind11::module_& m);           // session_bindings.cc (Session, Graph, initialize)
void RegisterSingleOp(pybind11::module_& m);          // single_op_bindings.cc (ge.run_op, SingleOp, Constant)
void RegisterTraining(pybind11::module_& m);          // train_bindings.cc (ge.train, ge.lower_training)

}  // namespace ge::python
