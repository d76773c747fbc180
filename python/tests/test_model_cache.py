"""The persistent model cache through Python (ge.graph_compiler_cache_dir as a session config entry): a second
InferenceSession, in this process or a new one, loads the stored .om instead of compiling (the file is not
rewritten: same inode); a changed option compiles again; a truncated file is rebuilt with a warning; processes
compiling the same model at once leave one valid file."""
import os
import subprocess
import sys

import numpy as np
import pytest

import ge
from conftest import mlp_model


def _options(cache_dir, **entries):
    so = ge.SessionOptions()
    so.add_session_config_entry("ge.graph_compiler_cache_dir", str(cache_dir))
    for k, v in entries.items():
        so.add_session_config_entry(k, v)
    return so


def _files(cache_dir):
    return sorted(p for p in os.listdir(cache_dir)) if os.path.isdir(cache_dir) else []


def _run(sess):
    x = np.arange(16, dtype=np.float32).reshape(2, 8) / 16
    return sess.run(None, {"x": x})


@pytest.fixture
def mlp_path(tmp_path):
    path = tmp_path / "mlp.onnx"
    path.write_bytes(mlp_model())
    return str(path)


_CHILD = """
import sys, numpy as np, ge
so = ge.SessionOptions()
so.add_session_config_entry("ge.graph_compiler_cache_dir", sys.argv[2])
sess = ge.InferenceSession(sys.argv[1], so)
x = np.arange(16, dtype=np.float32).reshape(2, 8) / 16
np.save(sys.argv[3], sess.run(None, {"x": x})[0])
"""


def _child(model, cache_dir, out):
    return subprocess.Popen([sys.executable, "-c", _CHILD, model, str(cache_dir), str(out)], env=dict(os.environ),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def test_second_session_loads_from_the_cache(mlp_path, tmp_path):
    cache = tmp_path / "cache"
    first = _run(ge.InferenceSession(mlp_path, _options(cache)))
    files = _files(cache)
    assert len(files) == 1 and files[0].endswith(".om")
    inode = os.stat(cache / files[0]).st_ino
    second = _run(ge.InferenceSession(mlp_path, _options(cache)))
    assert all(np.array_equal(a, b) for a, b in zip(first, second))
    assert _files(cache) == files and os.stat(cache / files[0]).st_ino == inode
    # A new process hits it too.
    proc = _child(mlp_path, cache, tmp_path / "out.npy")
    _, err = proc.communicate(timeout=300)
    assert proc.returncode == 0, err
    assert np.array_equal(np.load(tmp_path / "out.npy"), first[0])
    assert _files(cache) == files and os.stat(cache / files[0]).st_ino == inode
    # The cached file is a plain .om.
    model = ge.OfflineModel(str(cache / files[0]))
    assert np.array_equal(model.execute([np.arange(16, dtype=np.float32).reshape(2, 8) / 16])[0], first[0])


def test_model_bytes_are_cached_too(tmp_path):
    cache = tmp_path / "cache"
    onnx = mlp_model()
    ge.InferenceSession(onnx, _options(cache))
    files = _files(cache)
    inode = os.stat(cache / files[0]).st_ino
    ge.InferenceSession(onnx, _options(cache))
    assert _files(cache) == files and os.stat(cache / files[0]).st_ino == inode


def test_compile_report_says_it_came_from_the_cache(mlp_path, tmp_path):
    options = {"ge.graph_compiler_cache_dir": str(tmp_path / "cache")}
    om, report = ge.compile(mlp_path, return_report=True, options=options)
    assert not any("model cache" in n for n in report.notes)
    cached_om, cached = ge.compile(mlp_path, return_report=True, options=options)
    assert cached_om == om
    assert any(n.startswith("loaded from the model cache: ") for n in cached.notes)
    assert (cached.runtime, cached.static_model, cached.target) == (report.runtime, True, report.target)
    assert cached.feature_map_bytes == report.feature_map_bytes and cached.weights_bytes == report.weights_bytes


def test_compile_into_a_file_refuses_the_cache(mlp_path, tmp_path):
    with pytest.raises(ge.InvalidArgument, match="in-memory compiles"):
        ge.compile(mlp_path, str(tmp_path / "m.om"), options={"ge.graph_compiler_cache_dir": str(tmp_path / "c")})


def test_changed_options_compile_again(mlp_path, tmp_path):
    cache = tmp_path / "cache"
    ge.InferenceSession(mlp_path, _options(cache))
    assert len(_files(cache)) == 1
    ge.InferenceSession(mlp_path, _options(cache, **{"ge.exec.disableReuseMemory": "1"}))
    assert len(_files(cache)) == 2
    so = _options(cache)
    so.intra_op_num_threads = 1 if (os.cpu_count() or 1) > 1 else 2
    ge.InferenceSession(mlp_path, so)
    assert len(_files(cache)) == 3
    so = _options(cache)
    so.graph_optimization_level = ge.GraphOptimizationLevel.ORT_DISABLE_ALL
    ge.InferenceSession(mlp_path, so)
    assert len(_files(cache)) == 4


def test_truncated_cache_file_is_rebuilt_with_a_warning(mlp_path, tmp_path, capfd):
    cache = tmp_path / "cache"
    expected = _run(ge.InferenceSession(mlp_path, _options(cache)))
    (name,) = _files(cache)
    path = cache / name
    size = path.stat().st_size
    with open(path, "r+b") as f:
        f.truncate(size // 2)
    capfd.readouterr()
    got = _run(ge.InferenceSession(mlp_path, _options(cache)))
    err = capfd.readouterr().err
    assert "ge: warning: model cache:" in err and "is not a valid model" in err, err
    assert all(np.array_equal(a, b) for a, b in zip(expected, got))
    assert path.stat().st_size == size
    ge.OfflineModel(str(path))  # whole again


def test_unwritable_cache_dir_warns_and_compiles(mlp_path, tmp_path, capfd):
    blocker = tmp_path / "a_file"
    blocker.write_text("x")
    sess = ge.InferenceSession(mlp_path, _options(blocker / "cache"))
    assert len(_run(sess)) == 2
    assert "cannot create the directory" in capfd.readouterr().err


def test_misspelt_option_is_refused(mlp_path, tmp_path):
    so = ge.SessionOptions()
    so.add_session_config_entry("ge.graph_compiler_cachedir", str(tmp_path))
    with pytest.raises(ge.InvalidArgument, match="ge.graph_compiler_cache_dir"):
        ge.InferenceSession(mlp_path, so)


def test_concurrent_processes_leave_one_valid_file(mlp_path, tmp_path):
    cache = tmp_path / "cache"
    procs = [_child(mlp_path, cache, tmp_path / f"out{i}.npy") for i in range(4)]
    for p in procs:
        _, err = p.communicate(timeout=300)
        assert p.returncode == 0, err
    outs = [np.load(tmp_path / f"out{i}.npy") for i in range(4)]
    assert all(np.array_equal(o, outs[0]) for o in outs)
    (name,) = _files(cache)  # no temporary file left, one key
    model = ge.OfflineModel(str(cache / name))
    assert np.array_equal(model.execute([np.arange(16, dtype=np.float32).reshape(2, 8) / 16])[0], outs[0])


def test_session_graphs_use_the_cache(tmp_path):
    cache = tmp_path / "cache"

    def build():
        g = ge.Graph("acc")
        x = g.input("x", np.float32, [3])
        w = g.variable("w", np.float32, [3], init=np.ones(3, np.float32))
        g.add_output(g.assign_add(w, x))
        sess = ge.Session({"ge.graph_compiler_cache_dir": str(cache)})
        sess.add_graph(1, g)
        return sess.run_graph(1, [np.full(3, 2, np.float32)])[0]

    assert np.array_equal(build(), np.full(3, 3, np.float32))
    files = _files(cache)
    inode = os.stat(cache / files[0]).st_ino
    assert np.array_equal(build(), np.full(3, 3, np.float32))  # the init value again, from the cached model
    assert _files(cache) == files and os.stat(cache / files[0]).st_ino == inode
