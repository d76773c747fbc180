"""ge.train and ge.lower_training on the MLP training model of tests/training (ONNX training info, Momentum): the
trained variables and losses match the numpy reference; a checkpoint resumes the same run; bad inputs raise."""
import importlib.util
import os

import numpy as np
import pytest

import ge

HERE = os.path.dirname(os.path.abspath(__file__))
MAKER = os.path.join(HERE, "..", "..", "tests", "training", "make_mlp_training.py")
STEPS = 12


def relative_l2(a, b):
    a, b = np.asarray(a, np.float64), np.asarray(b, np.float64)
    return np.linalg.norm(a - b) / max(np.linalg.norm(b), 1e-30)


@pytest.fixture(scope="module")
def mlp(tmp_path_factory):
    spec = importlib.util.spec_from_file_location("make_mlp_training", MAKER)
    maker = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(maker)
    out = str(tmp_path_factory.mktemp("mlp_train"))
    maker.generate(out, steps=STEPS)
    return out, maker


def feed(out):
    return {"X": np.load(os.path.join(out, "X.npy")), "Y": np.load(os.path.join(out, "Y.npy"))}


def test_lower_training_names_the_step(mlp):
    out, maker = mlp
    names = ge.lower_training(os.path.join(out, "mlp_train.onnx"))
    assert sorted(names["step_inputs"]) == ["X", "Y"]
    assert names["variables"] == sorted(maker.VARIABLES)
    assert names["step_outputs"]


def test_train_matches_the_numpy_reference(mlp):
    out, maker = mlp
    seen = []
    result = ge.train(os.path.join(out, "mlp_train.onnx"), feed(out), STEPS, on_step=lambda i, s: seen.append(i))
    assert seen == list(range(STEPS))
    assert len(result["history"]) == STEPS
    for name in maker.VARIABLES:
        expected = np.load(os.path.join(out, "expected", name + ".npy"))
        got = result["variables"][name]
        assert got.shape == expected.shape and got.dtype == expected.dtype, name
        assert relative_l2(got, expected) <= 1e-5, name
    losses = [h[next(iter(h))] for h in result["history"]]
    expected_losses = np.load(os.path.join(out, "expected", "loss.npy"))
    assert relative_l2(losses, expected_losses) <= 1e-5
    assert losses[-1] < losses[0]


def test_a_checkpoint_resumes_the_same_run(mlp, tmp_path):
    out, maker = mlp
    model = os.path.join(out, "mlp_train.onnx")
    ckpt = str(tmp_path / "half.ckpt")
    ge.train(model, feed(out), STEPS // 2, save=ckpt)
    resumed = ge.train(model, feed(out), STEPS - STEPS // 2, restore=ckpt)
    straight = ge.train(model, feed(out), STEPS)
    for name in maker.VARIABLES:
        np.testing.assert_array_equal(resumed["variables"][name], straight["variables"][name])


def test_bad_training_inputs_raise(mlp, tmp_path):
    out, _ = mlp
    model = os.path.join(out, "mlp_train.onnx")
    with pytest.raises(ge.InvalidArgument, match="needs input 'Y'"):
        ge.train(model, {"X": np.load(os.path.join(out, "X.npy"))})
    with pytest.raises(ge.InvalidArgument, match="'Z' is not a training step input"):
        ge.train(model, dict(feed(out), Z=np.zeros(3, np.float32)))
    with pytest.raises(ge.InvalidArgument, match="steps"):
        ge.train(model, feed(out), -1)
    with pytest.raises(ge.Error):
        ge.train(model, feed(out), 1, restore=str(tmp_path / "absent.ckpt"))


def test_a_model_without_training_info_raises(tmp_path):
    from onnx import TensorProto, helper

    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [2])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [2])
    graph = helper.make_graph([helper.make_node("Relu", ["x"], ["y"])], "g", [x], [y])
    path = str(tmp_path / "plain.onnx")
    with open(path, "wb") as f:
        f.write(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]).SerializeToString())
    with pytest.raises(ge.InvalidArgument, match="training"):
        ge.train(path, {"x": np.zeros(2, np.float32)})
