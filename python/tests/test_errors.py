"""Bad inputs raise Python exceptions carrying ge's message, never crash: wrong dtype, shape, input or output name,
missing input, corrupt or missing files, misspelled options."""
import numpy as np
import pytest

import ge


@pytest.fixture(scope="module")
def sess(mlp_onnx):
    return ge.InferenceSession(mlp_onnx)


def test_exception_hierarchy():
    assert issubclass(ge.Error, RuntimeError)
    assert issubclass(ge.InvalidArgument, ge.Error) and issubclass(ge.InvalidArgument, ValueError)
    assert issubclass(ge.NotFound, LookupError) and issubclass(ge.Unimplemented, NotImplementedError)
    for name in ("DataLoss", "FailedPrecondition", "ResourceExhausted", "Timeout", "Aborted", "Internal", "OutOfRange"):
        assert issubclass(getattr(ge, name), ge.Error)


def test_wrong_dtype(sess):
    with pytest.raises(ge.InvalidArgument, match=r"input 'x': unexpected data type tensor\(double\), expected "
                                                 r"tensor\(float\)"):
        sess.run(None, {"x": np.zeros((2, 8))})
    with pytest.raises(ge.InvalidArgument, match="tensor\\(int64\\)"):
        sess.run(None, {"x": np.zeros((2, 8), np.int64)})


def test_wrong_shape(sess):
    with pytest.raises(ge.InvalidArgument, match=r"input 'x': shape \[2, 9\] does not match the model's \[2, 8\]"):
        sess.run(None, {"x": np.zeros((2, 9), np.float32)})
    with pytest.raises(ge.InvalidArgument, match="shape \\[16\\]"):
        sess.run(None, {"x": np.zeros(16, np.float32)})  # same bytes, wrong rank


def test_wrong_names(sess):
    x = np.zeros((2, 8), np.float32)
    with pytest.raises(ge.InvalidArgument, match="invalid input name 'X'.*inputs: x"):
        sess.run(None, {"X": x})
    with pytest.raises(ge.InvalidArgument, match="required input 'x' is missing"):
        sess.run(None, {})
    with pytest.raises(ge.InvalidArgument, match="invalid output name 'z'.*outputs: y, s"):
        sess.run(["z"], {"x": x})
    with pytest.raises(TypeError):
        sess.run(None, [x])
    with pytest.raises(ge.InvalidArgument, match="unexpected data type numpy object"):
        sess.run(None, {"x": object()})


def test_dynamic_model_checks_known_dims(dynamic_onnx):
    sess = ge.InferenceSession(dynamic_onnx)
    with pytest.raises(ge.InvalidArgument, match="input 'x'"):
        sess.run(None, {"x": np.zeros((2, 5), np.float32), "ids": np.zeros(2, np.int64)})
    with pytest.raises(ge.InvalidArgument, match="input 'ids': shape \\[2, 1\\]"):
        sess.run(None, {"x": np.zeros((2, 4), np.float32), "ids": np.zeros((2, 1), np.int64)})


def test_corrupt_and_missing_files(tmp_path, mlp_om, mlp_onnx):
    with pytest.raises(ge.NotFound, match="nope.onnx"):
        ge.InferenceSession(str(tmp_path / "nope.onnx"))
    with pytest.raises(ge.InvalidArgument, match="neither an ONNX model nor ge IR text"):
        ge.InferenceSession(b"this is not a model")
    with pytest.raises(ge.DataLoss, match="not a valid ONNX"):
        ge.InferenceSession(mlp_onnx[: len(mlp_onnx) // 2])
    truncated = tmp_path / "truncated.om"
    truncated.write_bytes(mlp_om[: len(mlp_om) // 2])
    with pytest.raises(ge.Error) as info:
        ge.InferenceSession(str(truncated))
    assert "truncated" in str(info.value) or "DATA_LOSS" in str(info.value)
    flipped = bytearray(mlp_om)
    flipped[len(flipped) // 2] ^= 0xFF
    with pytest.raises(ge.Error):
        ge.OfflineModel(bytes(flipped))
    with pytest.raises(ge.InvalidArgument, match="not an offline model"):
        ge.OfflineModel(mlp_onnx)
    with pytest.raises(TypeError):
        ge.InferenceSession(12345)
    with pytest.raises(ge.InvalidArgument, match="the model bytes are empty"):
        ge.InferenceSession(b"")
    with pytest.raises(ge.InvalidArgument, match="not an offline model \\(.om\\): empty"):
        ge.OfflineModel(b"")


def test_bad_options(add_onnx):
    opts = ge.SessionOptions()
    opts.add_session_config_entry("ge.exec.disableReuseMemry", "1")
    with pytest.raises(ge.InvalidArgument, match="'ge.exec.disableReuseMemry'.*did you mean 'ge.exec.disableReuseMemory'"):
        ge.InferenceSession(add_onnx, sess_options=opts)
    with pytest.raises(ge.InvalidArgument, match="ge.exec.precision_mode"):
        ge.compile(add_onnx, options={"ge.exec.precision_mode": "fp8"})
    with pytest.raises(TypeError, match="unexpected keyword argument 'thread'"):
        ge.compile(add_onnx, thread=2)
    with pytest.raises(ge.InvalidArgument, match="target"):
        ge.compile(add_onnx, target="x86-64-v9")
    with pytest.raises(TypeError, match="unexpected keyword argument 'foo'"):
        ge.InferenceSession(add_onnx, foo=1)
    with pytest.raises(TypeError, match="a provider is a name"):
        ge.InferenceSession(add_onnx, providers=[1])
    with pytest.raises(TypeError, match="is a list of dims"):
        ge.compile(add_onnx, input_shapes={"a": "16"})
    with pytest.raises(ge.InvalidArgument, match="ge.externalWeightDir"):
        ge.compile(add_onnx, options={"ge.externalWeight": 1})
