"""Small ONNX models built with onnx.helper for the ge module's tests, and their .om compiled once per session."""
import numpy as np
import pytest
from onnx import TensorProto, helper, numpy_helper

import ge


def _model(nodes, inputs, outputs, initializers=(), opset=17):
    graph = helper.make_graph(nodes, "g", inputs, outputs, initializer=list(initializers))
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)]).SerializeToString()


def add_model():
    """c = a + b over 16 floats."""
    a = helper.make_tensor_value_info("a", TensorProto.FLOAT, [16])
    b = helper.make_tensor_value_info("b", TensorProto.FLOAT, [16])
    c = helper.make_tensor_value_info("c", TensorProto.FLOAT, [16])
    return _model([helper.make_node("Add", ["a", "b"], ["c"])], [a, b], [c])


def mlp_model(batch=2):
    """y = relu(x @ W1 + b1) @ W2 + b2, and s = sum(y) as a second output; x is [batch, 8]."""
    rng = np.random.default_rng(7)
    inits = [
        numpy_helper.from_array(rng.standard_normal((8, 16)).astype(np.float32), "W1"),
        numpy_helper.from_array(rng.standard_normal(16).astype(np.float32), "b1"),
        numpy_helper.from_array(rng.standard_normal((16, 4)).astype(np.float32), "W2"),
        numpy_helper.from_array(rng.standard_normal(4).astype(np.float32), "b2"),
    ]
    nodes = [
        helper.make_node("MatMul", ["x", "W1"], ["h0"]),
        helper.make_node("Add", ["h0", "b1"], ["h1"]),
        helper.make_node("Relu", ["h1"], ["h"]),
        helper.make_node("MatMul", ["h", "W2"], ["y0"]),
        helper.make_node("Add", ["y0", "b2"], ["y"]),
        helper.make_node("ReduceSum", ["y"], ["s"], keepdims=0),
    ]
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [batch, 8])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [batch, 4])
    s = helper.make_tensor_value_info("s", TensorProto.FLOAT, [])
    return _model(nodes, [x], [y, s], inits)


def dynamic_model():
    """A symbolic batch: z = x * scale (float, [batch, 4]) and n = shape-independent Cast(ids) (int64 -> float)."""
    scale = numpy_helper.from_array(np.array([0.5, -1.0, 2.0, 3.0], np.float32), "scale")
    nodes = [helper.make_node("Mul", ["x", "scale"], ["z"]), helper.make_node("Cast", ["ids"], ["n"], to=1)]
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", 4])
    ids = helper.make_tensor_value_info("ids", TensorProto.INT64, ["batch"])
    z = helper.make_tensor_value_info("z", TensorProto.FLOAT, ["batch", 4])
    n = helper.make_tensor_value_info("n", TensorProto.FLOAT, ["batch"])
    return _model(nodes, [x, ids], [z, n], [scale])


def identity_model():
    """y = Identity(x) with a symbolic dim: an output that could alias its input."""
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, ["n"])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, ["n"])
    return _model([helper.make_node("Identity", ["x"], ["y"])], [x], [y])


@pytest.fixture(scope="session")
def add_onnx():
    return add_model()


@pytest.fixture(scope="session")
def mlp_onnx():
    return mlp_model()


@pytest.fixture(scope="session")
def dynamic_onnx():
    return dynamic_model()


@pytest.fixture(scope="session")
def mlp_om(mlp_onnx):
    return ge.compile(mlp_onnx, threads=1)


@pytest.fixture
def rng():
    return np.random.default_rng(1234)


def same_bits(a, b):
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()
