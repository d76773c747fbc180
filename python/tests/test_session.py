"""ge.Session and ge.Graph: graphs from ONNX or built in Python with session variables shared between graphs,
run_graph / run_graph_async, variables as numpy arrays, checkpoints restored bit for bit, fork_graph, errors."""
import threading

import numpy as np
import pytest

import ge
from conftest import same_bits


def accumulate_graph():
    """y = x * w, then w += x (a training-style variable update); w starts at [1, 2, 3]."""
    g = ge.Graph("accumulate")
    x = g.input("x", np.float32, [3])
    w = g.variable("w", np.float32, [3], init=np.array([1, 2, 3], np.float32))
    y = g.op("Mul", [x, w])
    g.add_output(y)
    g.add_output(g.assign_add(w, x))
    return g


def read_graph():
    """Another graph of the session reading the same variable: z = w + 0."""
    g = ge.Graph("read")
    w = g.variable("w", np.float32, [3])
    g.add_output(g.op("Add", [w, g.constant("zero", np.zeros(3, np.float32))]))
    return g


def test_variables_shared_between_graphs(tmp_path):
    sess = ge.Session()
    sess.add_graph(1, accumulate_graph())
    sess.add_graph(2, read_graph())
    x = np.array([0.5, 1.0, -1.0], np.float32)
    y, w_after = sess.run_graph(1, [x])
    assert np.array_equal(y, x * np.array([1, 2, 3], np.float32))
    assert np.array_equal(w_after, np.array([1.5, 3.0, 2.0], np.float32))
    (z,) = sess.run_graph(2, [])
    assert np.array_equal(z, w_after)
    sess.run_graph(1, [x])
    variables = sess.get_variables()
    assert list(variables) == ["w"] and np.array_equal(variables["w"], np.array([2, 4, 1], np.float32))
    assert np.array_equal(sess.get_variables(["w"])["w"], variables["w"])

    ckpt = tmp_path / "w.ckpt"
    sess.save_checkpoint(ckpt)
    sess.run_graph(1, [x])
    other = ge.Session()
    other.add_graph(2, read_graph())
    other.restore_checkpoint(str(ckpt))
    assert same_bits(other.run_graph(2, [])[0], variables["w"])
    summary = sess.get_compiled_graph_summary(1)
    assert summary["is_static"] and summary["variables"] == ["w"]


def test_set_variable():
    sess = ge.Session()
    sess.add_graph(1, accumulate_graph())
    sess.add_graph(2, read_graph())
    sess.run_graph(2, [])
    sess.set_variable("w", np.array([10, 20, 30], np.float32))
    assert np.array_equal(sess.run_graph(2, [])[0], np.array([10, 20, 30], np.float32))
    y, w = sess.run_graph(1, [np.ones(3, np.float32)])
    assert np.array_equal(y, np.array([10, 20, 30], np.float32)) and np.array_equal(w, [11, 21, 31])
    sess.set_variable("bias", np.full((2, 2), 0.5, np.float32))  # a new variable
    assert np.array_equal(sess.get_variables(["bias"])["bias"], np.full((2, 2), 0.5, np.float32))
    with pytest.raises(ge.InvalidArgument, match=r"variable 'w' is float32\[3\]"):
        sess.set_variable("w", np.ones(4, np.float32))  # another shape than the variable's
    with pytest.raises(ge.InvalidArgument, match="variable 'w'"):
        sess.set_variable("w", np.ones(3, np.float64))


def test_run_graph_async_and_fork():
    sess = ge.Session()
    sess.add_graph(1, accumulate_graph())
    done = threading.Event()
    got = {}

    def callback(error, outputs):
        got["error"], got["outputs"] = error, outputs
        done.set()

    x = np.ones(3, np.float32)
    sess.run_graph_async(1, [x], callback)
    assert done.wait(60)
    assert got["error"] is None and np.array_equal(got["outputs"][0], np.array([1, 2, 3], np.float32))
    sess.fork_graph(1, 7)
    assert len(sess.run_graph(7, [x])) == 2
    assert not sess.is_graph_need_rebuild(1)


def test_onnx_graph_matches_inference_session(tmp_path, mlp_onnx, rng):
    path = tmp_path / "mlp.onnx"
    path.write_bytes(mlp_onnx)
    sess = ge.Session()
    sess.add_graph(3, str(path))
    x = rng.standard_normal((2, 8)).astype(np.float32)
    y, s = sess.run_graph(3, [x])
    ort = ge.InferenceSession(mlp_onnx).run(None, {"x": x})
    assert np.allclose(y, ort[0], rtol=1e-5, atol=1e-5) and np.allclose(s, ort[1], rtol=1e-5, atol=1e-4)
    assert ge.Graph.from_onnx(path).name


def test_session_errors():
    with pytest.raises(ge.InvalidArgument, match="ge.exec.disableReuseMemry"):
        ge.Session({"ge.exec.disableReuseMemry": "1"})
    sess = ge.Session()
    with pytest.raises(ge.NotFound):
        sess.run_graph(99, [])
    with pytest.raises(ge.NotFound):
        sess.get_variables(["nope"])
    g = ge.Graph()
    x = g.input("x", np.float32, [2])
    with pytest.raises(ge.Error, match="Nope"):
        g.op("Nope", [x])
    sess.add_graph(1, accumulate_graph())
    with pytest.raises(ge.InvalidArgument):
        sess.run_graph(1, [np.ones(4, np.float32)])
    with pytest.raises(ge.Error):
        sess.restore_checkpoint("/nonexistent/ckpt")


def test_a_geir_graph_runs_in_a_session(tmp_path):
    path = tmp_path / "scale.geir"
    path.write_text("graph scale(%x: float32[3]) {\n  mul: %y = Mul(%x, %k)\n  const %k = float32[3] [1, 2, 3]\n"
                    "  return %y\n}\n")
    s = ge.Session()
    s.add_graph(1, str(path))
    (y,) = s.run_graph(1, [np.ones(3, np.float32)])
    np.testing.assert_array_equal(y, np.array([1, 2, 3], np.float32))
    g = ge.Graph.from_geir(str(path))
    assert g.name == "scale"
    bad = tmp_path / "bad.geir"
    bad.write_text("graph broken(%x: float32[3]) {\n  mul: %y = Mul(%x,\n")
    with pytest.raises(ge.Error):
        s.add_graph(2, str(bad))


def test_memory_limit_evicts_idle_graphs_and_reloads_them():
    n = 4096

    def scaled(k):
        h = ge.Graph(f"scaled{k}")
        x = h.input("x", np.float32, [n])
        c = h.constant("k", np.array(k, np.float32))
        h.add_output(h.op("Relu", [h.op("Add", [h.op("Mul", [x, c]), c])]))
        return h

    probe = ge.Session()
    probe.add_graph(1, scaled(1))
    probe.compile_graph(1)
    per_graph = probe.get_compiled_graph_summary(1)["feature_memory_size"]
    assert per_graph > 0
    sess = ge.Session({"ge.exec.sessionMemoryLimit": str(per_graph + per_graph // 2)})
    for gid in (1, 2, 3):
        sess.add_graph(gid, scaled(gid))
    x = np.linspace(-1, 1, n, dtype=np.float32)
    for _ in range(2):
        for gid in (1, 2, 3):
            (y,) = sess.run_graph(gid, [x])
            assert np.array_equal(y, np.maximum(0, x * np.float32(gid) + np.float32(gid)))
    states = [sess.get_graph_load_state(gid) for gid in (1, 2, 3)]
    assert sum(s["loaded"] for s in states) == 1
    assert all(s["evictions"] >= 1 for s in states[:2])
    fresh = ge.Session()
    fresh.add_graph(1, scaled(1))
    with pytest.raises(ge.FailedPrecondition):
        fresh.get_graph_load_state(1)
