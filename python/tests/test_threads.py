"""4 Python threads sharing one InferenceSession (the GIL released while ge runs) give outputs identical to one
thread."""
import threading

import numpy as np

import ge
from conftest import same_bits


def _share_one_session(model, make_feed, runs=25):
    opts = ge.SessionOptions()
    opts.intra_op_num_threads = 1
    sess = ge.InferenceSession(model, sess_options=opts)
    feeds = [make_feed(i) for i in range(8)]
    expected = [sess.run(None, f) for f in feeds]
    failures, errors = [], []

    def worker(t):
        try:
            for r in range(runs):
                k = (t + r) % len(feeds)
                got = sess.run(None, feeds[k])
                if not all(same_bits(a, b) for a, b in zip(got, expected[k])):
                    failures.append((t, r))
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(repr(e))

    threads = [threading.Thread(target=worker, args=(t,)) for t in range(4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert not errors
    assert not failures


def test_four_threads_static_model(mlp_onnx):
    rng = np.random.default_rng(5)
    xs = [rng.standard_normal((2, 8)).astype(np.float32) for _ in range(8)]
    _share_one_session(mlp_onnx, lambda i: {"x": xs[i]})


def test_four_threads_dynamic_model(dynamic_onnx):
    rng = np.random.default_rng(6)
    feeds = [{"x": rng.standard_normal((i + 1, 4)).astype(np.float32), "ids": np.arange(i + 1, dtype=np.int64)}
             for i in range(8)]
    _share_one_session(dynamic_onnx, lambda i: feeds[i])
