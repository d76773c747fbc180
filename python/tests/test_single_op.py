"""ge.run_op and ge.SingleOp: one op on numpy arrays, constants for shape operands, errors with ge's message."""
import numpy as np
import pytest

import ge


def test_run_op_conv_matches_numpy(rng):
    x = rng.standard_normal((1, 2, 5, 5)).astype(np.float32)
    w = rng.standard_normal((3, 2, 3, 3)).astype(np.float32)
    (y,) = ge.run_op("Conv", [x, w], {"pads": [1, 1, 1, 1]})
    padded = np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)))
    ref = np.zeros((1, 3, 5, 5), np.float64)
    for o in range(3):
        for i in range(5):
            for j in range(5):
                ref[0, o, i, j] = np.sum(padded[0, :, i:i + 3, j:j + 3] * w[o])
    assert y.shape == (1, 3, 5, 5) and np.allclose(y, ref, rtol=1e-4, atol=1e-5)


def test_run_op_constants_attrs_and_outputs(rng):
    x = rng.standard_normal((2, 3, 4)).astype(np.float32)
    (r,) = ge.run_op("Reshape", [x, ge.Constant(np.array([6, -1], np.int64))])
    assert r.shape == (6, 4) and np.array_equal(r.ravel(), x.ravel())
    values, indices = ge.run_op("TopK", [x, ge.Constant(np.array([2], np.int64))], {"axis": -1})
    assert np.array_equal(values, -np.sort(-x, axis=-1)[..., :2]) and indices.dtype == np.int64
    (s,) = ge.run_op("Softmax", [x], {"axis": 1})
    assert np.allclose(s.sum(axis=1), 1, rtol=1e-5)


def test_prepared_single_op():
    op = ge.SingleOp("Add", [(np.float32, [4]), (np.float32, [4])])
    assert op.op_type == "Add" and op.output_names == ["C"]
    assert op.inputs == [(np.dtype(np.float32), [4])] * 2 and op.outputs == [(np.dtype(np.float32), [4])]
    assert op.engine and op.kernel_impl
    a = np.arange(4, dtype=np.float32)
    for k in range(3):
        (c,) = op.run([a, np.full(4, k, np.float32)])
        assert np.array_equal(c, a + k)


def test_single_op_errors():
    x = np.ones((2, 2), np.float32)
    with pytest.raises(ge.NotFound, match="unknown op 'Nope'"):
        ge.run_op("Nope", [x])
    with pytest.raises(ge.InvalidArgument, match="ge.Constant"):
        ge.run_op("Reshape", [x, np.array([4], np.int64)])
    with pytest.raises(ge.InvalidArgument, match="'pads'"):
        ge.run_op("Conv", [np.ones((1, 1, 3, 3), np.float32), np.ones((1, 1, 1, 1), np.float32)], {"pads": "x"})
    with pytest.raises(TypeError, match="attribute 'alpha'"):
        ge.run_op("LeakyRelu", [x], {"alpha": object()})
    op = ge.SingleOp("Add", [(np.float32, [4]), (np.float32, [4])])
    with pytest.raises(ge.InvalidArgument, match="takes 2 runtime inputs"):
        op.run([np.ones(4, np.float32)])
    with pytest.raises(ge.InvalidArgument):
        op.run([np.ones(5, np.float32), np.ones(4, np.float32)])
    with pytest.raises(ge.InvalidArgument, match="unexpected data type"):
        op.run([np.ones(4), np.ones(4, np.float32)])
