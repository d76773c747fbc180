"""Timelines from Python (issue 30): ONNX Runtime's profiling convention (SessionOptions.enable_profiling,
InferenceSession.end_profiling) and OfflineModel(trace=True).write_trace write Chrome trace-event JSON with the
load phases and one slice per kernel per run."""
import collections
import json
import os

import numpy as np

import ge


def kernel_slices(path):
    with open(path) as f:
        doc = json.load(f)
    events = doc["traceEvents"]
    for e in events:
        assert {"name", "ph", "pid", "tid"} <= set(e), e
        if e["ph"] == "X":
            assert e["dur"] >= 0 and "ts" in e, e
    return [e for e in events if e["ph"] == "X" and e.get("cat") == "kernel"], events


def test_end_profiling_writes_a_trace_with_every_kernel_once_per_run(mlp_om, tmp_path):
    so = ge.SessionOptions()
    so.enable_profiling = True
    so.profile_file_prefix = str(tmp_path / "mlp_profile_")
    sess = ge.InferenceSession(mlp_om, so)
    x = np.ones((2, 8), np.float32)
    runs = 3
    for _ in range(runs):
        sess.run(None, {"x": x})
    path = sess.end_profiling()
    assert path.startswith(str(tmp_path / "mlp_profile_")) and path.endswith(".json")
    kernels, events = kernel_slices(path)
    per_node = collections.Counter(e["name"] for e in kernels)
    assert per_node and set(per_node.values()) == {runs}, per_node
    assert any(e["ph"] == "X" and "load" in e["name"].lower() for e in events)


def test_without_profiling_end_profiling_returns_nothing(mlp_om):
    assert ge.InferenceSession(mlp_om).end_profiling() == ""


def test_offline_model_trace(mlp_om, tmp_path):
    m = ge.OfflineModel(mlp_om, trace=True)
    m.execute([np.ones((2, 8), np.float32)])
    path = str(tmp_path / "om.json")
    m.write_trace(path)
    kernels, _ = kernel_slices(path)
    assert kernels
    untraced = ge.OfflineModel(mlp_om)
    try:
        untraced.write_trace(str(tmp_path / "none.json"))
        raise AssertionError("write_trace without trace=True must raise")
    except ge.Error:
        pass
    assert not os.path.exists(str(tmp_path / "none.json"))


def test_session_trace(tmp_path):
    s = ge.Session({"ge.exec.profilingMode": "1"})
    g = ge.Graph("relu")
    x = g.input("x", np.float32, [4])
    g.add_output(g.op("Relu", [x]))
    s.add_graph(1, g)
    for _ in range(2):
        s.run_graph(1, [np.ones(4, np.float32)])
    path = str(tmp_path / "session.json")
    s.write_trace(path)
    kernels, _ = kernel_slices(path)
    assert kernels and len(kernels) % 2 == 0
    try:
        ge.Session().write_trace(str(tmp_path / "none.json"))
        raise AssertionError("write_trace without ge.exec.profilingMode must raise")
    except ge.FailedPrecondition:
        pass
