"""ge.compile: ONNX bytes or path into .om bytes or a file, the report, options and input shapes."""
import numpy as np
import pytest

import ge
from conftest import same_bits


def test_compile_to_bytes_and_file(tmp_path, mlp_onnx, rng):
    om = ge.compile(mlp_onnx, threads=1)
    assert isinstance(om, bytes) and om[:4] == b"GEOM"
    assert ge.detect_model_format(om) == "om" and ge.detect_model_format(mlp_onnx) == "onnx"
    onnx_path = tmp_path / "mlp.onnx"
    onnx_path.write_bytes(mlp_onnx)
    report = ge.compile(onnx_path, tmp_path / "mlp.om", threads=1)
    assert isinstance(report, ge.CompileReport)
    assert report.static_model and report.runtime == "sink"
    assert report.nodes_after > 0 and report.weights_bytes > 0 and report.tasks > 0 and report.target
    assert "CompileReport(runtime='sink'" in repr(report)
    x = rng.standard_normal((2, 8)).astype(np.float32)
    from_bytes = ge.OfflineModel(om).execute([x])
    from_file = ge.OfflineModel(str(tmp_path / "mlp.om")).execute([x])
    assert all(same_bits(a, b) for a, b in zip(from_bytes, from_file))


def test_return_report_and_options(mlp_onnx):
    om, report = ge.compile(mlp_onnx, return_report=True, threads=1,
                            options={"ge.exec.disableReuseMemory": 1, "ge.fusion": True})
    assert om[:4] == b"GEOM" and report.runtime == "sink"
    assert isinstance(report.impls, dict) and isinstance(report.notes, list)


def test_input_shapes_fix_a_symbolic_dim(dynamic_onnx, rng):
    _, dynamic = ge.compile(dynamic_onnx, return_report=True)
    assert not dynamic.static_model and dynamic.runtime == "v2" and dynamic.dynamic_reason
    om, fixed = ge.compile(dynamic_onnx, return_report=True, input_shapes={"x": [3, 4], "ids": [3]})
    assert fixed.static_model
    model = ge.OfflineModel(om)
    assert [i.shape for i in model.inputs] == [[3, 4], [3]]
    _, ranged = ge.compile(dynamic_onnx, return_report=True, input_shape="x:1~8,4;ids:1~8")
    assert not ranged.static_model
    with pytest.raises(ge.FailedPrecondition, match="runtime v1"):
        ge.compile(dynamic_onnx, runtime="v1")


def test_geir_text_compiles_and_runs(tmp_path):
    text = 'opset "" 17\ngraph g(%x: float32[n,2]) {\n  r: %y = Relu(%x)\n  return %y\n}\n'
    assert ge.detect_model_format(text.encode()) == "geir"
    path = tmp_path / "relu.geir"
    path.write_text(text)
    x = np.array([[-1, 2], [3, -4]], np.float32)
    for source in (text.encode(), str(path)):
        sess = ge.InferenceSession(source)
        assert sess.get_inputs()[0].shape == ["n", 2]
        assert np.array_equal(sess.run(None, {"x": x})[0], np.maximum(x, 0))
