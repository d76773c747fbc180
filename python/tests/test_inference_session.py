"""ge.InferenceSession with ONNX Runtime's calling convention: construction from a path or bytes (ONNX or .om),
SessionOptions, providers, metadata, run(); outputs equal bit for bit to ge.OfflineModel executing the same .om."""
import numpy as np
import pytest

import ge
from conftest import same_bits


def test_run_add_from_bytes(add_onnx, rng):
    sess = ge.InferenceSession(add_onnx)
    a, b = rng.standard_normal(16).astype(np.float32), rng.standard_normal(16).astype(np.float32)
    (c,) = sess.run(None, {"a": a, "b": b})
    assert c.dtype == np.float32 and c.shape == (16,)
    assert np.array_equal(c, a + b)


def test_inputs_outputs_and_metadata(mlp_onnx):
    sess = ge.InferenceSession(mlp_onnx, providers=["CPUExecutionProvider"])
    (x,) = sess.get_inputs()
    assert (x.name, x.shape, x.type) == ("x", [2, 8], "tensor(float)")
    assert [(o.name, o.shape, o.type) for o in sess.get_outputs()] == [
        ("y", [2, 4], "tensor(float)"), ("s", [], "tensor(float)")]
    meta = sess.get_modelmeta()
    assert meta.custom_metadata_map["ge.runtime"] == "sink"
    assert isinstance(meta.graph_name, str) and isinstance(meta.version, int)
    assert sess.get_providers() == ["CPUExecutionProvider"]
    assert sess.get_provider_options() == {"CPUExecutionProvider": {}}
    assert ge.get_available_providers() == ["CPUExecutionProvider"]
    assert ge.get_device() == "CPU"


def test_symbolic_dims_are_strings(dynamic_onnx, rng):
    sess = ge.InferenceSession(dynamic_onnx)
    assert [(i.name, i.shape, i.type) for i in sess.get_inputs()] == [
        ("x", ["batch", 4], "tensor(float)"), ("ids", ["batch"], "tensor(int64)")]
    assert sess.get_modelmeta().custom_metadata_map["ge.runtime"] == "v2"
    for batch in (1, 3, 7):
        x = rng.standard_normal((batch, 4)).astype(np.float32)
        ids = np.arange(batch, dtype=np.int64)
        z, n = sess.run(None, {"x": x, "ids": ids})
        assert np.array_equal(z, x * np.array([0.5, -1.0, 2.0, 3.0], np.float32))
        assert np.array_equal(n, ids.astype(np.float32))


def test_output_names_select_and_order(mlp_onnx, rng):
    sess = ge.InferenceSession(mlp_onnx)
    x = rng.standard_normal((2, 8)).astype(np.float32)
    y, s = sess.run(None, {"x": x})
    (s_only,) = sess.run(["s"], {"x": x})
    s2, y2 = sess.run(["s", "y"], {"x": x})
    assert same_bits(s, s_only) and same_bits(s, s2) and same_bits(y, y2)
    assert np.allclose(s, y.sum(), rtol=1e-5)


def test_path_onnx_and_om_agree_with_offline_model(tmp_path, mlp_onnx, mlp_om, rng):
    onnx_path = tmp_path / "mlp.onnx"
    onnx_path.write_bytes(mlp_onnx)
    om_path = tmp_path / "mlp.om"
    om_path.write_bytes(mlp_om)
    x = rng.standard_normal((2, 8)).astype(np.float32)
    opts = ge.SessionOptions()
    opts.intra_op_num_threads = 1
    model = ge.OfflineModel(mlp_om, intra_op_threads=1)
    expected = model.execute([x])
    for source in (str(onnx_path), onnx_path, mlp_onnx, str(om_path), mlp_om):
        outputs = ge.InferenceSession(source, sess_options=opts).run(None, {"x": x})
        assert len(outputs) == len(expected)
        assert all(same_bits(a, b) for a, b in zip(outputs, expected)), source


def test_session_options(tmp_path, mlp_onnx, rng):
    opts = ge.SessionOptions()
    opts.intra_op_num_threads = 1
    opts.inter_op_num_threads = 1
    opts.graph_optimization_level = ge.GraphOptimizationLevel.ORT_ENABLE_ALL
    opts.execution_mode = ge.ExecutionMode.ORT_SEQUENTIAL
    opts.optimized_model_filepath = str(tmp_path / "optimized.om")
    opts.add_session_config_entry("session.intra_op.allow_spinning", "0")  # ORT's own key: accepted, no effect
    opts.add_session_config_entry("ge.exec.disableReuseMemory", "1")
    assert opts.get_session_config_entry("ge.exec.disableReuseMemory") == "1"
    sess = ge.InferenceSession(mlp_onnx, sess_options=opts, providers=[("CPUExecutionProvider", {})])
    assert sess.get_session_options().intra_op_num_threads == 1
    assert ge.detect_model_format(opts.optimized_model_filepath) == "om"
    x = rng.standard_normal((2, 8)).astype(np.float32)
    written = ge.OfflineModel(opts.optimized_model_filepath).execute({"x": x})
    assert all(same_bits(a, b) for a, b in zip(sess.run(None, {"x": x}), written))

    unfused = ge.SessionOptions()
    unfused.graph_optimization_level = ge.GraphOptimizationLevel.ORT_DISABLE_ALL
    y_unfused = ge.InferenceSession(mlp_onnx, sess_options=unfused).run(["y"], {"x": x})[0]
    assert np.allclose(y_unfused, written[0], rtol=1e-5, atol=1e-5)


def test_other_providers_are_refused(add_onnx):
    with pytest.raises(ge.InvalidArgument, match="CUDAExecutionProvider"):
        ge.InferenceSession(add_onnx, providers=["CUDAExecutionProvider", "CPUExecutionProvider"])
    with pytest.raises(ValueError, match="CPU only"):
        ge.InferenceSession(add_onnx, providers=[("TensorrtExecutionProvider", {})])


def test_run_options_accepted(add_onnx):
    sess = ge.InferenceSession(add_onnx)
    ro = ge.RunOptions()
    ro.log_severity_level = 3
    a = np.ones(16, np.float32)
    assert np.array_equal(sess.run(None, {"a": a, "b": a}, ro)[0], 2 * a)
    assert np.array_equal(sess.run(None, {"a": a, "b": a}, run_options=None)[0], 2 * a)
    ro.terminate = True
    with pytest.raises(ge.Aborted):
        sess.run(None, {"a": a, "b": a}, ro)


def test_inputs_are_not_modified_and_outputs_do_not_alias_them(rng):
    from conftest import identity_model
    sess = ge.InferenceSession(identity_model())
    x = rng.standard_normal(5).astype(np.float32)
    keep = x.copy()
    (y,) = sess.run(None, {"x": x})
    y[:] = 0
    assert np.array_equal(x, keep)
    (y2,) = sess.run(None, {"x": x})
    assert np.array_equal(y2, keep)


def test_non_contiguous_and_list_inputs(add_onnx):
    sess = ge.InferenceSession(add_onnx)
    wide = np.arange(32, dtype=np.float32)
    a = wide[::2]  # a strided view: copied to a contiguous array for the run
    b = np.ones(16, np.float32)
    assert np.array_equal(sess.run(None, {"a": a, "b": b})[0], a + 1)
    big_endian = np.arange(16, dtype=">f4")
    assert np.array_equal(sess.run(None, {"a": big_endian, "b": b})[0], np.arange(16, dtype=np.float32) + 1)


def test_free_dimension_override(dynamic_onnx, rng):
    opts = ge.SessionOptions()
    opts.add_free_dimension_override_by_name("batch", 3)
    sess = ge.InferenceSession(dynamic_onnx, sess_options=opts)
    assert [i.shape for i in sess.get_inputs()] == [[3, 4], [3]]
    assert sess.get_modelmeta().custom_metadata_map["ge.runtime"] == "sink"
    x = rng.standard_normal((3, 4)).astype(np.float32)
    z, n = sess.run(None, {"x": x, "ids": np.arange(3, dtype=np.int64)})
    assert np.array_equal(z, x * np.array([0.5, -1.0, 2.0, 3.0], np.float32))
    with pytest.raises(ge.InvalidArgument, match="shape \\[2, 4\\]"):
        sess.run(None, {"x": x[:2], "ids": np.arange(2, dtype=np.int64)})
