"""ge.OfflineModel: load an .om from a path or bytes, metadata, execute with a list or a dict, unload."""
import numpy as np
import pytest

import ge
from conftest import same_bits


def test_metadata_and_execute(tmp_path, mlp_om, rng):
    path = tmp_path / "mlp.om"
    path.write_bytes(mlp_om)
    model = ge.OfflineModel(str(path), intra_op_threads=1)
    assert model.runtime == "sink" and not model.dynamic and model.loaded and model.target
    (x,) = model.inputs
    assert (x.name, x.shape, x.dims, x.type, x.dtype, x.bytes) == ("x", [2, 8], [2, 8], "tensor(float)",
                                                                   np.dtype(np.float32), 64)
    assert [o.name for o in model.outputs] == ["y", "s"]
    assert model.feature_map_bytes >= 0 and isinstance(model.kernel_impls, dict)
    xs = rng.standard_normal((2, 8)).astype(np.float32)
    by_list = model.execute([xs])
    by_dict = model.execute({"x": xs})
    from_bytes = ge.OfflineModel(mlp_om).execute([xs])
    assert all(same_bits(a, b) for a, b in zip(by_list, by_dict))
    assert all(same_bits(a, b) for a, b in zip(by_list, from_bytes))
    assert "OfflineModel(name=" in repr(model)


def test_dynamic_model_runs_every_size(dynamic_onnx, rng):
    model = ge.OfflineModel(ge.compile(dynamic_onnx))
    assert model.dynamic and model.runtime == "v2"
    assert [i.shape for i in model.inputs] == [["batch", 4], ["batch"]]
    assert model.inputs[0].dims == [-1, 4] and model.inputs[0].bytes == 0
    for batch in (5, 1, 9):
        x = rng.standard_normal((batch, 4)).astype(np.float32)
        z, n = model.execute([x, np.arange(batch, dtype=np.int64)])
        assert z.shape == (batch, 4) and n.shape == (batch,)
        assert np.array_equal(z, x * np.array([0.5, -1.0, 2.0, 3.0], np.float32))


def test_wrong_count_and_unload(mlp_om):
    model = ge.OfflineModel(mlp_om)
    with pytest.raises(ge.InvalidArgument, match="takes 1 inputs"):
        model.execute([])
    with pytest.raises(ge.InvalidArgument, match="input 'x' is missing"):
        model.execute({})
    with ge.OfflineModel(mlp_om) as m:
        assert m.loaded
    assert not m.loaded
    model.unload()
    with pytest.raises(ge.FailedPrecondition, match="unloaded"):
        model.execute([np.zeros((2, 8), np.float32)])


def test_profile(mlp_om):
    model = ge.OfflineModel(mlp_om, profile=True)
    model.execute([np.ones((2, 8), np.float32)])
    rows = model.profile()
    assert rows and {"node", "op_type", "impl", "seconds", "runs"} <= set(rows[0])
