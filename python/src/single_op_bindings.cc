// ge.run_op, ge.SingleOp and ge.Constant (include/ge/single_op.h): one op of ge's op table on numpy arrays.
#include <pybind11/stl.h>

#include <mutex>

#include "ge/single_op.h"

#include "attrs.h"
#include "bindings.h"
#include "errors.h"
#include "model_source.h"
#include "numpy_tensor.h"

namespace ge::python {

namespace py = pybind11;

namespace {

// A constant input (a shape operand: Reshape's shape, Slice's starts, ...): fixed when the op is prepared.
struct ConstantInput {
  py::array value;
};

SingleOpOptions OpOptions(const std::string& domain, int64_t opset, int num_outputs, int threads,
                          const py::object& options) {
  SingleOpOptions o;
  o.domain = domain;
  o.opset = opset;
  o.num_outputs = num_outputs;
  o.intra_op_threads = threads;
  if (!options.is_none()) o.options = OptionsFromPython(options);
  return o;
}

// An input: None (omitted), ge.Constant(array), a (dtype, shape) pair (SingleOp's descs only) or an array.
struct OpInputs {
  std::vector<OpTensorDesc> descs;  // one per op input
  std::vector<py::array> runtime;   // the arrays Run takes, in order
};

OpInputs ReadInputs(const py::handle& inputs, bool allow_descs) {
  OpInputs out;
  int i = 0;
  for (py::handle v : inputs) {
    const std::string what = "input " + std::to_string(i++);
    if (v.is_none()) {
      out.descs.emplace_back();
    } else if (py::isinstance<ConstantInput>(v)) {
      py::array a = v.cast<ConstantInput&>().value;
      const DataType dt = GeDtype(a.dtype());
      Tensor t = ValueOrThrow(BorrowTensor(ArrayForInput(a, dt, what), dt).Clone());
      out.descs.push_back(OpTensorDesc::Constant(std::move(t)));
    } else if (allow_descs && py::isinstance<py::tuple>(v) && py::len(v) == 2) {
      const DataType dt = GeDtype(py::dtype::from_args(py::reinterpret_borrow<py::object>(v[py::int_(0)])));
      if (dt == DataType::kUndefined) ThrowInvalidArgument(what + ": a dtype ge has no tensors of");
      out.descs.emplace_back(dt, v[py::int_(1)].cast<std::vector<int64_t>>());
    } else {
      py::array a = py::array::ensure(v);
      if (!a) throw py::type_error(what + ": a numpy array, ge.Constant(array), None or (dtype, shape)");
      const DataType dt = GeDtype(a.dtype());
      if (dt == DataType::kUndefined) ThrowInvalidArgument(what + ": a numpy dtype ge has no tensors of");
      out.runtime.push_back(ArrayForInput(a, dt, what));
      out.descs.emplace_back(dt, std::vector<int64_t>(a.shape(), a.shape() + a.ndim()));
    }
  }
  return out;
}

std::vector<py::array> ToArrays(const std::vector<Tensor>& tensors) {
  std::vector<py::array> out;
  out.reserve(tensors.size());
  for (const Tensor& t : tensors)
    out.push_back(TensorToArray(t, t.storage() == nullptr || t.storage().use_count() != 1));
  return out;
}

std::vector<Tensor> Borrowed(const std::vector<py::array>& arrays) {
  std::vector<Tensor> out;
  out.reserve(arrays.size());
  for (const py::array& a : arrays) out.push_back(BorrowTensor(a, GeDtype(a.dtype())));
  return out;
}

// A prepared op for Python: SingleOp runs one call at a time, so calls from several threads take turns.
class PySingleOp {
 public:
  explicit PySingleOp(std::unique_ptr<SingleOp> op) : op_(std::move(op)) {}

  std::vector<py::array> Run(const py::handle& inputs) {
    std::vector<py::array> arrays;
    const std::vector<OpTensorDesc>& descs = op_->inputs();
    int i = 0;
    for (py::handle v : inputs) {
      if (static_cast<size_t>(i) >= descs.size()) break;
      arrays.push_back(ArrayForInput(v, descs[i].dtype, "input " + std::to_string(i)));
      ++i;
    }
    if (arrays.size() != descs.size() || static_cast<size_t>(py::len(inputs)) != descs.size()) {
      ThrowInvalidArgument(op_->op_type() + " takes " + std::to_string(descs.size()) + " runtime inputs, got " +
                           std::to_string(py::len(inputs)));
    }
    std::vector<Tensor> in = Borrowed(arrays), out;
    Status s;
    {
      py::gil_scoped_release release;
      std::lock_guard<std::mutex> lock(mu_);
      s = op_->Run(in, &out);
    }
    ThrowIfError(s);
    return ToArrays(out);
  }

  SingleOp& op() { return *op_; }

 private:
  std::unique_ptr<SingleOp> op_;
  std::mutex mu_;
};

py::list Descs(const std::vector<OpTensorDesc>& descs) {
  py::list out;
  for (const OpTensorDesc& d : descs) out.append(py::make_tuple(NumpyDtype(d.dtype), d.dims));
  return out;
}

std::unique_ptr<SingleOp> CreateOp(const std::string& op_type, const OpInputs& inputs, const py::object& attrs,
                                   const SingleOpOptions& options) {
  const Attrs a = AttrsFromPython(attrs);
  StatusOr<std::unique_ptr<SingleOp>> op = [&] {
    py::gil_scoped_release release;
    return SingleOp::Create(op_type, inputs.descs, a, options);
  }();
  if (!op.ok() && op.status().message().find("OpTensorDesc::Constant") != std::string::npos) {
    ThrowIfError(op.status().WithContext("pass shape operands as ge.Constant(array)"));
  }
  return ValueOrThrow(std::move(op));
}

}  // namespace

void RegisterSingleOp(py::module_& m) {
  py::class_<ConstantInput>(m, "Constant",
                            "A constant op input (a shape operand such as Reshape's shape): ge.Constant(array).")
      .def(py::init([](const py::object& v) { return ConstantInput{py::array::ensure(v)}; }), py::arg("value"))
      .def_property_readonly("value", [](const ConstantInput& c) { return c.value; });

  py::class_<PySingleOp>(m, "SingleOp",
                         "One op of ge's op table prepared for fixed input descs; run() as often as needed. "
                         "Thread-safe (calls take turns).")
      .def(py::init([](const std::string& op_type, const py::object& inputs, const py::object& attrs,
                       const std::string& domain, int64_t opset, int num_outputs, int threads,
                       const py::object& options) {
             OpInputs in = ReadInputs(inputs, true);
             return new PySingleOp(
                 CreateOp(op_type, in, attrs, OpOptions(domain, opset, num_outputs, threads, options)));
           }),
           py::arg("op_type"), py::arg("inputs"), py::arg("attrs") = py::none(), py::kw_only(), py::arg("domain") = "",
           py::arg("opset") = 17, py::arg("num_outputs") = 0, py::arg("threads") = 1, py::arg("options") = py::none(),
           "inputs: per op input a numpy array or (dtype, shape) (its desc), ge.Constant(array), or None (omitted).")
      .def("run", &PySingleOp::Run, py::arg("inputs"),
           "Runs the op on its runtime inputs (constants and omitted ones left out), in order; returns the outputs.")
      .def_property_readonly("op_type", [](PySingleOp& p) { return p.op().op_type(); })
      .def_property_readonly(
          "inputs", [](PySingleOp& p) { return Descs(p.op().inputs()); }, "(dtype, dims) of each runtime input.")
      .def_property_readonly("outputs", [](PySingleOp& p) { return Descs(p.op().outputs()); })
      .def_property_readonly("output_names", [](PySingleOp& p) { return p.op().output_names(); })
      .def_property_readonly("engine", [](PySingleOp& p) { return p.op().engine(); })
      .def_property_readonly("kernel_impl", [](PySingleOp& p) { return p.op().kernel_impl(); });

  m.def(
      "run_op",
      [](const std::string& op_type, const py::object& inputs, const py::object& attrs, const std::string& domain,
         int64_t opset, int num_outputs, int threads, const py::object& options) {
        OpInputs in = ReadInputs(inputs, false);
        PySingleOp op(CreateOp(op_type, in, attrs, OpOptions(domain, opset, num_outputs, threads, options)));
        return op.Run(py::cast(in.runtime));
      },
      py::arg("op_type"), py::arg("inputs"), py::arg("attrs") = py::none(), py::kw_only(), py::arg("domain") = "",
      py::arg("opset") = 17, py::arg("num_outputs") = 0, py::arg("threads") = 1, py::arg("options") = py::none(),
      R"(Runs one op of ge's op table once: ge.run_op("Conv", [x, w], {"pads": [1, 1, 1, 1]}).

inputs: numpy arrays in the op's order; ge.Constant(array) for a shape operand, None for an omitted optional
input. attrs: {name: int, float, str, array or list}. domain: "" (ONNX) or "ge". Returns the outputs as a list of
numpy arrays; raises ge.NotFound for an unknown op, ge.InvalidArgument for bad inputs or attributes.)");
}

}  // namespace ge::python
